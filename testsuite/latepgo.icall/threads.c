/* Four threads call through the same pointer sites at once: with
   update=atomic every call of every target is counted.  */
#include <pthread.h>

static volatile int sink;

__attribute__ ((noinline)) void
one (int x)
{
  sink += x;
}

__attribute__ ((noinline)) void
two (int x)
{
  sink -= x;
}

void (*volatile table[2]) (int) = { one, two };

__attribute__ ((noinline)) void
call (int i)
{
  table[i % 4 == 0] (i);
}

static void *
worker (void *arg)
{
  for (int i = 0; i < 100000; i++)
    call (i);
  return arg;
}

int
main (void)
{
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], 0, worker, 0);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], 0);
  return 0;
}
