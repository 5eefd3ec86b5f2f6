/* Sizes of memcpy and memset calls whose size is not a constant are
   profiled in ranges (exactly 0..8, then as LLVM's memop ranges); the
   use rebuild versions the memcpy for its usual size, inlined.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <string.h>

char dst[4096], src[4096];
volatile int small = 8;

__attribute__ ((noinline)) void
copy (size_t n)
{
  memcpy (dst, src, n);
}

__attribute__ ((noinline)) void
clear (char *p, size_t n)
{
  memset (p, 0, n);
}

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    {
      copy (i % 10 == 0 ? 100 : small);
      clear (dst + 1, i < 500 ? 24 : 1000);
    }
  return dst[1];
}

/* The edge counter (entry) and the first-run rank (0: functions this
   small have none): no counters for the sizes, which are value data of
   LLVM's memop kind, each size as its range's representative value.
   8 is range 8; 100 is range 65..127; 24 is 17..31; 1000 is 513.. .  */
/* { dg-final { latepgo-count "copy" {1000 0} } } */
/* { dg-final { latepgo-count "clear" {1000 0} } } */
/* { dg-final { latepgo-memop-sizes "copy" {0:8:900 0:65:100} } } */
/* { dg-final { latepgo-memop-sizes "clear" {0:17:500 0:513:500} } } */
/* { dg-final { scan-latepgo-dump "function copy .* values=1" } } */
/* { dg-final { scan-latepgo-use-dump "^  value site 0 sizes 8:900 65\\+:100$" } } */
/* { dg-final { scan-latepgo-use-dump "^  value site 0 sizes 17\\+:500 513\\+:500$" } } */
/* { dg-final { scan-latepgo-use-tree-dump optimized "if \\(n_\[0-9\]+\\(D\\) == 8\\)" } } */
/* { dg-final { scan-latepgo-use-tree-dump optimized "goto <bb \[0-9\]+>; \\\[90.00%\\\]" } } */
