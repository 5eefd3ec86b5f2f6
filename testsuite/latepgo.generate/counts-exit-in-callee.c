/* A loop that the program leaves through exit in a callee, as servers,
   interpreters and command-line tools end: the call may not return, so
   it ends its block by default and the loop's counts stay exact (with
   no fake edge after it, every count of run came out 0).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdlib.h>

volatile int sink;
static int steps;

__attribute__ ((noinline)) void
step (void)
{
  if (++steps == 3000000)		/* count(3000000) */
    exit (0);				/* count(1) */
}

__attribute__ ((noinline)) void
run (void)
{
  sink = 1;				/* count(1) */
  for (;;)
    {
      sink++;				/* count(3000000) */
      step ();
    }
}

int
main (void)
{
  run ();
}

/* { dg-final { latepgo-use-counts } } */
