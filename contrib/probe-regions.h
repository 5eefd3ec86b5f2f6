/* probe-regions.h: the code of a binary cut into probe regions, the
   samples that fall into each and the count estimate of each probe.

   The region of a non-dangling probe runs from its address to the next
   higher non-dangling probe address, but never past the next function
   bound (elf-read.h: a FUNC symbol's start or end, an executable
   section's end).  Probes at the same address share the region.
   Dangling probes own no code and get no region.

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
};

struct probe_regions
{
  struct probe_region *regions;	/* Sorted by address, disjoint.  */
  size_t num_regions;
  /* Per probe of the set (same indices): its region, or SIZE_MAX for a
     dangling probe.  */
  size_t *probe_region;
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

/* Samples in the region of probe P (an index into the set), 0 for a
   dangling probe.  */
uint64_t regions_probe_samples (const struct probe_regions *regs, size_t p);

/* The count estimate of probe P (see above).  */
uint64_t regions_probe_count (const struct probe_regions *regs, size_t p);

#endif /* LATEPGO_PROBE_REGIONS_H */
