/* threads.c: four threads, each running its own function once; a
   fifth function never runs.  */

#include <pthread.h>

volatile int sink;

#define WORKER(N)				\
  __attribute__ ((noinline)) void *		\
  worker##N (void *arg)				\
  {						\
    sink += N;					\
    return arg;					\
  }

WORKER (1)
WORKER (2)
WORKER (3)
WORKER (4)
WORKER (5)

int
main (void)
{
  void *(*fns[4]) (void *) = { worker1, worker2, worker3, worker4 };
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], 0, fns[i], 0);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], 0);
  if (sink == 12345)
    worker5 (0);
  return 0;
}
