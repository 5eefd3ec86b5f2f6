/* order.c: memcmp.exp's program of an ordered memcmp.  order's result
   is used for its sign: 5000 calls, 3000 with size 4 (60%: a version
   for that size alone were the result only tested against zero) and
   500 with each of 5, 6, 7 and 8.  Prints how many comparisons found
   the first block below, equal to and above the second.  */

#include <stdio.h>
#include <string.h>

__attribute__ ((noinline)) int
order (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n);
}

char words[] = "applesauce-apricots";

int
main (void)
{
  int below = 0, equal = 0, above = 0;
  for (int i = 0; i < 5000; i++)
    {
      size_t n = i % 10 < 6 ? 4 : 5 + i % 4;
      int r = order (words + i % 3, words + 11 + i % 2, n);
      below += r < 0;
      equal += r == 0;
      above += r > 0;
    }
  printf ("%d %d %d\n", below, equal, above);
  return 0;
}
