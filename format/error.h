/* error.h: the error text format/'s readers fill in; the caller adds
   the file name and prints it.  */

#ifndef LATEPGO_FORMAT_ERROR_H
#define LATEPGO_FORMAT_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

struct lp_err
{
  char msg[512];
};

/* Format the message into ERR, truncated to fit.  */
void lp_seterr (struct lp_err *err, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_FORMAT_ERROR_H */
