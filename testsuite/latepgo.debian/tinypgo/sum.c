/* sum.c: the sum of the numbers on standard input.  */
#include <stdio.h>

static long
add_digit (long n, int c)
{
  return n * 10 + (c - '0');
}

int
main (void)
{
  long total = 0, n = 0;
  int c, in = 0;
  while ((c = getchar ()) != EOF)
    if (c >= '0' && c <= '9')
      n = add_digit (n, c), in = 1;
    else if (in)
      total += n, n = 0, in = 0;
  printf ("%ld\n", total + n);
  return 0;
}
