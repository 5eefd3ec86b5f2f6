/* A call ends its block (a fake edge to EXIT) only if it may leave: a
   call to a function of this file whose body cannot leave does not,
   a call to one that leaves further down (exit two calls away) does.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdlib.h>

volatile int sink;

/* Neither const nor pure (it writes memory), but it always returns.  */
__attribute__ ((noinline)) static void
store (int x)
{
  sink = x;
}

/* Public, and without -fPIC its body is the one that runs.  */
__attribute__ ((noinline)) void
store_public (int x)
{
  sink = x + 1;
}

__attribute__ ((noinline)) static void
maybe_exit (int x)
{
  if (x < 0)
    exit (3);
  sink = x;
}

__attribute__ ((noinline)) static void
checked_store (int x)
{
  maybe_exit (x);
  sink = 2 * x;
}

__attribute__ ((noinline)) void
calls_returning (int n)
{
  for (int i = 0; i < n; i++)
    {
      store (i);
      store_public (i);
    }
}

__attribute__ ((noinline)) void
calls_leaving (int n)
{
  for (int i = 0; i < n; i++)
    {
      checked_store (i);
      sink = -i;
    }
}

int
main (void)
{
  calls_returning (10);
  calls_leaving (10);
  return 0;
}

/* The virtual EXIT->ENTRY edge is the only fake edge of a function
   whose calls all return; one more per call that may leave.  */
/* { dg-final { latepgo-dump-field calls_returning fake 1 } } */
/* { dg-final { latepgo-dump-field calls_leaving fake 2 } } */
/* { dg-final { latepgo-dump-field main fake 2 } } */
/* { dg-final { latepgo-counter-formula } } */
