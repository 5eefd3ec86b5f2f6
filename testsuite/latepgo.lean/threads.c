/* threads.c: four threads run the same loop, for the lean tests with
   per-thread counters (update=atomic).  */

#include <pthread.h>

volatile int sink;

static void *
run (void *arg)
{
  int n = *(int *) arg, s = 0;
  for (int i = 0; i < n; i++)
    s += i % 5 ? i : -i;
  sink = s;
  return 0;
}

int
main (void)
{
  pthread_t t[4];
  int n[4] = { 1000, 2000, 3000, 4000 };
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], 0, run, &n[i]);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], 0);
  return 0;
}
