/* work.c: a small program for the lean tests: a loop, a static
   helper, an indirect call and a memcpy of varying size, so that edge,
   value and first-run counters all count.  argv[1] "kill" ends the
   process with SIGKILL, which only continuous mode survives.  */

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

int (*volatile pick[2]) (int) = { square, negate };
char buf[600];
volatile int sink;

int
work (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i % 3)
	s += pick[i % 2] (i);
      else
	memcpy (buf, buf + 1, (size_t) i % 500);
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
