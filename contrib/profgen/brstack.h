/* brstack.h: the ranges and branches of a branch-stack sample, as
   llvm-profgen 14 takes them (its PerfReader.cpp: extractLBRStack,
   computeCounterFromLBR, the virtual unwinder's ranges).

   The records of a sample come newest first.  A record whose two ends
   are outside the binaries is dropped.  One from outside into a
   binary (a return from a library, say) is joined with the next
   (older) record that leaves a binary for the outside (the call into
   that library): the two become one "artificial" record from that
   call to where the code came back, which stands for a range end and
   start but is no branch of ours.  A record leaving for the outside
   is kept as the newest one only (the sample interrupted the outside
   code); anywhere else, and a pair that does not join up, ends the
   records there.

   Then each record i but the newest gives a range, from its target to
   the source of record i-1: the code that ran straight from one
   branch to the next.  (The code after the newest record, up to the
   sampled IP, is left out, as llvm-profgen does.)  Each record that
   is not artificial and lands in a binary is a branch, counted for
   the call probe of a call instruction at its source.  */

#ifndef LATEPGO_BRSTACK_H
#define LATEPGO_BRSTACK_H

#include <stddef.h>
#include <stdint.h>

#include "perf-samples.h"

/* One record after the joining above: TO_BIN -1 when it leaves for
   the outside.  */
struct lbr_entry
{
  int from_bin, to_bin;
  uint64_t from, to;
  int artificial;
};

struct lbr_stats
{
  uint64_t leading_outgoing;	/* Newest record left for the outside.  */
  uint64_t cut;			/* Samples whose records were cut short.  */
  uint64_t ranges;		/* Ranges given (counted).  */
  uint64_t cross_binary;	/* Ranges from one binary into another.  */
  uint64_t backward;		/* Ranges whose end is before their start.  */
};

/* The entries of sample S into OUT (room for S->num); return how
   many.  */
size_t lbr_entries (const struct branch_sample *s, struct lbr_entry *out,
		    struct lbr_stats *st);

/* The ranges of the NUM entries E, each standing for COUNT samples:
   call RANGE_FN (CTX, BIN, START, END, COUNT) for each, in binary BIN
   from START to END.  */
void lbr_ranges (const struct lbr_entry *e, size_t num, uint64_t count,
		 void (*range_fn) (void *, int, uint64_t, uint64_t,
				   uint64_t),
		 void *ctx, struct lbr_stats *st);

#endif /* LATEPGO_BRSTACK_H */
