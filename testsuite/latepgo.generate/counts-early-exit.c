/* With exact-calls, a call that does not return (exit from a callee)
   ends its block, so the counts after it stay exact.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-latepgo-exact-calls" } */

#include <stdlib.h>

volatile int sink;

__attribute__ ((noinline)) void
step (int i)
{
  if (i == 5)
    exit (0);				/* count(1) */
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    {
      sink = i;				/* count(6) */
      step (i);
      sink = -i;			/* count(5) */
    }
  return 1;
}

/* { dg-final { latepgo-use-counts } } */
