/* update=atomic gives every thread its own copy of the counters.  A
   thread that exits (by returning or by pthread_exit) adds its copy to
   the module's counters and frees it for a later thread; the exit write
   adds up the rest.  Counts stay exact across waves of threads and the
   main thread.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -fplugin-arg-latepgo-update=atomic" } */

#include <pthread.h>

/* Waves of threads with an argument each, so not through
   helpers/run-threads.h; work() carries this test's own counts.  */
volatile int sink;

__attribute__ ((noinline)) void
work (int i)
{
  if (i % 3 == 0)
    sink = i;				/* count(33000) */
  else
    sink = -i;				/* count(66000) */
}

static void *
thread_main (void *arg)
{
  for (int i = 0; i < 3000; i++)
    work (i);				/* count(99000) */
  if (arg)
    pthread_exit (0);			/* count(16) */
  return arg;
}

int
main (void)
{
  pthread_t t[8];
  for (int wave = 0; wave < 4; wave++)
    {
      for (long i = 0; i < 8; i++)
	pthread_create (&t[i], 0, thread_main, (void *) (i & 1));
      for (int i = 0; i < 8; i++)
	pthread_join (t[i], 0);
    }
  thread_main (0);
  return 0;
}

/* { dg-final { latepgo-use-counts } } */
