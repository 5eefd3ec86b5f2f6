/* latepgo-profdata.c: main program of latepgo-profdata, the profile
   tool of latepgo, modelled on llvm-profdata: it dispatches to the
   merge, show, overlap and report subcommands (profdata-*.c), which own their
   options and help texts.  */

#include "profdata-cmd.h"
#include "tool-util.h"

#include <stdio.h>
#include <string.h>

struct subcommand
{
  const char *name;
  const char *summary;
  int (*main) (int argc, char **argv);
  void (*usage) (FILE *f);
};

static const struct subcommand subcommands[] = {
  { "merge", "merge profiles into an indexed or text profile",
    lp_merge_main, lp_print_merge_usage },
  { "show", "print a profile's functions and summary",
    lp_show_main, lp_print_show_usage },
  { "overlap", "compare two profiles", lp_overlap_main,
    lp_print_overlap_usage },
  { "report", "add up the report lines of a use build", lp_report_main,
    lp_print_report_usage },
};

#define NUM_SUBCOMMANDS (sizeof subcommands / sizeof subcommands[0])

static void
print_usage (FILE *f)
{
  fprintf (f, "Usage: %s COMMAND [OPTION]... FILE...\n"
	   "Merge, show and compare LLVM-format instrumentation profiles "
	   "(raw v8,\nindexed v4-v7, text) as written by latepgo and "
	   "clang, and (with --sample)\nLLVM text sample profiles.\n\n"
	   "Commands:\n", progname);
  for (size_t i = 0; i < NUM_SUBCOMMANDS; i++)
    fprintf (f, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
  fprintf (f, "\nRun '%s COMMAND --help' for the options of COMMAND.\n",
	   progname);
}

int
main (int argc, char **argv)
{
  int status = lp_usage_asked (argc, argv, print_usage);
  if (status >= 0)
    return status;
  if (strcmp (argv[1], "--version") == 0)
    {
      puts ("latepgo-profdata 0.1 (LLVM 14 profile formats: raw v8, "
	    "indexed v7)");
      return 0;
    }
  for (size_t i = 0; i < NUM_SUBCOMMANDS; i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      {
	int r = subcommands[i].main (argc - 1, argv + 1);
	lp_exit (r);
      }
  lp_error (NULL, "unknown command '%s'", argv[1]);
  print_usage (stderr);
  return 1;
}
