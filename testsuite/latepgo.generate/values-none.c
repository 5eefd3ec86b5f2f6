/* no-values: only edge counters (no value sites, no first-run rank),
   and the use rebuild still reads such a profile.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-latepgo-no-values" } */

#include <string.h>

char dst[64], src[64];
volatile int n = 8;

__attribute__ ((noinline)) void
copy (size_t k)
{
  memcpy (dst, src, k);
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    copy (n);			/* count(10) */
  return 0;
}

/* { dg-final { latepgo-count "copy" {10} } } */
/* { dg-final { scan-latepgo-dump "function copy .* values=0" } } */
/* { dg-final { latepgo-use-counts } } */
/* { dg-final { scan-latepgo-use-dump "^  profile match counters=10$" } } */
