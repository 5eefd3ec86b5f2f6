/* sample-prof.h: LLVM's text sample profiles (doc/sample-format.md)
   in latepgo-profdata: read (flat, nested inlinees, CS contexts
   "[a:1 @ b]", latepgo's '#' extension lines), merge with weights,
   write sorted, and show.  */

#ifndef LATEPGO_SAMPLE_PROF_H
#define LATEPGO_SAMPLE_PROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sp_target
{
  char *name;
  uint64_t count;
};

struct sp_size
{
  uint64_t size, count;
};

/* A body line "ID[.DISC]: COUNT [F:N]...", with its "#sizes".  */
struct sp_rec
{
  uint32_t id, disc;
  uint64_t count;
  struct sp_target *targets;
  size_t num_targets, cap_targets;
  struct sp_size *sizes;
  size_t num_sizes, cap_sizes;
};

/* A "#branch SRC: TO:N TO:M" line; the lists kept as written.  */
struct sp_branch
{
  char *src, *to[2];
  uint64_t count[2];
};

struct sp_func;

/* An inlinee "ID[.DISC]: NAME:TOTAL" and its body.  */
struct sp_callsite
{
  uint32_t id, disc;
  struct sp_func *f;
};

/* A function, an inlinee or a CS context ("[a:1 @ b]" as its name).  */
struct sp_func
{
  char *name;
  uint64_t total, head, hash, attrs;
  int has_hash, has_attrs;
  uint64_t first_sample;	/* latepgo's rank, 0 if none.  */
  struct sp_rec *recs;
  size_t num_recs, cap_recs;
  struct sp_callsite *calls;
  size_t num_calls, cap_calls;
  struct sp_branch *branches;
  size_t num_branches, cap_branches;
};

/* The top-level functions (or contexts), hashed by name.  */
struct sp_profile
{
  struct sp_func **funcs;
  size_t num_funcs, cap_funcs;
  size_t *slots;		/* Index + 1 into funcs, 0 empty.  */
  size_t num_slots;
};

void sp_profile_init (struct sp_profile *p);
void sp_profile_free (struct sp_profile *p);

/* Parse the text profile BUF[0, LEN) into P (empty), every count
   multiplied by WEIGHT.  Return 0, or -1 with "line N: WHY" in ERR.  */
int sp_parse (struct sp_profile *p, const char *buf, size_t len,
	      uint64_t weight, char *err, size_t errlen);

/* Read the file PATH into P; -1 with a message in ERR on error.  */
int sp_read_file (struct sp_profile *p, const char *path, uint64_t weight,
		  char *err, size_t errlen);

/* Add SRC into DST.  A function or inlinee whose !CFGChecksum differs
   from DST's is left out, warned about with PATH; returns the number
   left out.  */
size_t sp_merge (struct sp_profile *dst, const struct sp_profile *src,
		 const char *path);

/* The index + 1 in P->funcs of the function NAME, 0 if none.  */
size_t sp_index (const struct sp_profile *p, const char *name);

/* Sort P (functions by total descending then name, lines by id) and
   write it; -1 on a write error.  */
int sp_write (struct sp_profile *p, FILE *out);

#endif /* LATEPGO_SAMPLE_PROF_H */
