/* tool-util.c: diagnostics, allocation, pending-output cleanup and
   number parsing for the latepgo tools.  */

#define _GNU_SOURCE
#include "tool-util.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *progname = "latepgo-profdata";

/* Temporary output file to delete on failure; a fixed buffer so the
   signal handler needs no allocation.  */
static char pending_output[4096];
static volatile sig_atomic_t have_pending_output;

static void
vreport (const char *kind, const char *where, const char *fmt, va_list ap)
{
  fflush (stdout);
  if (where)
    fprintf (stderr, "%s: %s: %s: ", progname, kind, where);
  else
    fprintf (stderr, "%s: %s: ", progname, kind);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
}

/* lp_error, lp_warning and lp_note: one varargs wrapper of vreport
   per kind, which C needs.  */
void
lp_error (const char *where, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vreport ("error", where, fmt, ap);
  va_end (ap);
}

void
lp_warning (const char *where, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vreport ("warning", where, fmt, ap);
  va_end (ap);
}

void
lp_note (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vreport ("note", NULL, fmt, ap);
  va_end (ap);
}

void
lp_exit (int status)
{
  if (have_pending_output)
    {
      unlink (pending_output);
      have_pending_output = 0;
    }
  fflush (stdout);
  exit (status);
}

void
lp_fatal (const char *where, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vreport ("error", where, fmt, ap);
  va_end (ap);
  lp_exit (1);
}

/* Delete the pending output file, then die of SIG as usual.  */
static void
signal_cleanup (int sig)
{
  if (have_pending_output)
    unlink (pending_output);
  signal (sig, SIG_DFL);
  raise (sig);
}

void
lp_set_pending_output (const char *path)
{
  static int handlers_installed;

  if (!path)
    {
      have_pending_output = 0;
      return;
    }
  if (strlen (path) >= sizeof pending_output)
    lp_fatal (path, "output path is too long");
  strcpy (pending_output, path);
  have_pending_output = 1;
  if (!handlers_installed)
    {
      static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
      for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
	signal (sigs[i], signal_cleanup);
      handlers_installed = 1;
    }
}

void *
xmalloc (size_t size)
{
  void *p = malloc (size ? size : 1);
  if (!p)
    lp_fatal (NULL, "out of memory allocating %zu bytes", size);
  return p;
}

void *
xcalloc (size_t nmemb, size_t size)
{
  void *p = calloc (nmemb ? nmemb : 1, size ? size : 1);
  if (!p)
    lp_fatal (NULL, "out of memory allocating %zu x %zu bytes", nmemb, size);
  return p;
}

void *
xrealloc (void *ptr, size_t size)
{
  void *p = realloc (ptr, size ? size : 1);
  if (!p)
    lp_fatal (NULL, "out of memory allocating %zu bytes", size);
  return p;
}

void *
lp_grow (void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
  if (n < *cap)
    return arr;
  *cap = *cap ? 2 * *cap : first;
  return xrealloc (arr, *cap * size);
}

char *
xstrdup (const char *s)
{
  size_t n = strlen (s) + 1;
  return memcpy (xmalloc (n), s, n);
}

int
lp_parse_u64 (const char *s, size_t len, int hex_ok, uint64_t *out)
{
  uint64_t v = 0;
  unsigned base = 10;
  size_t i = 0;

  if (hex_ok && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      base = 16;
      i = 2;
    }
  if (i >= len)
    return -1;
  for (; i < len; i++)
    {
      unsigned d;
      char c = s[i];
      if (c >= '0' && c <= '9')
	d = c - '0';
      else if (base == 16 && c >= 'a' && c <= 'f')
	d = c - 'a' + 10;
      else if (base == 16 && c >= 'A' && c <= 'F')
	d = c - 'A' + 10;
      else
	return -1;
      if (__builtin_mul_overflow (v, base, &v)
	  || __builtin_add_overflow (v, d, &v))
	return -1;
    }
  *out = v;
  return 0;
}

FILE *
lp_open_output (const char *path, char **tmp)
{
  *tmp = xmalloc (strlen (path) + 16);
  sprintf (*tmp, "%s.tmpXXXXXX", path);
  int fd = mkstemp (*tmp);
  if (fd < 0)
    lp_fatal (path, "cannot create a temporary output file: %s",
	      strerror (errno));
  lp_set_pending_output (*tmp);
  mode_t mask = umask (0);
  umask (mask);
  if (fchmod (fd, 0666 & ~mask) < 0)
    lp_fatal (*tmp, "%s", strerror (errno));
  FILE *out = fdopen (fd, "wb");
  if (!out)
    lp_fatal (*tmp, "%s", strerror (errno));
  setvbuf (out, NULL, _IOFBF, 1 << 20);
  return out;
}

void
lp_commit_output (FILE *out, char *tmp, const char *path)
{
  if (fflush (out) != 0 || ferror (out))
    lp_fatal (path, "write error: %s", strerror (errno));
  if (fclose (out) != 0)
    lp_fatal (path, "write error: %s", strerror (errno));
  if (rename (tmp, path) < 0)
    lp_fatal (path, "cannot rename the temporary output file: %s",
	      strerror (errno));
  lp_set_pending_output (NULL);
  free (tmp);
}
