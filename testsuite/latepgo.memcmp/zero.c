/* A zero-tested memcmp whose most common size is 0 (7000 of 10000
   calls), the others of 4 (2000) and 7 bytes (1000): the use build
   versions it for all three, and the program prints the number of
   equal compares either way.  */

#include <stdio.h>
#include <string.h>

__attribute__ ((noinline)) static int
same (const char *a, const char *b, size_t n)
{
  return memcmp (a, b, n) == 0;
}

int
main (void)
{
  char a[8] = "abcdefg", b[8] = "abcdefx";
  int equal = 0;
  for (int i = 0; i < 10000; i++)
    equal += same (a, b, i % 10 < 7 ? 0 : 4 + (i % 10 == 9) * 3);
  printf ("%d\n", equal);
  return 0;
}
