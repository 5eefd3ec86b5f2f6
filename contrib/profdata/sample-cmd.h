/* sample-cmd.h: the --sample forms of latepgo-profdata's merge and
   show (sample-cmd.c), for LLVM's text sample profiles.  */

#ifndef LATEPGO_SAMPLE_CMD_H
#define LATEPGO_SAMPLE_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Merge the NUM text sample profiles PATHS, weighted by WEIGHTS, into
   the text profile OUTPUT ("-": stdout).  An input that cannot be
   read is fatal, or with FAIL_ALL a warning.  Returns 0.  */
int lp_sample_merge (const char *const *paths, const uint64_t *weights,
		     size_t num, const char *output, int fail_all);

/* Print the summary of the text sample profile PATH and its TOPN
   largest functions, or with FUNC the profiles of that function (its
   top-level one and its contexts), to OUT.  Returns 0.  */
int lp_sample_show (const char *path, const char *func, uint64_t topn,
		    FILE *out);

/* Compare the text sample profiles BASE and TEST as llvm-profdata 14's
   overlap --sample does (sample-overlap.c) and print the result to
   OUT, with a line per function of TEST whose largest count is at
   least VALUE_CUTOFF, whose similarity is below SIMILARITY_CUTOFF
   (parts per million), or, when FUNC is not null, whose name contains
   FUNC.  Returns 0.  */
int lp_sample_overlap (const char *base, const char *test, const char *func,
		       uint64_t value_cutoff, uint64_t similarity_cutoff,
		       FILE *out);

#endif /* LATEPGO_SAMPLE_CMD_H */
