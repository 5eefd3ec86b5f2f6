/* With update=atomic, counts are exact however many threads run the
   same code at once.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -fplugin-arg-latepgo-update=atomic" } */

#include "helpers/run-threads.h"

volatile int sink;

__attribute__ ((noinline)) void
work (int i)
{
  if (i % 3 == 0)
    sink = i;				/* count(133336) */
  else
    sink = -i;				/* count(266664) */
}

static void *
thread_main (void *arg)
{
  for (int i = 0; i < 100000; i++)
    work (i);				/* count(400000) */
  return arg;
}

int
main (void)
{
  run_threads (4, thread_main, 0);
  return 0;
}

/* { dg-final { latepgo-use-counts } } */
