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

#endif /* LATEPGO_PROFDATA_CMD_H */
