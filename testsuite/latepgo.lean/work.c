/* work.c: a small program for the lean tests: a loop and static
   helpers, so that edge and first-run counters count.  No indirect
   call and no memcpy of varying size: lean builds leave them
   unprofiled (icall.c, memop.c).  argv[1] "kill" ends the process with
   SIGKILL, which only continuous mode survives.  */

#include <signal.h>
#include <string.h>
#include <unistd.h>

static int
square (int x)
{
  return x * x;
}

static int
negate (int x)
{
  return -x;
}

volatile int which;
char buf[600];
volatile int sink;

int
work (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i % 3)
	s += (which + i) % 2 ? negate (i) : square (i);
      else
	s += buf[i % 600];
    }
  return s;
}

int
main (int argc, char **argv)
{
  sink = work (1000);
  if (argc > 1 && strcmp (argv[1], "kill") == 0)
    kill (getpid (), SIGKILL);
  return 0;
}
