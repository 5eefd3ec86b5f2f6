/* GNU C nested functions and variadic functions are instrumented like
   any other.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-inline" } */

#include <stdarg.h>

volatile int sink;

__attribute__ ((noinline)) int
sum (int n, ...)
{
  va_list ap;
  int s = 0;
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    s += va_arg (ap, int);		/* count(12) */
  va_end (ap);
  return s;
}

__attribute__ ((noinline)) int
outer (int k)
{
  int scale (int v) { return v * k; }	/* count(8) */
  return scale (1) + scale (2);
}

int
main (void)
{
  int t = 0;
  for (int i = 0; i < 4; i++)
    t += sum (3, i, 1, 2) + outer (i);	/* count(4) */
  return t == 12 + 6 + 18 ? 0 : 1;
}

/* { dg-final { latepgo-use-counts } } */
