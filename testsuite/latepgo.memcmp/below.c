/* below.c: memcmp.exp's program of sizes that get no version, and of
   the threshold.  few's memcmp runs 999 times with size 4, enough's
   1000 times (LLVM's threshold, MIN_CALLS in memcmp-version.cc);
   spread's 64000 times, 1000 with each size 1 to 64, so that no size
   and no range [W, 2W] makes 40% of the calls.  Prints how many
   comparisons found a difference, and the sum of spread's signs.  */

#include <stdio.h>
#include <string.h>

__attribute__ ((noinline)) int
few (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n) != 0;
}

__attribute__ ((noinline)) int
enough (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n) == 0;
}

__attribute__ ((noinline)) int
spread (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n);
}

char x[80], y[80];
volatile size_t four = 4;

int
main (void)
{
  int found = 0, signs = 0;
  for (int i = 0; i < 80; i++)
    x[i] = y[i] = (char) i;
  y[2] = 0;
  for (int i = 0; i < 999; i++)
    found += few (x, y, four);
  for (int i = 0; i < 1000; i++)
    found += !enough (x, y, four);
  for (int i = 0; i < 64000; i++)
    {
      int r = spread (x, y, 1 + i % 64);
      signs += (r > 0) - (r < 0);
    }
  printf ("%d %d\n", found, signs);
  return 0;
}
