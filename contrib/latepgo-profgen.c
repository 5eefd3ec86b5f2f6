/* latepgo-profgen.c: main program of latepgo-profgen, which turns perf
   IP samples of binaries built with -fplugin-arg-latepgo-probes into a
   probe-based LLVM sample profile (text, nested), for the machines
   where llvm-profgen cannot help: it needs LBR, and we only have
   cpu-clock samples (profile-formats.md 4.6).

     latepgo-profgen --binary=BIN [--binary=LIB.so ...] --perf=perf.data -o OUT

   The pieces, one file each: elf-read.c (sections, build id, PT_LOAD,
   function bounds), probe-decode.c (.pseudo_probe, .pseudo_probe_desc),
   probe-regions.c (code regions of the probes, instruction counts,
   count estimates), perf-samples.c (perf buildid-list and perf script,
   mappings, build-id checks), sample-write.c (the output), run-cmd.c
   (running perf and objdump).

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
#include "elf-read.h"
#include "perf-samples.h"
#include "probe-decode.h"
#include "probe-regions.h"
#include "sample-write.h"
#include "tool-util.h"

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

static void
print_usage (FILE *f)
{
  fprintf (f,
"Usage: %s --binary=BIN [--binary=BIN]... --perf=FILE -o OUT\n"
"       %s --binary=BIN [--binary=BIN]... --perfscript=FILE -o OUT\n"
"       %s --binary=BIN [--binary=BIN]... --show-probes\n"
"Turn perf samples of binaries built with -fplugin-arg-latepgo-probes\n"
"into a probe-based LLVM sample profile (text, nested inline contexts).\n"
"\n"
"  --binary=BIN       a probed executable or shared library (PIE or not);\n"
"                     give every one whose samples you want\n"
"  --perf=FILE        perf.data written by\n"
"                       perf record -e cpu-clock [-F FREQ|-c PERIOD] -- CMD\n"
"                     read with 'perf buildid-list' and 'perf script'; the\n"
"                     binaries must be the builds that were recorded (build id)\n"
"  --perfscript=FILE  instead of --perf: the output of\n"
"                       perf script -i perf.data --show-mmap-events \\\n"
"                         --show-task-events -G -F pid,ip\n"
"                     (build ids cannot be checked; files are matched by path)\n"
"  -o, --output=OUT   the profile to write ('-' for standard output)\n"
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
"(dangling) have unknown counts and are not written.\n",
	   progname, progname, progname);
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

/* perf_read_samples callback: count the sample in its binary's regions.  */
static void
on_sample (void *ctx, size_t bin, uint64_t vaddr)
{
  struct binary *bins = ctx;
  regions_add_sample (&bins[bin].regions, vaddr);
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

/* --verbose: where the samples went.  */
static void
note_stats (const char *file, const struct perf_stats *st,
	    const struct binary *bins, size_t num)
{
  uint64_t in_bins = 0, attributed = 0;
  for (size_t i = 0; i < num; i++)
    {
      in_bins += st->per_binary[i];
      attributed += bins[i].regions.attributed;
    }
  lp_note ("%s: %" PRIu64 " samples total: %" PRIu64 " in the binaries, %"
	   PRIu64 " in other files, %" PRIu64 " in the kernel, %" PRIu64
	   " in no known mapping, %" PRIu64 " in a binary's mapping but "
	   "no PT_LOAD segment", file, st->samples, in_bins, st->other_files,
	   st->kernel, st->unmapped, st->outside_loads);
  for (size_t i = 0; i < num; i++)
    lp_note ("%s: %" PRIu64 " samples, %" PRIu64 " in probe regions, %"
	     PRIu64 " outside them", bins[i].elf.path, st->per_binary[i],
	     bins[i].regions.attributed, bins[i].regions.unattributed);
  lp_note ("samples attributed to probe regions: %" PRIu64
	   "; unattributed: %" PRIu64, attributed, st->samples - attributed);
}

int
main (int argc, char **argv)
{
  enum { OPT_BINARY = 256, OPT_PERF, OPT_PERFSCRIPT, OPT_SHOW_PROBES,
	 OPT_VERBOSE, OPT_HELP };
  static const struct option longopts[] = {
    { "binary", required_argument, NULL, OPT_BINARY },
    { "perf", required_argument, NULL, OPT_PERF },
    { "perfscript", required_argument, NULL, OPT_PERFSCRIPT },
    { "output", required_argument, NULL, 'o' },
    { "show-probes", no_argument, NULL, OPT_SHOW_PROBES },
    { "verbose", no_argument, NULL, OPT_VERBOSE },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 }
  };
  const char **paths = xmalloc (argc * sizeof *paths);
  size_t num = 0;
  const char *perf = NULL, *script = NULL, *out = NULL;
  int show_probes = 0, verbose = 0;
  int c;

  progname = "latepgo-profgen";
  opterr = 0;
  while ((c = getopt_long (argc, argv, "o:", longopts, NULL)) != -1)
    switch (c)
      {
      case OPT_BINARY: paths[num++] = optarg; break;
      case OPT_PERF: perf = optarg; break;
      case OPT_PERFSCRIPT: script = optarg; break;
      case 'o': out = optarg; break;
      case OPT_SHOW_PROBES: show_probes = 1; break;
      case OPT_VERBOSE: verbose = 1; break;
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
  struct perf_stats stats;
  const char *file = perf ? perf : script;
  perf_read_samples (file, script != NULL, elfs, num, on_sample, bins,
		     &stats, verbose);
  if (verbose)
    note_stats (file, &stats, bins, num);

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
  size_t written = profile_write (&prof, f);
  if (written == 0)
    lp_fatal (NULL, "no samples of %s fell into probe regions: nothing "
	      "to write", num == 1 ? bins[0].elf.path : "the binaries");
  int bad = ferror (f);
  bad |= (to_stdout ? fflush (f) : fclose (f)) != 0;
  if (bad)
    lp_fatal (out, "write error: %s", strerror (errno));
  lp_set_pending_output (NULL);
  if (verbose)
    lp_note ("%s: %zu functions written", out, written);
  return 0;
}
