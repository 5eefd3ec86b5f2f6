/* older.c: memcmp.exp's program of an older profile.  check compares
   with memcmp, then copies with memcpy: 4000 calls, all comparing 4
   bytes and copying 8.  Prints how many comparisons found a
   difference.  With EDITED, check has one more test after the memcpy
   (its profile from before goes stale).  */

#include <stdio.h>
#include <string.h>

char dst[16], src[16] = "0123456789abcde";
char x[8] = "abcdefg", y[8] = "abcXefg";

__attribute__ ((noinline)) int
check (const char *a, const char *b, size_t n, size_t m)
{
  int differ = memcmp (a, b, n) != 0;
  memcpy (dst, src, m);
#ifdef EDITED
  if (m > 100)
    differ += 2;
#endif
  return differ;
}

volatile size_t four = 4, eight = 8;

int
main (void)
{
  int found = 0;
  for (int i = 0; i < 4000; i++)
    found += check (x + (i & 1), y, four, eight);
  printf ("%d %c\n", found, dst[7]);
  return 0;
}
