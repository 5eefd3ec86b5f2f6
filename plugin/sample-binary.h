/* sample-binary.h: the extensible binary sample profile as text, for
   sample-read.cc (sample-binary.cc).  */

#ifndef LATEPGO_SAMPLE_BINARY_H
#define LATEPGO_SAMPLE_BINARY_H

/* Whether the SIZE bytes BUF are an extensible binary sample profile
   (or the start of one).  */
extern bool lp_sample_is_binary (const char *buf, size_t size);

/* The extensible binary sample profile BUF of SIZE bytes, read from
   PATH, in LLVM's text format: a new NUL-terminated buffer (XNEWVEC)
   of *TEXT_SIZE bytes.  Returns NULL after reporting an error.  */
extern char *lp_sample_binary_to_text (const char *path, const char *buf,
				       size_t size, size_t *text_size);

#endif
