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

#endif /* LATEPGO_SAMPLE_CMD_H */
