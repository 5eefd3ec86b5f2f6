/* sample-cmd.h: the --sample forms of latepgo-profdata's merge and
   show (sample-cmd.c), for LLVM's text sample profiles.  */

#ifndef LATEPGO_SAMPLE_CMD_H
#define LATEPGO_SAMPLE_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The encodings merge --sample writes.  */
enum lp_sample_format
{
  LP_SAMPLE_TEXT,
  LP_SAMPLE_EXT,		/* Extensible binary.  */
  LP_SAMPLE_EXT_MD5		/* The same with MD5 names.  */
};

/* Merge the NUM sample profiles PATHS (text or extensible binary),
   weighted by WEIGHTS, into the profile OUTPUT ("-": stdout) in
   FORMAT.  An input that cannot be read is fatal, or with FAIL_ALL a
   warning.  Returns 0.  */
int lp_sample_merge (const char *const *paths, const uint64_t *weights,
		     size_t num, const char *output, int fail_all,
		     enum lp_sample_format format);

/* Print the summary of the sample profile PATH and its TOPN
   largest functions, or with FUNC the profiles of that function (its
   top-level one and its contexts), to OUT.  Returns 0.  */
int lp_sample_show (const char *path, const char *func, uint64_t topn,
		    FILE *out);

/* Compare the sample profiles BASE and TEST as llvm-profdata 14's
   overlap --sample does (sample-overlap.c) and print the result to
   OUT, with a line per function of TEST whose largest count is at
   least VALUE_CUTOFF, whose similarity is below SIMILARITY_CUTOFF
   (parts per million), or, when FUNC is not null, whose name contains
   FUNC.  Returns 0.  */
int lp_sample_overlap (const char *base, const char *test, const char *func,
		       uint64_t value_cutoff, uint64_t similarity_cutoff,
		       FILE *out);

#endif /* LATEPGO_SAMPLE_CMD_H */
