/* cs-profile.h: context-sensitive probe-based profiles (--csprof), as
   llvm-profgen 14 writes them for a binary with pseudo probes and a
   perf script of branch stacks with call stacks (its "hybrid"
   samples, perf record -b -g).

   Each sample's call stack (perf script's frames, leaf first) gives
   the calling context of its newest branch record, as llvm-profgen's
   virtual unwinder takes it (PerfReader.cpp):
    - the frames are cut at the first one outside the sample's binary
      (the leaf's) and at a return address that does not follow a call
      instruction; each frame but the leaf stands for the call
      instruction before its return address; a sample without frames
      in a binary, or with its leaf in a prologue or epilogue
      (regions_in_prologue), is dropped;
    - the leaf becomes the newest record's target; walking the records
      from newest to oldest, the range from record i's target to record
      i-1's source ran in the current context; then record i's source
      is the new leaf address: a call instruction pops the leaf frame
      (when the frame above is that call; else the leaf becomes the
      call), a return whose target follows a call pushes a frame (the
      return's callee, called from there), any other branch moves the
      leaf.  A branch counts in the context after that step;
    - a range or branch's context is the stack without its leaf frame,
      each frame's call instruction turned into its call probe; a frame
      without a call probe cuts the context there (only the frames
      below it stay); then the context's recursion is compressed
      (adjacent repeated sequences of frames kept once, any length, as
      llvm-profgen's default --compress-recursion=-1).

   Then per context (llvm-profgen's CSProfileGenerator): each block
   probe counts the ranges covering its address; its profile's context
   is the sample context, each call probe expanded by its inline
   context in the binary ("main:2 @ foo:8", from the probe inline
   tree), then the probe's own inline context, compressed again, and
   the probe's function as the leaf.  A profile gets its probes'
   counts as body lines, adds them to its TOTAL, probe 1 to its HEAD,
   and every probe of an inline context that got a count gets a body
   line (0 when none).  Probe 1 of a function inlined in the binary
   also counts, with its function as call target, on the call-site
   probe line of the caller's profile.  A branch leaving a call probe's
   call instruction counts on that probe's line, with the function
   starting at its target as call target (a FUNC symbol's start, named
   by the descriptor of the probes in it; a function without probes
   is no target).  A profile's !CFGChecksum is
   its function's descriptor hash, and "!Attributes: 1" (LLVM's
   ContextWasInlined) marks a profile whose function was inlined in the
   binary at that context.

   Output: LLVM's flat text format for CS profiles, profiles ordered by
   TOTAL (highest first), then by context; body lines by probe index,
   call targets by count (highest first), then by name.  No cold
   context is merged or trimmed and no pre-inliner runs: the output is
   llvm-profgen's with --profile-summary-cold-count=0
   --csspgo-preinliner=0.  Contexts span one binary (the leaf's).

   IP samples with call stacks (perf record --call-graph=dwarf or -g,
   no branch stacks; cs_add_ip_sample): the sample's IP is the leaf,
   its other frames give the context as above (frames outside the
   leaf's binary or not after a call cut it, each frame's call turned
   into its call probe, a frame without one cutting the context,
   recursion compressed); no sample is dropped for a leaf in a
   prologue, so that every sample in a probe region counts in some
   context.  Per context, each region counts its samples, and each of
   its probes gets the flat IP estimate (probe-regions.h) of those
   samples: round (100 * samples / instructions of the region).  Then
   profiles are made as for ranges: inline contexts expanded, probe 1
   of an inlined function on its call site.  Summed over the contexts
   of a function, the counts are the flat profile's, but for rounding
   (at most 1 per context and probe).  */

#ifndef LATEPGO_CS_PROFILE_H
#define LATEPGO_CS_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "brstack.h"
#include "perf-samples.h"
#include "probe-decode.h"
#include "probe-regions.h"
#include "sample-write.h"

struct cs_context;
struct cs_state;

/* LLVM's context attributes (!Attributes): the function was inlined
   at this context in the binary; a pre-inliner says it should be.  */
#define CS_CONTEXT_WAS_INLINED 1
#define CS_CONTEXT_SHOULD_BE_INLINED 2

/* A body line of an output profile, and a call target on one.  */
struct cs_body
{
  uint32_t index;
  uint64_t count;
};

struct cs_target
{
  uint32_t index;
  const char *name;
  uint64_t count;
};

/* One output profile: its context, "main:2 @ foo:8 @ bar" (the
   last frame its function), counts and lines.  */
struct cs_func
{
  char *ctx;			/* "main:2 @ foo:8 @ bar".  */
  uint64_t total, head, hash;
  int attr;
  /* Made by add_missing_callers, not by a sample of its own.  */
  int made_for_contexts;
  struct cs_body *bodies;
  size_t num_bodies, cap_bodies;
  struct cs_target *targets;
  size_t num_targets, cap_targets;
};



struct cs_profile
{
  size_t num_bins;
  const struct probe_set *const *sets;
  const struct probe_regions *const *regs;
  const struct elf_file *const *elfs;
  struct cs_state *state;
  /* What happened to the samples (counted by their count).  */
  uint64_t samples, no_stack, outside, prologue, unwound;
  /* IP samples with call stacks: all, with the leaf outside the
     binaries' probe regions, counted in a context.  */
  uint64_t ip_samples, ip_outside, ip_counted;
  /* Run the pre-inliner (preinline.h) before writing: 1 yes, 0 no,
     -1 when the samples have branch stacks; print its decisions to
     PREINLINE_DEBUG when not NULL.  */
  int preinline;
  FILE *preinline_debug;
};

/* Add COUNT to F's body line INDEX, or to its call target NAME on that
   line; a new line or target when it has none.  */
void cs_add_body (struct cs_func *f, uint32_t index, uint64_t count);
void cs_add_target (struct cs_func *f, uint32_t index, const char *name,
		    uint64_t count);

/* Start a CS profile of NUM binaries: their ELF files ELFS, probe
   sets SETS and regions REGS (the arrays outlive CS).  */
void cs_init (struct cs_profile *cs, size_t num,
	      const struct elf_file *const *elfs,
	      const struct probe_set *const *sets,
	      const struct probe_regions *const *regs);

/* Unwind sample S, whose records brstack.h turned into the N entries
   E, into the contexts.  */
void cs_add_sample (struct cs_profile *cs, const struct branch_sample *s,
		    const struct lbr_entry *e, size_t n);

/* --csprof from IP samples: the sample of COUNT at the leaf frame
   FRAMES[0] with the call stack FRAMES[1..N) (return addresses, as
   they are or minus 1; their binaries BINS), as perf-samples.h's
   perf_ipstack_fn passes it.  */
void cs_add_ip_sample (struct cs_profile *cs, uint64_t count, size_t n,
		       const int *bins, const uint64_t *frames);

/* Write the profiles to F; return how many were written.  With FLAT,
   the flat profile of the same samples (prepared: sample-write.h), the
   first record written of each function that is not to be inlined
   also gets FLAT's "#first-sample", "#sizes" and "#branch" lines of the
   function, summed over its copies: value profiles and branch
   directions are per function, not per context, in these profiles
   (sample-use sums a function's records into its flat profile, which
   annotates its body before its copies inline).  */
size_t cs_write (struct cs_profile *cs, FILE *f,
		 struct sample_profile *flat);

#endif /* LATEPGO_CS_PROFILE_H */
