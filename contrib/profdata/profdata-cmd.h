/* profdata-cmd.h: the subcommands of latepgo-profdata.  Each owns its
   options and usage text; latepgo-profdata.c dispatches to them.  */

#ifndef LATEPGO_PROFDATA_CMD_H
#define LATEPGO_PROFDATA_CMD_H

#include <stdio.h>

int lp_merge_main (int argc, char **argv);
int lp_show_main (int argc, char **argv);
int lp_overlap_main (int argc, char **argv);
int lp_report_main (int argc, char **argv);

void lp_print_merge_usage (FILE *f);
void lp_print_show_usage (FILE *f);
void lp_print_overlap_usage (FILE *f);
void lp_print_report_usage (FILE *f);

/* What a command line of only a word asks for: with no argument after
   ARGV[0], the usage on stderr and status 1; with -h or --help, the
   usage on stdout and status 0.  Returns that status, having printed
   the usage with PRINT_USAGE, or -1 when ARGV asks for something
   else.  */
int lp_usage_asked (int argc, char **argv, void (*print_usage) (FILE *));

#endif /* LATEPGO_PROFDATA_CMD_H */
