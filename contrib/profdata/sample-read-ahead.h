/* sample-read-ahead.h: the inputs of merge --sample read on worker
   threads ahead of their merge, and handed to it in their order
   (sample-read-ahead.c).  */

#ifndef LATEPGO_SAMPLE_READ_AHEAD_H
#define LATEPGO_SAMPLE_READ_AHEAD_H

#include "sample-prof.h"

struct sp_read_ahead;

/* Start reading the NUM files PATHS, weighted by WEIGHTS (both kept
   by the caller until sp_read_ahead_finish), on up to THREADS
   threads.  */
struct sp_read_ahead *sp_read_ahead_start (const char *const *paths,
					   const uint64_t *weights,
					   size_t num, int threads);

/* Input I, the next one in order: its profile (0), or -1 with the
   message in *ERR.  Either way sp_read_ahead_release (RA, I) must
   follow, after which the profile is gone.  */
int sp_read_ahead_get (struct sp_read_ahead *ra, size_t i,
		       struct sp_profile **prof, const char **err);
void sp_read_ahead_release (struct sp_read_ahead *ra, size_t i);

/* Join the threads (every input having been released).  */
void sp_read_ahead_finish (struct sp_read_ahead *ra);

#endif /* LATEPGO_SAMPLE_READ_AHEAD_H */
