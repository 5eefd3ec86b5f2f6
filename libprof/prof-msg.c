/* prof-msg.c: the runtime's only output, one line per message on
   stderr: "latepgo: error: ...", "latepgo: warning: ..." for real
   problems, "latepgo: note: ..." only under LATEPGO_VERBOSE.  Each line
   goes out with a single write(2), so lines of concurrent processes do
   not interleave and no stdio state of the host is touched.  */

#include "prof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

/* Set from LATEPGO_VERBOSE by lp_init.  */
int lp_verbose;

/* Print "latepgo: KIND: " followed by FMT formatted with AP and a
   newline.  Long messages are cut.  errno is preserved.  */

static void
emit (const char *kind, const char *fmt, va_list ap)
{
  char line[1024];
  int saved = errno;
  int n = snprintf (line, sizeof line, "latepgo: %s: ", kind);
  if (n < 0)
    n = 0;
  int m = vsnprintf (line + n, sizeof line - n - 1, fmt, ap);
  if (m < 0)
    m = 0;
  n += m;
  if (n > (int) sizeof line - 2)
    n = sizeof line - 2;
  line[n++] = '\n';
  (void) lp_write_all (STDERR_FILENO, line, n);
  errno = saved;
}

/* lp_error, lp_warning and lp_note differ only in the kind they pass
   to emit: three small variadic entry points keep each call site
   saying what it reports, and keep printf format checking on each.  */

/* Report a failure that cost profile data.  */

void
lp_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  emit ("error", fmt, ap);
  va_end (ap);
}

/* Report a problem the runtime worked around.  */

void
lp_warning (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  emit ("warning", fmt, ap);
  va_end (ap);
}

/* Report what the runtime did, when LATEPGO_VERBOSE is set.  */

void
lp_note (const char *fmt, ...)
{
  va_list ap;
  if (!lp_verbose)
    return;
  va_start (ap, fmt);
  emit ("note", fmt, ap);
  va_end (ap);
}
