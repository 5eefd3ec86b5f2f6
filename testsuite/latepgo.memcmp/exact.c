/* exact.c: memcmp.exp's program of exact sizes.  differ compares with
   memcmp and same_bcmp with bcmp, each result only tested against
   zero (the two tested the opposite ways, so that their code differs
   and -flto's identical code folding keeps both); each runs 4200 times,
   3000 times with size 4 and 1200 times with size 3 (i % 7 below 5, or
   not).  Prints how many comparisons found a difference.  */

#include <stdio.h>
#include <string.h>
#include <strings.h>

__attribute__ ((noinline)) int
differ (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n) != 0;
}

__attribute__ ((noinline)) int
same_bcmp (const char *a, const char *b, size_t n)
{
  return bcmp (a, b, n) == 0;
}

char x[8] = "abcdefg", y[8] = "abcXefg";

int
main (void)
{
  int found = 0;
  for (int i = 0; i < 4200; i++)
    {
      size_t n = i % 7 < 5 ? 4 : 3;
      found += differ (x, y, n);
      found += !same_bcmp (x + (i & 1), y + (i & 1), n);
    }
  printf ("%d\n", found);
  return 0;
}
