/* sample-write.h: the probe counts of all binaries gathered into one
   probe-based sample profile, written in LLVM's nested text format
   (doc/sample-format.md).

   One profile per top-level function GUID with at least one sample in
   its probe regions or those of its inlinees:

     NAME:TOTAL:HEAD
      INDEX: COUNT [F:N G:M ...]    every non-dangling probe, by index
      CALLPROBE: CALLEE:TOTAL       every inlinee, by call-site probe
       INDEX: COUNT                 ... its body one space deeper
       !CFGChecksum: HASH
      !CFGChecksum: HASH

   TOTAL is the sum of the body counts and of the inlinees' totals;
   HEAD is the count of probe 1 (the entry block), 0 when it is
   dangling or absent.  Right after the NAME line,
     #first-sample RANK
   (a comment to LLVM's reader) ranks the function, from 1, by the
   first sample anywhere in its code, inlinees included, in the order
   of the samples (perf script's, by time; the --perf files as given):
   the order in which the training run first spent time in each
   function, which sample-use turns into GCC's function order, as
   -fprofile-reorder-functions does with an instrumented time
   profile.  An indirect call probe seen in call stacks
   (probe-regions.h) lists the functions it called, F, G, ..., by
   profile name, with their calls N, M, ... estimated from call-stack
   samples (sample-write.c, calls_from_samples): most first, then by
   name.  After a function's body lines, its conditional jumps
   seen by samples with the flags register (probe-regions.h), as
     #branch SRC: TO:N TO:M
   (a comment to LLVM's reader): SRC the probe indices of the code
   holding the jump, each TO those of the code one way goes (where it
   jumps, where it falls through; a call-site probe stands for the code
   inlined there), comma-separated and ascending, the side with the
   lower first index first, and N and M the samples that saw it go
   each way.  Copies of one jump with equal sides are summed.  The
   copies of one probe (duplicated code), the
   records of one function in several parts (hot/cold split) or
   several binaries, and equal inline contexts are summed, call
   targets included.  A written function gets its whole inline tree,
   zero counts included: it ran, so zeros say something.  Functions
   are ordered by name, inlinees by call-site probe then name; so the
   output is deterministic.  A GUID without a descriptor cannot be
   named: it is skipped with a warning, inlinees included.  */

#ifndef LATEPGO_SAMPLE_WRITE_H
#define LATEPGO_SAMPLE_WRITE_H

#include <stdio.h>

#include "probe-decode.h"
#include "probe-regions.h"

struct out_func;

struct sample_profile
{
  struct out_func **tops;
  size_t num_tops, cap_tops;
  uint64_t *warned;		/* GUIDs already warned about.  */
  size_t num_warned;
  /* Every function at every inline context, by name and checksum
     (profile_write_values).  */
  struct out_func **instances;
  size_t num_instances, cap_instances;
};

void profile_init (struct sample_profile *prof);

/* Add the counts of the probes SET of binary BIN, cut into REGS.  */
void profile_add_binary (struct sample_profile *prof, const char *bin,
			 const struct probe_set *set,
			 const struct probe_regions *regs);

/* Write the profile to F; return the number of functions written.  */
size_t profile_write (struct sample_profile *prof, FILE *f);

/* For a context-sensitive profile of the same samples (cs-profile.c),
   whose records carry only counts: merge and normalize PROF once
   (profile_prepare), then per function, the "#sizes" lines of its
   probes among the NUM_IDS sorted IDS (those the record has body lines
   for, which a "#sizes" line follows) and its "#branch" lines, summed
   over all its copies in PROF (written to F after one record's body
   lines; returns 0 if PROF has none of the function NAME with
   checksum HASH), and its
   "#first-sample" rank (0 if none); last profile_free.  */
void profile_prepare (struct sample_profile *prof);
int profile_write_values (struct sample_profile *prof, const char *name,
			  uint64_t hash, const uint32_t *ids, size_t num_ids,
			  FILE *f);
uint64_t profile_first_sample (struct sample_profile *prof,
			       const char *name, uint64_t hash);
void profile_free (struct sample_profile *prof);

#endif /* LATEPGO_SAMPLE_WRITE_H */
