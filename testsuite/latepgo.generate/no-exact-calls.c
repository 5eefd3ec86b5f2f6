/* no-exact-calls: calls that may not return end no block (no fake
   edge after them), for fewer counters and inexact counts.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-latepgo-no-exact-calls" } */

#include <stdlib.h>

volatile int sink;

__attribute__ ((noinline)) static void
maybe_exit (int x)
{
  if (x < 0)
    exit (3);
  sink = x;
}

__attribute__ ((noinline)) int
calls_leaving (int x)
{
  maybe_exit (x);
  return sink + x;
}

int
main (void)
{
  return calls_leaving (4) == 8 ? 0 : 1;
}

/* { dg-final { latepgo-dump-field calls_leaving fake 1 } } */
/* { dg-final { latepgo-counter-formula } } */
