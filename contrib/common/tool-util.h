/* tool-util.h: process-wide helpers shared by the latepgo tools:
   program name, diagnostics, checked allocation, the output file that
   must disappear on error, and saturating arithmetic.  */

#ifndef LATEPGO_TOOL_UTIL_H
#define LATEPGO_TOOL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Name printed in front of every diagnostic.  */
extern const char *progname;

/* Print "PROGNAME: error: WHERE: MESSAGE" (WHERE may be NULL) to
   stderr.  */
void lp_error (const char *where, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Likewise with "warning:".  */
void lp_warning (const char *where, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Print "PROGNAME: note: MESSAGE".  */
void lp_note (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* Report an error like lp_error, remove the pending output file (see
   lp_set_pending_output) and exit with status 1.  */
void lp_fatal (const char *where, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3), noreturn));

/* Remove the pending output file, if any, and exit with STATUS.  */
void lp_exit (int status) __attribute__ ((noreturn));

/* Register PATH (or NULL to clear) as a temporary output file that
   lp_fatal, lp_exit and fatal signals delete.  PATH is copied.  */
void lp_set_pending_output (const char *path);

/* A new temporary file beside PATH, with the mode a new file gets,
   removed should the tool exit before lp_commit_output renames it to
   PATH.  *TMP receives its name.  Exits with a message on error.  */
FILE *lp_open_output (const char *path, char **tmp);
/* Close OUT and rename TMP to PATH; frees TMP.  */
void lp_commit_output (FILE *out, char *tmp, const char *path);

void *xmalloc (size_t size);
void *xcalloc (size_t nmemb, size_t size);
void *xrealloc (void *ptr, size_t size);
/* The array ARR of *CAP elements of SIZE bytes, holding N, made to hold
   N + 1: when it is full, *CAP doubles (from FIRST when 0) and ARR is
   reallocated.  */
void *lp_grow (void *arr, size_t *cap, size_t n, size_t size, size_t first);
char *xstrdup (const char *s);

/* A 2^64-1 saturating A + B.  */
static inline uint64_t
lp_sat_add (uint64_t a, uint64_t b)
{
  uint64_t r;
  return __builtin_add_overflow (a, b, &r) ? UINT64_MAX : r;
}

/* A 2^64-1 saturating A * B.  */
static inline uint64_t
lp_sat_mul (uint64_t a, uint64_t b)
{
  uint64_t r;
  return __builtin_mul_overflow (a, b, &r) ? UINT64_MAX : r;
}

/* Parse a decimal (or, if HEX_OK, 0x-prefixed hexadecimal) unsigned
   64-bit number occupying exactly [S, S+LEN).  Return 0 and store it in
   *OUT, or -1 on any junk or overflow.  */
int lp_parse_u64 (const char *s, size_t len, int hex_ok, uint64_t *out);

#endif /* LATEPGO_TOOL_UTIL_H */
