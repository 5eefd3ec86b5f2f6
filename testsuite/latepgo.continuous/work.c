/* work.c: known counts in work (), then the end argv[1] names:
   "kill" (SIGKILL), "_exit", "exit", and with "threads" first, the work
   is done by four threads (for update=atomic), with "fork" first, by a
   child (which ends in _exit) and the parent alike.  */

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CALLS 1000

volatile long sink;
int work (int);
void *run (void *);

__attribute__ ((noinline)) int
work (int i)
{
  return i % 3 == 0 ? i * 2 : i + 1;
}

void *
run (void *arg)
{
  long s = 0;
  for (int i = 0; i < CALLS; i++)
    s += work (i);
  sink += s;
  return arg;
}

int
main (int argc, char **argv)
{
  const char *end = argc > 1 ? argv[argc - 1] : "exit";
  if (argc > 2 && strcmp (argv[1], "threads") == 0)
    {
      pthread_t t[4];
      for (int k = 0; k < 4; k++)
	pthread_create (&t[k], NULL, run, NULL);
      for (int k = 0; k < 4; k++)
	pthread_join (t[k], NULL);
    }
  else if (argc > 2 && strcmp (argv[1], "fork") == 0)
    {
      pid_t pid = fork ();
      run (NULL);
      if (pid == 0)
	_exit (0);
      waitpid (pid, NULL, 0);
    }
  else
    run (NULL);

  if (strcmp (end, "kill") == 0)
    kill (getpid (), SIGKILL);
  if (strcmp (end, "_exit") == 0)
    _exit (0);
  return 0;
}
