/* latepgo-profgen.c: main program of latepgo-profgen, which turns perf
   samples of binaries built with -fplugin-arg-latepgo-probes (or
   clang's -fpseudo-probe-for-profiling) into a probe-based LLVM sample
   profile (text, nested): IP samples, for the machines where
   llvm-profgen cannot help (it needs LBR, and they only have cpu-clock
   samples; doc/data-path.md section 8), and branch stacks, as
   llvm-profgen reads them.

     latepgo-profgen --binary=BIN [--binary=LIB.so ...] --perf=perf.data -o OUT

   Several --perf files add up.  Those recorded with call stacks
   (perf record --call-graph=dwarf, or -g) also give the callees of
   the indirect calls: a sample whose IP is in function F of a binary
   and whose return address (frame 1) is in an IndirectCall probe's
   region is one call of F from that probe.  So a high-frequency IP
   session and a cheap low-frequency call-stack session can be
   combined.  Those recorded with the register DX (perf record
   --user-regs=dx) also give the sizes of memcpy, memset and memcmp
   calls:
   DX at a sample on the call instruction or on one of the instructions
   before it that leave DX alone (probe-regions.h).  Those recorded
   with the flags register (--user-regs=flags) also give the directions
   of conditional jumps: at a sample on one, which has not run yet, the
   flags say whether it jumps (jcc-flags.h).  Those recorded with
   branch stacks (perf record -b or -j: LBR, BRS, BRBE, or Intel PT
   through perf inject) give exact block and call counts from the
   ranges between the branch records, as llvm-profgen computes them
   (brstack.h); both kinds in one run add up (finish_branch_counts).

   The pieces, one file each: elf-read.c (sections, build id, PT_LOAD,
   function bounds), probe-decode.c (.pseudo_probe, .pseudo_probe_desc),
   probe-regions.c (code regions of the probes, instruction counts,
   count estimates, call targets, memop sizes, conditional jumps),
   jcc-flags.c (jump conditions), perf-samples.c (perf buildid-list and
   perf script, mappings, build-id checks, call stacks, DX, FLAGS,
   branch stacks), brstack.c (branch records into ranges),
   sample-write.c (the output), run-cmd.c (running perf and
   objdump).

   --show-probes prints each decoded probe on one line, in the order of
   the .pseudo_probe section, after a line "# BIN" per binary:

     GUID NAME INDEX TYPE 0xADDR [dangling] [@ CALLER:CALLPROBE ...]

   GUID decimal; NAME from .pseudo_probe_desc ("?" without one); TYPE
   Block, IndirectCall or DirectCall; "dangling" for a probe that owns
   no instruction; then the inline context, outermost caller first, one
   "@ CALLER:CALLPROBE" per frame, as llvm-profgen --show-pseudo-probe
   prints it.  For example
     15822663052811949562 main 3 Block 0x1141
     11347123691026415594 k.c:classify_all 8 Block 0x10dd @ main:6  */

#define _GNU_SOURCE
#include "brstack.h"
#include "cs-profile.h"
#include "elf-read.h"
#include "perf-samples.h"
#include "probe-decode.h"
#include "probe-regions.h"
#include "sample-write.h"
#include "tool-util.h"

#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One --binary.  */
struct binary
{
  struct elf_file elf;
  struct probe_set probes;
  struct probe_regions regions;
};

/* What the perf_read_samples callbacks need.  */
struct sample_ctx
{
  struct binary *bins;
  uint64_t seq;			/* Samples so far, of every file.  */
  uint64_t calls;		/* Call-stack samples given to a call site.  */
  uint64_t tail_calls;		/* ... to an indirect tail jump.  */
  uint64_t sizes;		/* Samples that gave a memop call a size.  */
  uint64_t directions;		/* ... a conditional jump a direction.  */
  /* The previous sample with DX: its binary, address and DX.  */
  size_t last_bin;
  uint64_t last_vaddr, last_dx;
  /* Branch stacks: their entries, what happened to them.  */
  struct lbr_entry *entries;
  size_t cap_entries;
  struct lbr_stats lbr;
  uint64_t prologue_dropped;	/* Samples llvm-profgen would drop.  */
  uint64_t call_branches;	/* Records counted for a call probe.  */
  struct cs_profile *cs;	/* --csprof: the contexts, else NULL.  */
};

static void
print_usage (FILE *f)
{
  fprintf (f,
"Usage: %s --binary=BIN [--binary=BIN]... --perf=FILE... -o OUT\n"
"       %s --binary=BIN [--binary=BIN]... --perfscript=FILE... -o OUT\n"
"       %s --binary=BIN [--binary=BIN]... --csprof --perfscript=FILE... -o OUT\n"
"       %s --binary=BIN [--binary=BIN]... --csprof --perf=FILE... -o OUT\n"
"       %s --binary=BIN [--binary=BIN]... --show-probes\n"
"Turn perf samples of binaries built with -fplugin-arg-latepgo-probes\n"
"into a probe-based LLVM sample profile (text, nested inline contexts).\n"
"\n"
"  --binary=BIN       a probed executable or shared library (PIE or not);\n"
"                     give every one whose samples you want\n"
"  --perf=FILE        perf.data written by\n"
"                       perf record -e cpu-clock [-F FREQ|-c PERIOD] -- CMD\n"
"                     read with 'perf buildid-list' and 'perf script'; the\n"
"                     binaries must be the builds that were recorded (build id);\n"
"                     with call stacks (perf record --call-graph=dwarf or -g)\n"
"                     also the targets of indirect calls; with the register\n"
"                     DX (perf record --user-regs=dx) also the sizes of\n"
"                     memcpy/memmove/mempcpy/memset/memcmp/bcmp calls; with\n"
"                     the flags register (--user-regs=flags) also the\n"
"                     directions of conditional jumps; may be repeated:\n"
"                     the samples of all files add up; with branch stacks\n"
"                     (perf record -b or -j) exact counts from the branch\n"
"                     records\n"
"  --perfscript=FILE  instead of --perf: the output of\n"
"                       perf script -i perf.data --show-mmap-events \\\n"
"                         --show-task-events -G -F pid,ip[,uregs][,brstack]\n"
"                     or llvm-profgen's input (perf script -F ip,brstack\n"
"                     --show-mmap-events, with or without call stacks, or\n"
"                     aggregated), or for branch stacks with call stacks\n"
"                       perf script -i perf.data --show-mmap-events \\\n"
"                         --show-task-events --no-inline -F pid,ip,dso,brstack\n"
"                     (--verbose names the command --perf runs); build\n"
"                     ids cannot be checked; files are\n"
"                     matched by path, then by file name; no call targets\n"
"                     from call stacks; may be repeated\n"
"  -o, --output=OUT   the profile to write ('-' for standard output)\n"
"  --csprof           a context-sensitive profile, as llvm-profgen 14 writes\n"
"                     it for probes (no cold context merged): from\n"
"                     samples with branch stacks and call stacks\n"
"                     (perf record -b -g, as --perf or --perfscript;\n"
"                     others are dropped), or from IP samples with call\n"
"                     stacks (--perf; perf record\n"
"                     --call-graph=dwarf), flat contexts\n"
"                       [main:2 @ foo:8 @ bar]:TOTAL:HEAD\n"
"                     each call site a call probe of the stack or inlined\n"
"                     in the binary (see below)\n"
"  --preinline, --no-preinline\n"
"                     with --csprof, run llvm-profgen 14's pre-inliner or\n"
"                     not: it marks the hot contexts to inline\n"
"                     (!Attributes: 2) and folds the others into their\n"
"                     function's base profile; default: on with branch\n"
"                     stacks, off with IP samples only\n"
"  --preinline-debug  print the pre-inliner's decisions to stderr, as\n"
"                     llvm-profgen's --debug-only=cs-preinliner\n"
"  --show-probes      print every decoded probe, one line each:\n"
"                       GUID NAME INDEX TYPE 0xADDR [dangling] [@ CALLER:CALLPROBE ...]\n"
"                     after a line '# BIN' per binary; the inline context is\n"
"                     outermost caller first, as llvm-profgen prints it\n"
"  --verbose          statistics and notes on standard error\n"
"  --help             this text\n"
"\n"
"A sample goes to the probe region holding it: from a probe's address to\n"
"the next probe or function end.  A probe's count is\n"
"round (100 * samples in its region / instructions in its region)\n"
"(instructions from objdump -d), so blocks that run equally often get\n"
"equal counts whatever their length.  Probes that own no instruction\n"
"(dangling) have unknown counts and are not written.\n"
"\n"
"With call stacks, a sample whose IP is in function F of a binary and\n"
"whose return address (the second frame) is in the region of an\n"
"IndirectCall probe counts one call of F there; the probe's line gets\n"
"  INDEX: COUNT F:CALLS G:CALLS ...\n"
"(most called first): F's samples at that call, which measure its time,\n"
"turned into calls: times F's entry count, over F's call-stack samples.\n"
"\n"
"With DX, a sample whose IP is a call to memcpy, memmove, mempcpy,\n"
"memset, memcmp or bcmp (objdump -d), a tail jump to one, or an\n"
"instruction that runs straight into one without changing DX, counts\n"
"DX, the call's size, for the call probe of that call (the last call\n"
"probe at or before it); the probe's line is followed by\n"
"#sizes INDEX: SIZE:SAMPLES ...\n"
"(most seen first; a comment to LLVM's reader).  Samples in a row at\n"
"one address with one size count once.\n"
"\n"
"With FLAGS, a sample whose IP is a conditional jump (objdump -d) counts\n"
"the way the flags send it.  After the body lines of each function (at\n"
"each inline context) whose code holds a sampled jump and where the jump\n"
"goes and falls through:\n"
"#branch SRC: TO:N TO:M\n"
"(a comment to LLVM's reader): SRC the probes of the jump's code, each\n"
"TO those of one way's code (a call probe for code inlined there),\n"
"comma-separated; N and M samples.\n"
"\n"
"With branch stacks, each sample's records (newest first) give ranges, from\n"
"a record's target to the next newer record's source, as llvm-profgen 14\n"
"computes them: a block probe counts the ranges covering its address, a\n"
"call probe the records leaving its call instruction (and an indirect one\n"
"their targets), a call inlined in the binary the count of the inlinee's\n"
"probe 1.  IP estimates in the same run are multiplied by the ratio of the\n"
"two kinds over the block probes both saw and added (doc/sample-pgo.md).\n"
"\n"
"Each function's header line is followed by\n"
"#first-sample RANK\n"
"(a comment to LLVM's reader): its rank, from 1, by its first sample in\n"
"the order perf script prints them (by time; the --perf files as given),\n"
"which sample-use turns into GCC's function order.\n"
"\n"
"With --csprof, each sample's records are unwound along its call stack\n"
"as llvm-profgen's virtual unwinder does: the stack gives the context of\n"
"the newest record; walking to older records, a call pops a frame and a\n"
"return pushes one.  A range's or a branch's context is the stack without\n"
"its leaf, each frame as its call probe (a frame without one cuts the\n"
"context), recursion compressed.  Each block probe counts the ranges\n"
"covering it in its context, extended by its inline context in the binary;\n"
"a call probe the records leaving its call, with the called function as\n"
"target; probe 1 of an inlined function its call site in the caller.\n"
"Every probe of a counted inline context gets a line; each profile ends\n"
"with !CFGChecksum, and !Attributes: 1 when its function was inlined in\n"
"the binary there (cs-profile.h, doc/sample-pgo.md).  Sample-use does not\n"
"read contexts yet.\n"
"\n"
"Without branch stacks, --csprof takes IP samples with call stacks\n"
"(perf record --call-graph=dwarf or -g; --perf, or --perfscript text of\n"
"frames without branch records): the IP is the leaf, the other frames the\n"
"context as above; per context each probe gets the flat IP estimate of\n"
"its region's samples, so a function's contexts sum to its flat counts.\n",
	   progname, progname, progname, progname, progname);
}

static void __attribute__ ((noreturn, format (printf, 1, 2)))
usage_error (const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  lp_error (NULL, "%s", msg);
  fprintf (stderr, "Try '%s --help'.\n", progname);
  lp_exit (1);
}

/* perf_read_samples callback: count the sample in its binary's regions,
   at a conditional jump with FLAGS its direction, and at a memop call
   with DX its size (AArch64: with the register a cbz, cbnz, tbz or
   tbnz tests, and x2).  */
static void
on_sample (void *ctx, size_t bin, uint64_t vaddr,
	   const struct sample_regs *regs)
{
  struct sample_ctx *sc = ctx;
  struct probe_regions *pr = &sc->bins[bin].regions;
  regions_add_sample (pr, vaddr, ++sc->seq);
  /* The size of a memop call: DX on x86-64, x2 on AArch64.  */
  int has_size;
  uint64_t dx;
  if (sc->bins[bin].elf.machine == EM_AARCH64)
    {
      if (regs->a64.mask)
	sc->directions += regions_add_a64_regs (pr, vaddr, &regs->a64);
      has_size = (regs->a64.mask & (UINT32_C (1) << A64_SIZE_REG)) != 0;
      dx = regs->a64.x[A64_SIZE_REG];
    }
  else
    {
      if (regs->has_flags)
	sc->directions += regions_add_flags (pr, vaddr, regs->flags);
      has_size = regs->has_dx;
      dx = regs->dx;
    }
  if (!has_size)
    return;
  /* Samples in a row at one call with one size are one call that
     stalled (the first run of cold code: page faults, cache misses),
     not several calls of that size.  */
  if (bin == sc->last_bin && vaddr == sc->last_vaddr && dx == sc->last_dx)
    return;
  sc->last_bin = bin;
  sc->last_vaddr = vaddr;
  sc->last_dx = dx;
  sc->sizes += regions_add_size (&sc->bins[bin].regions, vaddr, dx);
}

/* lbr_ranges callback.  */
static void
on_range (void *ctx, int bin, uint64_t start, uint64_t end, uint64_t count)
{
  struct sample_ctx *sc = ctx;
  regions_add_range (&sc->bins[bin].regions, start, end, count, sc->seq);
}

/* perf_read_samples branch-stack callback: the sample's ranges give
   the blocks that ran, its calls the call probes' counts (brstack.h).
   As llvm-profgen does, a sample with a call stack whose leaf is in
   the first two instructions of a function or at a return or the
   instruction before it is dropped: the stack (which contexts will
   use) is not reliable there.  */
static void
on_branches (void *ctx, const struct branch_sample *s)
{
  struct sample_ctx *sc = ctx;
  ++sc->seq;
  if (s->has_stack && s->leaf_bin >= 0
      && regions_in_prologue (&sc->bins[s->leaf_bin].regions, s->leaf))
    {
      sc->prologue_dropped = lp_sat_add (sc->prologue_dropped, s->count);
      return;
    }
  if (sc->cap_entries < s->num)
    {
      sc->cap_entries = s->num;
      sc->entries = xrealloc (sc->entries,
			      sc->cap_entries * sizeof *sc->entries);
    }
  size_t n = lbr_entries (s, sc->entries, &sc->lbr);
  if (sc->cs)
    cs_add_sample (sc->cs, s, sc->entries, n);
  lbr_ranges (sc->entries, n, s->count, on_range, sc, &sc->lbr);
  for (size_t i = 0; i < n; i++)
    {
      const struct lbr_entry *e = &sc->entries[i];
      if (e->artificial || e->to_bin < 0)
	continue;
      if (regions_add_branch (&sc->bins[e->from_bin].regions, e->from,
			      &sc->bins[e->to_bin].regions, e->to, s->count,
			      sc->seq))
	sc->call_branches = lp_sat_add (sc->call_branches, s->count);
    }
}

/* perf_read_samples call-stack callback: the function holding VADDR
   was called from CALL_VADDR; count it if that is an indirect call, or
   a direct call of a function that reached it by an indirect tail
   jump.  Every such sample counts as leaf time of that function too,
   which turns callee samples into calls (sample-write.c).  */
static void
on_stack (void *ctx, size_t bin, uint64_t vaddr, size_t call_bin,
	  uint64_t call_vaddr)
{
  struct sample_ctx *sc = ctx;
  struct binary *callee = &sc->bins[bin], *caller = &sc->bins[call_bin];
  const char *name = regions_function_at (&callee->regions, &callee->probes,
					  vaddr);
  if (!name)
    return;
  regions_add_leaf (&callee->regions, vaddr);
  if (regions_add_call (&caller->regions, &caller->probes, call_vaddr, name))
    sc->calls++;
  else if (regions_add_tail_call (&caller->regions, &caller->probes,
				  call_vaddr, name))
    sc->tail_calls++;
}

/* perf_read_samples IP-stack callback (--csprof): the sample's call
   stack gives the context of its IP.  */
static void
on_ipstack (void *ctx, uint64_t count, size_t n, const int *bins,
	    const uint64_t *vaddrs)
{
  struct sample_ctx *sc = ctx;
  cs_add_ip_sample (sc->cs, count, n, bins, vaddrs);
}

/* --verbose: what was decoded from BIN.  */
static void
note_binary (const struct binary *b)
{
  size_t dangling = 0, empty = 0;
  for (size_t i = 0; i < b->probes.num_probes; i++)
    dangling += (b->probes.probes[i].attr & PROBE_ATTR_DANGLING) != 0;
  for (size_t i = 0; i < b->regions.num_regions; i++)
    empty += b->regions.regions[i].end == b->regions.regions[i].start;
  lp_note ("%s: build id %s; %zu probes (%zu dangling) of %zu functions "
	   "in %zu inline contexts; %zu regions (%zu outside the code); "
	   "%zu FUNC symbols in %s", b->elf.path,
	   b->elf.build_id[0] ? b->elf.build_id : "(none)",
	   b->probes.num_probes, dangling, b->probes.num_descs,
	   b->probes.num_nodes, b->regions.num_regions, empty,
	   b->elf.num_funcs, b->elf.symtab_name ? b->elf.symtab_name
	   : "(no symbol table)");
}

/* --verbose: where the samples of FILE went.  ATTRIBUTED and
   UNATTRIBUTED: per binary, the region counts of BINS before FILE.  */
static void
note_stats (const char *file, const struct perf_stats *st,
	    const struct binary *bins, size_t num,
	    const uint64_t *attributed_before,
	    const uint64_t *unattributed_before)
{
  uint64_t in_bins = 0, attributed = 0;
  for (size_t i = 0; i < num; i++)
    {
      in_bins += st->per_binary[i];
      attributed += bins[i].regions.attributed - attributed_before[i];
    }
  lp_note ("%s: %" PRIu64 " samples total: %" PRIu64 " in the binaries, %"
	   PRIu64 " in other files, %" PRIu64 " in the kernel, %" PRIu64
	   " in no known mapping, %" PRIu64 " in a binary's mapping but "
	   "no PT_LOAD segment", file, st->samples, in_bins, st->other_files,
	   st->kernel, st->unmapped, st->outside_loads);
  for (size_t i = 0; i < num; i++)
    lp_note ("%s: %" PRIu64 " samples, %" PRIu64 " in probe regions, %"
	     PRIu64 " outside them", bins[i].elf.path, st->per_binary[i],
	     bins[i].regions.attributed - attributed_before[i],
	     bins[i].regions.unattributed - unattributed_before[i]);
  lp_note ("samples attributed to probe regions: %" PRIu64
	   "; unattributed: %" PRIu64, attributed, st->samples - attributed);
}

/* --verbose: what the call stacks of FILE gave: CALLS of them went to
   indirect call sites from their call, TAIL_CALLS through a tail
   jump.  */
static void
note_stacks (const char *file, const struct perf_stats *st, uint64_t calls,
	     uint64_t tail_calls)
{
  if (!st->has_stacks)
    {
      lp_note ("%s: no call stacks: no indirect call targets", file);
      return;
    }
  lp_note ("%s: %" PRIu64 " samples with call stacks, %" PRIu64 " with "
	   "the first two frames in the binaries, %" PRIu64 " attributed to "
	   "indirect call sites (%" PRIu64 " of them through a tail jump)",
	   file, st->stack_samples, st->stack_in_bins, calls + tail_calls,
	   tail_calls);
}

/* --verbose: what the registers of FILE's samples gave: SIZES of them
   with DX were at memop calls of the BINS, DIRS with FLAGS at their
   conditional jumps.  */
static void
note_registers (const char *file, const struct perf_stats *st,
		const struct binary *bins, size_t num, uint64_t sizes,
		uint64_t dirs)
{
  size_t calls = 0, jumps = 0;
  for (size_t i = 0; i < num; i++)
    {
      calls += bins[i].regions.num_memop_calls;
      jumps += bins[i].regions.num_jumps;
    }
  /* The DX and FLAGS notes are alike in shape only.  */
  if (!st->dx_samples)
    lp_note ("%s: no register DX in the samples: no memop sizes "
	     "(perf record --user-regs=dx)", file);
  else
    lp_note ("%s: %" PRIu64 " samples with DX, %" PRIu64 " at one of the "
	     "%zu memcpy/memmove/mempcpy/memset/memcmp/bcmp calls of the binaries", file,
	     st->dx_samples, sizes, calls);
  if (!st->flags_samples)
    lp_note ("%s: no flags register in the samples: no branch "
	     "directions (perf record --user-regs=flags)", file);
  else
    lp_note ("%s: %" PRIu64 " samples with FLAGS, %" PRIu64 " at one of "
	     "the %zu conditional jumps of the binaries", file,
	     st->flags_samples, dirs, jumps);
}

/* --verbose: what the branch stacks of FILE gave.  */
static void
note_branches (const char *file, const struct perf_stats *st,
	       const struct sample_ctx *sc)
{
  if (!st->branch_samples)
    {
      lp_note ("%s: no branch stacks", file);
      return;
    }
  lp_note ("%s: %" PRIu64 " samples with branch stacks, %" PRIu64
	   " records (%" PRIu64 " with an end in the binaries); %" PRIu64
	   " samples dropped for a call stack leaf in a prologue or "
	   "epilogue; %" PRIu64 " ranges, %" PRIu64 " left out from one "
	   "binary into another, %" PRIu64 " backwards; %" PRIu64 " samples "
	   "whose records were cut at a break in the recording; %" PRIu64
	   " records at call probes", file, st->branch_samples,
	   st->branch_records, st->records_in_bins, sc->prologue_dropped,
	   sc->lbr.ranges, sc->lbr.cross_binary, sc->lbr.backward,
	   sc->lbr.cut, sc->call_branches);
}

/* After all files: the count of each region from its ranges, and how
   IP estimates convert into branch-stack counts.  The factor is the
   ratio of the two over the block probes that got both; without such
   a probe, over all block probes.  Returns the factor, or 0 when the
   run has no branch stacks.  */
static double
finish_branch_counts (struct binary *bins, size_t num, int verbose)
{
  int any = 0;
  for (size_t i = 0; i < num; i++)
    {
      struct probe_regions *r = &bins[i].regions;
      if (r->range_diff || r->call_branches)
	any = 1;
      regions_finish_ranges (r);
      /* A range starts where a branch went: on an instruction.  Ranges
	 that do not are a recording of other code at those addresses
	 (with --perfscript there are no build ids to tell).  A few may
	 be noise; many mean the counts would be garbage.  */
      if (r->ranges_off_insns * 10 > r->ranges)
	lp_fatal (bins[i].elf.path, "%" PRIu64 " of the %" PRIu64 " ranges "
		  "of the branch stacks in it do not start on an "
		  "instruction: they were recorded from another build or "
		  "another program", r->ranges_off_insns, r->ranges);
      if (r->ranges_off_insns)
	lp_warning (bins[i].elf.path, "%" PRIu64 " of %" PRIu64 " ranges "
		    "of the branch stacks do not start on an instruction: "
		    "were they recorded from another build?",
		    r->ranges_off_insns, r->ranges);
    }
  if (!any)
    return 0;
  double both_br = 0, both_ip = 0, all_br = 0, all_ip = 0;
  for (size_t i = 0; i < num; i++)
    for (size_t p = 0; p < bins[i].probes.num_probes; p++)
      {
	if (bins[i].probes.probes[p].type != PROBE_BLOCK)
	  continue;
	double br = regions_probe_branch_count (&bins[i].regions, p);
	double ip = regions_probe_ip_count (&bins[i].regions, p);
	all_br += br;
	all_ip += ip;
	if (br > 0 && ip > 0)
	  {
	    both_br += br;
	    both_ip += ip;
	  }
      }
  double scale = both_ip > 0 ? both_br / both_ip
		 : all_ip > 0 ? all_br / all_ip : 0;
  for (size_t i = 0; i < num; i++)
    {
      bins[i].regions.branch_units = 1;
      bins[i].regions.ip_scale = scale;
    }
  if (verbose && all_ip > 0)
    lp_note ("IP and branch-stack samples: an IP estimate counts %g "
	     "times (their ratio over the block probes %s)", scale,
	     both_ip > 0 ? "both saw" : "of all the binaries");
  return scale;
}

/* --verbose: how many indirect call probes got targets.  */
static void
note_call_sites (const struct binary *bins, size_t num)
{
  size_t sites = 0;
  for (size_t i = 0; i < num; i++)
    if (bins[i].regions.targets)
      for (size_t p = 0; p < bins[i].probes.num_probes; p++)
	sites += bins[i].regions.targets[p].num > 0;
  lp_note ("indirect call sites with targets: %zu", sites);
}

int
main (int argc, char **argv)
{
  enum { OPT_BINARY = 256, OPT_PERF, OPT_PERFSCRIPT, OPT_SHOW_PROBES,
	 OPT_VERBOSE, OPT_HELP, OPT_CSPROF, OPT_PREINLINE, OPT_NO_PREINLINE,
	 OPT_PREINLINE_DEBUG };
  static const struct option longopts[] = {
    { "binary", required_argument, NULL, OPT_BINARY },
    { "perf", required_argument, NULL, OPT_PERF },
    { "perfscript", required_argument, NULL, OPT_PERFSCRIPT },
    { "output", required_argument, NULL, 'o' },
    { "show-probes", no_argument, NULL, OPT_SHOW_PROBES },
    { "verbose", no_argument, NULL, OPT_VERBOSE },
    { "csprof", no_argument, NULL, OPT_CSPROF },
    { "preinline", no_argument, NULL, OPT_PREINLINE },
    { "no-preinline", no_argument, NULL, OPT_NO_PREINLINE },
    { "preinline-debug", no_argument, NULL, OPT_PREINLINE_DEBUG },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 }
  };
  const char **paths = xmalloc (argc * sizeof *paths);
  const char **files = xmalloc (argc * sizeof *files);
  size_t num = 0, num_files = 0;
  const char *perf = NULL, *script = NULL, *out = NULL;
  int show_probes = 0, verbose = 0, csprof = 0;
  int preinline = -1, preinline_debug = 0;
  int c;

  progname = "latepgo-profgen";
  opterr = 0;
  while ((c = getopt_long (argc, argv, "o:", longopts, NULL)) != -1)
    switch (c)
      {
      case OPT_BINARY: paths[num++] = optarg; break;
      case OPT_PERF: perf = files[num_files++] = optarg; break;
      case OPT_PERFSCRIPT: script = files[num_files++] = optarg; break;
      case 'o': out = optarg; break;
      case OPT_SHOW_PROBES: show_probes = 1; break;
      case OPT_VERBOSE: verbose = 1; break;
      case OPT_CSPROF: csprof = 1; break;
      case OPT_PREINLINE: preinline = 1; break;
      case OPT_NO_PREINLINE: preinline = 0; break;
      case OPT_PREINLINE_DEBUG: preinline_debug = 1; break;
      case OPT_HELP:
	print_usage (stdout);
	return 0;
      default:
	usage_error ("unknown option or missing argument: '%s'",
		     argv[optind - 1]);
      }
  if (optind < argc)
    usage_error ("unexpected argument '%s'", argv[optind]);
  if (num == 0)
    usage_error ("no --binary given");
  if (perf && script)
    usage_error ("--perf and --perfscript cannot be combined");
  if (!perf && !script && !show_probes)
    usage_error ("nothing to do: give --perf=FILE (or --perfscript=FILE) "
		 "and -o OUT, or --show-probes");
  if ((perf || script) && !out)
    usage_error ("no output file: give -o OUT");
  if (out && !perf && !script)
    usage_error ("-o needs samples: give --perf=FILE or --perfscript=FILE");

  struct binary *bins = xcalloc (num, sizeof *bins);
  for (size_t i = 0; i < num; i++)
    {
      elf_open (&bins[i].elf, paths[i]);
      for (size_t j = 0; j < i; j++)
	if (strcmp (bins[j].elf.realpath, bins[i].elf.realpath) == 0)
	  lp_fatal (paths[i], "given twice as --binary");
      probe_decode (&bins[i].elf, &bins[i].probes);
    }

  if (show_probes)
    {
      for (size_t i = 0; i < num; i++)
	{
	  printf ("# %s\n", bins[i].elf.path);
	  probe_print (stdout, &bins[i].probes);
	}
      if (fflush (stdout) != 0 || ferror (stdout))
	lp_fatal (NULL, "error writing standard output");
      if (!perf && !script)
	lp_exit (0);
    }

  for (size_t i = 0; i < num; i++)
    {
      regions_build (&bins[i].elf, &bins[i].probes, &bins[i].regions,
		     verbose);
      if (verbose)
	note_binary (&bins[i]);
    }

  struct elf_file *elfs = xcalloc (num, sizeof *elfs);
  for (size_t i = 0; i < num; i++)
    elfs[i] = bins[i].elf;
  uint64_t *attributed = xcalloc (num, sizeof *attributed);
  uint64_t *unattributed = xcalloc (num, sizeof *unattributed);
  /* Samples are numbered in time order through the files, as given.  */
  uint64_t seq = 0;
  struct cs_profile cs;
  if (csprof)
    {
      const struct probe_set **sets = xcalloc (num, sizeof *sets);
      const struct probe_regions **rs = xcalloc (num, sizeof *rs);
      const struct elf_file **es = xcalloc (num, sizeof *es);
      for (size_t i = 0; i < num; i++)
	{
	  es[i] = &bins[i].elf;
	  sets[i] = &bins[i].probes;
	  rs[i] = &bins[i].regions;
	  if (bins[i].regions.insns_estimated)
	    lp_fatal (bins[i].elf.path, "--csprof needs objdump (its calls "
		      "and returns)");
	}
      cs_init (&cs, num, es, sets, rs);
    }
  for (size_t f = 0; f < num_files; f++)
    {
      struct perf_stats stats;
      struct sample_ctx sc;
      memset (&sc, 0, sizeof sc);
      sc.bins = bins;
      sc.seq = seq;
      sc.last_bin = SIZE_MAX;
      sc.cs = csprof ? &cs : NULL;
      for (size_t i = 0; i < num; i++)
	{
	  attributed[i] = bins[i].regions.attributed;
	  unattributed[i] = bins[i].regions.unattributed;
	}
      perf_read_samples (files[f], script != NULL, elfs, num, on_sample,
			 on_branches, on_stack, csprof ? on_ipstack : NULL, &sc,
			 &stats, verbose);
      if (verbose)
	{
	  note_stats (files[f], &stats, bins, num, attributed, unattributed);
	  if (!script)
	    note_stacks (files[f], &stats, sc.calls, sc.tail_calls);
	  note_registers (files[f], &stats, bins, num, sc.sizes,
			  sc.directions);
	  note_branches (files[f], &stats, &sc);
	}
      free (stats.per_binary);
      free (sc.entries);
      seq = sc.seq;
    }
  if (verbose && perf)
    note_call_sites (bins, num);
  finish_branch_counts (bins, num, verbose);

  struct sample_profile prof;
  profile_init (&prof);
  for (size_t i = 0; i < num; i++)
    profile_add_binary (&prof, bins[i].elf.path, &bins[i].probes,
			&bins[i].regions);

  int to_stdout = strcmp (out, "-") == 0;
  FILE *f = stdout;
  if (!to_stdout)
    {
      lp_set_pending_output (out);
      f = fopen (out, "w");
      if (!f)
	lp_fatal (out, "%s", strerror (errno));
    }
  size_t written;
  if (csprof)
    {
      if (verbose)
	lp_note ("--csprof: %" PRIu64 " branch-stack samples: %" PRIu64
		 " unwound, %" PRIu64 " without a call stack, %" PRIu64
		 " with the leaf outside the binaries, %" PRIu64
		 " with the leaf in a prologue or epilogue", cs.samples,
		 cs.unwound, cs.no_stack, cs.outside, cs.prologue);
      if (verbose)
	lp_note ("--csprof: %" PRIu64 " IP samples with call stacks: %"
		 PRIu64 " counted in a context, %" PRIu64 " with the leaf "
		 "outside the probe regions", cs.ip_samples, cs.ip_counted,
		 cs.ip_outside);
      cs.preinline = preinline;
      cs.preinline_debug = preinline_debug ? stderr : NULL;
      profile_prepare (&prof);
      written = cs_write (&cs, f, &prof);
      profile_free (&prof);
      if (written == 0 && cs.ip_samples)
	lp_fatal (NULL, "--csprof: no context: of %" PRIu64 " IP samples "
		  "with call stacks, %" PRIu64 " had their leaf outside the "
		  "probe regions", cs.ip_samples, cs.ip_outside);
      if (written == 0)
	lp_fatal (NULL, "--csprof: no context: of %" PRIu64 " samples with "
		  "branch stacks, %" PRIu64 " had no call stack, %" PRIu64
		  " their leaf outside the binaries, %" PRIu64 " in a "
		  "prologue or epilogue; %" PRIu64 " unwound gave no probe "
		  "counts", cs.samples, cs.no_stack, cs.outside, cs.prologue,
		  cs.unwound);
    }
  else
    written = profile_write (&prof, f);
  if (written == 0)
    lp_fatal (NULL, "no samples of %s fell into probe regions: nothing "
	      "to write (were they recorded from another build or another "
	      "program?)", num == 1 ? bins[0].elf.path : "the binaries");
  int bad = ferror (f);
  bad |= (to_stdout ? fflush (f) : fclose (f)) != 0;
  if (bad)
    lp_fatal (out, "write error: %s", strerror (errno));
  lp_set_pending_output (NULL);
  if (verbose)
    lp_note ("%s: %zu functions written", out, written);
  return 0;
}
