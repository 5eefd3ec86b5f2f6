/* probe-regions.h: the code of a binary cut into probe regions, the
   samples that fall into each and the count estimate of each probe.

   The region of a non-dangling probe runs from its address to the next
   higher non-dangling probe address, but never past the next function
   bound (elf-read.h: a FUNC symbol's start or end, an executable
   section's end).  Probes at the same address share the region.
   Dangling probes own no code and get no region.

   An indirect call probe also collects the functions it called, from
   call stacks (regions_add_call): per probe, callee name -> samples.

   Count of a probe = round (100 * samples in its region / instructions
   in its region): how often the block ran, in units of 1/100 sample
   per instruction, so that a long and a short block that run equally
   often get equal counts.  Instructions are counted in the output of
   objdump -d; without objdump, a region of B bytes is taken to hold
   max (1, B / 4) instructions.  */

#ifndef LATEPGO_PROBE_REGIONS_H
#define LATEPGO_PROBE_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "elf-read.h"
#include "probe-decode.h"

struct probe_region
{
  uint64_t start, end;
  uint64_t samples;
  uint64_t insns;
  /* Its probes: sorted_probes[first_probe .. first_probe+num_probes).  */
  size_t first_probe, num_probes;
};

/* A function an indirect call probe called, by its profile name, and
   in how many call-stack samples.  */
struct call_target
{
  const char *name;		/* A descriptor's name: not owned.  */
  uint64_t samples;
};

struct probe_targets
{
  struct call_target *targets;	/* In the order first seen.  */
  size_t num, cap;
};

struct probe_regions
{
  struct probe_region *regions;	/* Sorted by address, disjoint.  */
  size_t num_regions;
  /* Per probe of the set (same indices): its region, or SIZE_MAX for a
     dangling probe.  */
  size_t *probe_region;
  /* The non-dangling probes (indices into the set) by address.  */
  size_t *sorted_probes;
  /* Per probe: its call targets; NULL until the first one is added.  */
  struct probe_targets *targets;
  int insns_estimated;		/* objdump was not available.  */
  uint64_t attributed;		/* Samples that fell into a region.  */
  uint64_t unattributed;	/* Samples of the binary outside them.  */
};

/* Cut ELF's code into the regions of SET's probes and count their
   instructions.  VERBOSE: say how instructions were counted.  */
void regions_build (const struct elf_file *elf, const struct probe_set *set,
		    struct probe_regions *regs, int verbose);

/* Count a sample at virtual address VADDR.  */
void regions_add_sample (struct probe_regions *regs, uint64_t vaddr);

/* The profile name (the descriptor's name of the top-level function of
   the inline tree) of the code holding VADDR: of the first probe of
   its region.  NULL outside the regions or without a descriptor.  */
const char *regions_function_at (const struct probe_regions *regs,
				 const struct probe_set *set, uint64_t vaddr);

/* Count one call from the code at VADDR to CALLEE (a profile name that
   outlives REGS) for the indirect call probe whose region holds VADDR.
   Return 1, or 0 without counting when that region has no indirect
   call probe, or more than one (which made the call is unknown).  */
int regions_add_call (struct probe_regions *regs, const struct probe_set *set,
		      uint64_t vaddr, const char *callee);

/* Samples in the region of probe P (an index into the set), 0 for a
   dangling probe.  */
uint64_t regions_probe_samples (const struct probe_regions *regs, size_t p);

/* The count estimate of probe P (see above).  */
uint64_t regions_probe_count (const struct probe_regions *regs, size_t p);

#endif /* LATEPGO_PROBE_REGIONS_H */
