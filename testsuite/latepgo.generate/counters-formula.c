/* Every function gets exactly E - V + 1 counters (E counting fake edges
   and the virtual EXIT->ENTRY edge) minus the edges that are provably
   uncountable (abnormal edges, fake edges off the tree): the dump's
   numbers must satisfy it for each function, and every edge off the
   spanning tree must carry a counter.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <setjmp.h>
#include <stdlib.h>

static jmp_buf env;
volatile int sink;

__attribute__ ((noinline)) void leaf (int x) { sink = x; }

__attribute__ ((noinline)) int
loops (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if ((i ^ j) & 1)
	s += j;
      else if (i == j)
	leaf (i);
  return s;
}

__attribute__ ((noinline)) void
fail_if (int x)
{
  if (x > 1000000)
    abort ();
}

int
main (void)
{
  if (setjmp (env))
    return 1;
  fail_if (loops (20));
  return 0;
}

/* { dg-final { latepgo-counter-formula } } */
