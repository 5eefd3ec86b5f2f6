/* A loop that the program leaves through exit in a callee: in a use
   build the call ends its block (exact counts), in a probe build not.  */

#include <stdlib.h>

volatile int sink;
static int steps;

__attribute__ ((noinline)) void
step (void)
{
  if (++steps == 1000)
    exit (0);
}

__attribute__ ((noinline)) void
run (void)
{
  for (;;)
    {
      sink++;
      step ();
      sink--;
    }
}

int
main (void)
{
  run ();
}
