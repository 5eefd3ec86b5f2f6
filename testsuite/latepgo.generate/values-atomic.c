/* update=atomic: the value-profile helpers count atomically too, so
   threads sharing a memcpy site and an indirect call site give exact
   totals.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -fplugin-arg-latepgo-update=atomic" } */

#include "helpers/run-threads.h"
#include <string.h>

char dst[64], src[64];
volatile size_t size = 8;
static int inc (int x) { return x + 1; }
int (*volatile fn) (int) = inc;
volatile int sink;

__attribute__ ((noinline)) void
copy (size_t n)
{
  memcpy (dst, src, n);
}

static void *
thread_main (void *arg)
{
  for (int i = 0; i < 50000; i++)
    {
      copy (size);
      sink = fn (i);
    }
  return arg;
}

int
main (void)
{
  run_threads (4, thread_main, 0);
  return 0;
}

/* copy: entry, first-run rank (0: too small to have one); its sizes,
   all 8, as value data.  */
/* { dg-final { latepgo-count "copy" {200000 0} } } */
/* { dg-final { latepgo-memop-sizes "copy" {0:8:200000} } } */
/* { dg-final { scan-latepgo-dump "function \[^ \]*thread_main .* values=1" } } */
/* { dg-final { scan-latepgo-use-dump "^  value site 0 targets inc:200000$" } } */
