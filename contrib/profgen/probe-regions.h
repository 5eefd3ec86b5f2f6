/* probe-regions.h: the code of a binary cut into probe regions, the
   samples that fall into each and the count estimate of each probe.

   The sizes of memcpy, memmove, mempcpy, memset, memcmp and bcmp
   calls come from
   samples that carry the register DX (perf record --user-regs=dx) and
   whose IP is in the call's window: the call instruction (or tail
   jump) and the instructions before it that run straight into it (no
   jump, call or return in between) without writing DX.  At the call
   DX is the third argument, the size (x86-64 SysV ABI), and in the
   window it already is.  Which samples land there depends little on
   the size (a sample inside the callee would favour long copies, and
   there the callee has already changed its registers); stalls at the
   call (a full store buffer after a long copy) can still favour some
   calls.  A call instruction belongs to the call probe with
   the highest address between the previous call instruction (or the
   function's start) and it, when exactly one probe has that address:
   a call probe's address is that of its call statement's first
   instruction.  objdump -d finds the calls; without it there are no
   sizes.

   The region of a non-dangling probe runs from its address to the next
   higher non-dangling probe address, but never past the next function
   bound (elf-read.h: a FUNC symbol's start or end, an executable
   section's end).  Probes at the same address share the region.
   Dangling probes own no code and get no region.

   An indirect call probe also collects the functions it called, from
   call stacks (regions_add_call): per probe, callee name -> samples.
   A callee reached by an indirect tail call (jmp *REG) has no frame of
   the function that jumped: its return address is in that function's
   caller, at a direct call of it.  When the callee is not the function
   that call names, and that function has exactly one indirect tail
   jump in an indirect call probe's region and no direct tail jump that
   could have led to the callee (to it, or to a function with indirect
   tail jumps of its own), the call went through that jump
   (regions_add_tail_call).

   Count of a probe = round (100 * samples in its region / instructions
   in its region): how often the block ran, in units of 1/100 sample
   per instruction, so that a long and a short block that run equally
   often get equal counts.  Instructions are counted in the output of
   objdump -d; without objdump, a region of B bytes is taken to hold
   max (1, B / 4) instructions.

   The conditional jumps (from objdump -d) collect the direction seen
   by samples that interrupted them with the flags register
   (jcc-flags.h): how often each was about to jump and how often to
   fall through.  */

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
  /* Call-stack samples whose leaf frame is here (regions_add_leaf).  */
  uint64_t leaf_samples;
  /* The ordinal of its first sample among all samples, in time order
     (see regions_add_sample); 0 without samples.  */
  uint64_t first_sample;
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

/* How often a memory-operation call was seen with a size: the value
   of DX in samples in the call's window (see above).  */
struct size_count
{
  uint64_t size;
  uint64_t samples;
};

struct probe_sizes
{
  struct size_count *sizes;	/* In the order first seen.  */
  size_t num, cap;
};

/* A call instruction to memcpy, memmove, mempcpy, memset, memcmp or
   bcmp (or a tail
   jump to one) and the call probe of the call statement it comes from
   (SIZE_MAX if unknown).  */
struct memop_call
{
  uint64_t addr;
  /* The first address from which the code runs straight to the call
     without changing DX: a sample there already has the size in DX.  */
  uint64_t window;
  uint64_t floor;		/* The lowest address its probe may have.  */
  size_t probe;
};

/* A direct call instruction: its address, the address it returns to
   (the next instruction's) and the address it calls.  */
struct direct_call
{
  uint64_t addr, ret, target;
};

/* An unconditional jump out of its function (to a function's start):
   a tail call.  FN is the address of the function symbol holding it,
   TARGET the address it jumps to, 0 for an indirect jump.  */
struct tail_jump
{
  uint64_t addr, fn, target;
};

/* A conditional jump with a direct target: its address, the next
   instruction's (where it falls through), its target, its condition
   code, and the samples that saw it about to jump or not.  */
struct cond_jump
{
  uint64_t addr, next, target;
  int cond;
  uint64_t taken, not_taken;
};

/* A call instruction, or a direct jump to another function (a tail
   call): where branch records leave for a callee.  PROBE is the call
   probe of its call (SIZE_MAX if unknown): the one at its address
   (LLVM's call probes), else the highest call probe between it and
   the previous call or the function's start, when exactly one probe
   has that address (latepgo's, at the start of the call statement's
   code).  */
struct call_insn
{
  uint64_t addr;
  uint64_t floor;		/* The lowest address its probe may have.  */
  size_t probe;
  int indirect;			/* call *REG, call *MEM.  */
  int is_call;			/* A call, not a jump.  */
};

struct probe_regions
{
  struct probe_region *regions;	/* Sorted by address, disjoint.  */
  size_t num_probes;		/* Of the set.  */
  size_t num_regions;
  /* Per probe of the set (same indices): its region, or SIZE_MAX for a
     dangling probe.  */
  size_t *probe_region;
  /* The non-dangling probes (indices into the set) by address.  */
  size_t *sorted_probes;
  /* Per probe: its call targets; NULL until the first one is added.  */
  struct probe_targets *targets;
  /* The memop calls, by address (from objdump), and per probe the
     sizes seen at its call; NULL until the first one is added.  */
  struct memop_call *memop_calls;
  size_t num_memop_calls, cap_memop_calls;
  struct probe_sizes *sizes;
  /* The direct calls and the tail jumps (from objdump), by address.  */
  struct direct_call *calls;
  size_t num_calls, cap_calls;
  struct tail_jump *tail_jumps;
  size_t num_tail_jumps, cap_tail_jumps;
  /* The conditional jumps (from objdump), by address.  */
  struct cond_jump *jumps;
  size_t num_jumps, cap_jumps;
  /* The probe set the regions are of.  */
  const struct probe_set *set;
  /* From objdump: the address of every instruction, the calls and tail
     jumps, and the instructions llvm-profgen takes for a prologue or
     epilogue (the first two of a function, a return and the one
     before it), all by address.  */
  uint64_t *insn_addrs;
  size_t num_insn_addrs, cap_insn_addrs;
  struct call_insn *call_insns;
  size_t num_call_insns, cap_call_insns;
  uint64_t *pro_epi;
  size_t num_pro_epi, cap_pro_epi;
  uint64_t *rets;		/* The return instructions.  */
  size_t num_rets, cap_rets;
  uint64_t insn_lo, insn_hi;	/* The span objdump disassembled.  */
  /* Branch stacks (regions_add_range, regions_add_branch): per region
     plus one, the change of the number of ranges covering it from the
     region before, and (regions_finish_ranges) the number of times
     the region's first instruction ran; per probe, the
     branch records leaving the call instruction of a call probe.
     NULL until the first one.  */
  uint64_t *range_diff, *range_cover;
  uint64_t *call_branches;
  int ranges_finished;
  uint64_t ranges, ranges_off_insns;	/* For warnings.  */
  /* How counts are combined (regions_probe_count): 0 when the run has
     no branch stacks; else 1, and IP_SCALE converts an IP estimate
     into branch-stack counts.  */
  int branch_units;
  double ip_scale;
  int insns_estimated;		/* objdump was not available.  */
  uint64_t attributed;		/* Samples that fell into a region.  */
  uint64_t unattributed;	/* Samples of the binary outside them.  */
};

/* Cut ELF's code into the regions of SET's probes and count their
   instructions.  VERBOSE: say how instructions were counted.  */
void regions_build (const struct elf_file *elf, const struct probe_set *set,
		    struct probe_regions *regs, int verbose);

/* Count a sample at virtual address VADDR, the SEQth sample (from 1)
   of the profile in time order.  */
void regions_add_sample (struct probe_regions *regs, uint64_t vaddr,
			 uint64_t seq);

/* A range of code that ran straight through COUNT times, from START
   to the instruction at END (llvm-profgen's range: from a branch
   record's target to the next record's source), the SEQth sample.  */
void regions_add_range (struct probe_regions *regs, uint64_t start,
			uint64_t end, uint64_t count, uint64_t seq);

/* A branch record from FROM to TO (in this binary or, with TO_REGS
   and TO_SET, in another; TO_REGS NULL when TO is outside the
   binaries) seen COUNT times, the SEQth sample: a call instruction
   at FROM counts for its call probe, an indirect one also its callee
   as a call target.  Return 1 if FROM is a call with a call probe.  */
int regions_add_branch (struct probe_regions *regs, uint64_t from,
			const struct probe_regions *to_regs, uint64_t to,
			uint64_t count, uint64_t seq);

/* After the last range: the number of times each region's first
   instruction ran.  */
void regions_finish_ranges (struct probe_regions *regs);

/* True if VADDR is an instruction llvm-profgen takes for part of a
   prologue or epilogue (see above), where a call stack is not
   trusted.  */
int regions_in_prologue (const struct probe_regions *regs, uint64_t vaddr);

/* The count from branch stacks of probe P: for a block probe, the
   times its first instruction ran; for a call probe, the branch
   records leaving its call; 0 for a dangling probe.  */
uint64_t regions_probe_branch_count (const struct probe_regions *regs,
				     size_t p);

/* The index of the region holding VADDR, or SIZE_MAX.  */
size_t regions_region_at (const struct probe_regions *regs, uint64_t vaddr);

/* The IP estimate of probe P (see above), 0 for a dangling probe.  */
uint64_t regions_probe_ip_count (const struct probe_regions *regs, size_t p);

/* The profile name (the descriptor's name of the top-level function of
   the inline tree) of the code holding VADDR: of the first probe of
   its region.  NULL outside the regions or without a descriptor.  */
const char *regions_function_at (const struct probe_regions *regs,
				 const struct probe_set *set, uint64_t vaddr);

/* Count one call from the code at VADDR to CALLEE (a profile name that
   outlives REGS) for the indirect call probe whose region holds VADDR.
   Return 1, or 0 without counting when that region has no indirect
   call probe, or more than one (which made the call is unknown), or
   when the instruction at VADDR is a direct call.  */
int regions_add_call (struct probe_regions *regs, const struct probe_set *set,
		      uint64_t vaddr, const char *callee);

/* Count one call to CALLEE (as regions_add_call) for the indirect tail
   jump it must have come through (see above), given VADDR, an address
   in the call instruction of its caller's frame.  Return 1, or 0
   without counting when that is not a direct call or the jump is not
   known for sure.  */
int regions_add_tail_call (struct probe_regions *regs,
			   const struct probe_set *set, uint64_t vaddr,
			   const char *callee);

/* A sample at VADDR with the register DX: when VADDR is in the window
   of a memop call whose call probe is known, count DX as a size of
   that call.  Return 1 if counted, else 0.  */
int regions_add_size (struct probe_regions *regs, uint64_t vaddr,
		      uint64_t dx);

/* A sample at VADDR with the flags register FLAGS: when VADDR is a
   conditional jump, count the way FLAGS sends it.  Return 1 if
   counted, else 0.  */
int regions_add_flags (struct probe_regions *regs, uint64_t vaddr,
		       uint64_t flags);

/* The same on AArch64, with the general registers X of the sample:
   the way a cbz, cbnz, tbz or tbnz at VADDR goes (a64-insn.h).  */
struct a64_regs;
int regions_add_a64_regs (struct probe_regions *regs, uint64_t vaddr,
			  const struct a64_regs *x);

/* The code of inline context NODE in the region holding ADDR, as
   probe indices of NODE's function: those of its probes there, and
   for code inlined into it (a descendant context), the call-site
   probe in NODE of that inlining.  Up to MAX distinct indices go into
   OUT, sorted; return how many there are, which may exceed MAX.  */
size_t regions_context_probes_at (const struct probe_regions *regs,
				  const struct probe_set *set, uint64_t addr,
				  uint32_t node, uint32_t *out, size_t max);

/* The distinct inline contexts of the block probes in the region
   holding ADDR: up to MAX into OUT; return how many there are, which
   may exceed MAX.  */
size_t regions_block_contexts_at (const struct probe_regions *regs,
				  const struct probe_set *set, uint64_t addr,
				  uint32_t *out, size_t max);

/* Count a call-stack sample whose leaf frame is at VADDR: the callee
   time that turns an indirect call's callee samples into calls
   (sample-write.h).  */
void regions_add_leaf (struct probe_regions *regs, uint64_t vaddr);

/* Samples in the region of probe P (an index into the set), and its
   counts from branch stacks; 0 for a dangling probe.  */
uint64_t regions_probe_samples (const struct probe_regions *regs, size_t p);

/* The ordinal of the first sample in the region of probe P (see
   regions_add_sample), 0 for none or a dangling probe.  */
uint64_t regions_probe_first_sample (const struct probe_regions *regs,
				     size_t p);

/* The count of probe P: its IP estimate (see above) when the run has
   no branch stacks; else its count from them plus its IP estimate
   times IP_SCALE, rounded.  */
uint64_t regions_probe_count (const struct probe_regions *regs, size_t p);

#endif /* LATEPGO_PROBE_REGIONS_H */
