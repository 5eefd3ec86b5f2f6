/* run-threads.h: start N threads (at most 16) running FN (ARG) at once
   and wait for all of them.  The update=atomic tests that need nothing
   more from their threads share it.  */

#include <pthread.h>

static void
run_threads (int n, void *(*fn) (void *), void *arg)
{
  pthread_t t[16];
  for (int i = 0; i < n; i++)
    pthread_create (&t[i], 0, fn, arg);
  for (int i = 0; i < n; i++)
    pthread_join (t[i], 0);
}
