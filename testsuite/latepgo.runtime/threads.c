/* Threads still counting while the process exits: the exit write must
   not crash or change the exit status (9), and the profile is valid:
   main [1, >0].  */

#include <pthread.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 2)
LP_NAMES ("main")

static void *
spin (void *arg)
{
  for (;;)
    __atomic_fetch_add (&lp_main[1], 1, __ATOMIC_RELAXED);
  return arg;
}

int
main (void)
{
  pthread_t t[2];
  lp_main[0]++;
  for (int i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, spin, NULL);
  while (__atomic_load_n (&lp_main[1], __ATOMIC_RELAXED) < 1000)
    usleep (1000);
  return 9;
}
