/* The program of sample.exp: classify runs its rare branch (a call,
   so that GCC cannot if-convert it) for one value in ten.  */

#include <stdio.h>
#include <stdlib.h>

__attribute__ ((noinline)) static int
rare (int x)
{
  return x * 3 + (x >> 4);
}

__attribute__ ((noinline)) static int
classify (int x)
{
  if (x % 10 == 0)
    return rare (x);
  return x + 1;
}

__attribute__ ((noinline)) static int
unsampled (int x)
{
  return x > 3 ? x - 3 : x + 3;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += classify (i);
  if (argc > 2)
    s += unsampled (argc);
  printf ("%ld\n", s);
  return 0;
}
