/* update=atomic with counters promoted out of a closed loop: each
   thread counts in its own local and adds it atomically at the loop
   exit, so the totals stay exact.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -fplugin-arg-latepgo-update=atomic" } */

#include "helpers/run-threads.h"

volatile int sink;

static void *
thread_main (void *arg)
{
  int s = 0;
  for (int i = 0; i < 100000; i++)
    if (i % 3 == 0)
      s += i;				/* count(133336) */
    else
      s -= 1;				/* count(266664) */
  sink = s;
  return arg;
}

int
main (void)
{
  run_threads (4, thread_main, 0);
  return 0;
}

/* { dg-final { scan-latepgo-dump "function \[^ \]*thread_main .* promoted=\[1-9\]" } } */
/* { dg-final { latepgo-use-counts } } */
