/* inline.c: memcmp.exp's program of an inlined memcmp.  same_key's
   memcmp is profiled in same_key (memcmp.exp compiles with
   -fno-early-inlining); count_same calls it 5000 times with size 4 in a
   loop, so the IPA inliner inlines it there; count_other calls it once.
   Prints how many keys were the same.  */

#include <stdio.h>
#include <string.h>

static int
same_key (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n) == 0;
}

__attribute__ ((noinline)) int
count_same (const char *keys, const char *key, size_t n, int times)
{
  int same = 0;
  for (int i = 0; i < times; i++)
    same += same_key (keys + (i & 7), key, n);
  return same;
}

__attribute__ ((noinline)) int
count_other (const char *a, const char *b, size_t n)
{
  return same_key (a, b, n);
}

volatile size_t four = 4, five = 5;
volatile int times = 5000;

int
main (void)
{
  static const char keys[] = "abcdabcdabcdabcd", key[] = "abcd";
  printf ("%d %d\n", count_same (keys, key, four, times),
	  count_other (keys, key, five));
  return 0;
}
