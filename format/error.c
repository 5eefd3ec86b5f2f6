/* error.c: lp_seterr, on its own so that every reader can use it
   without depending on prof-read.c, which calls every reader.  */

#include "error.h"

#include <stdarg.h>
#include <stdio.h>

void
lp_seterr (struct lp_err *err, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err->msg, sizeof err->msg, fmt, ap);
  va_end (ap);
}
