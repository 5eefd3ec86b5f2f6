/* cov.c: a program whose coverage is known from argv[1]: "a" runs
   only_a, "b" runs only_b; never_run never runs; branch always runs,
   its rare block only for "rare"; "kill" ends by SIGKILL after the
   work, so that nothing runs at exit.  */

#include <signal.h>
#include <string.h>
#include <unistd.h>

volatile int sink;

__attribute__ ((noinline)) void
only_a (void)
{
  sink += 1;
}

__attribute__ ((noinline)) void
only_b (void)
{
  sink += 2;
}

__attribute__ ((noinline)) void
never_run (void)
{
  sink += 3;
}

__attribute__ ((noinline)) int
branch (const char *arg)
{
  int s = 0;
  if (strcmp (arg, "rare") == 0)
    {
      s = sink * 7;
      sink = s + 1;
    }
  return s + 1;
}

int
main (int argc, char **argv)
{
  const char *arg = argc > 1 ? argv[1] : "";
  if (strcmp (arg, "a") == 0)
    only_a ();
  else if (strcmp (arg, "b") == 0)
    only_b ();
  branch (arg);
  if (sink == 12345)
    never_run ();
  if (strcmp (arg, "kill") == 0)
    kill (getpid (), SIGKILL);
  return 0;
}
