/* Exact counts with setjmp/longjmp: the abnormal edges are replaced by
   fake edges, and the rest of the function stays exact.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <setjmp.h>

static jmp_buf env;
volatile int sink;

__attribute__ ((noinline)) void
maybe_jump (int i)
{
  if (i == 7)
    longjmp (env, 1);			/* count(1) */
  sink = i;				/* count(7) */
}

int
main (void)
{
  volatile int i = 0;
  if (setjmp (env) == 0)
    for (i = 0; i < 10; i++)
      maybe_jump (i);			/* count(8) */
  else
    sink = -1;				/* count(1) */
  return i == 7 ? 0 : 1;
}

/* { dg-final { latepgo-use-counts } } */
