/* A branch whose direction comes from the command line, so that two
   training runs give two profiles that lay out work() differently.
   work() is static: its profile name holds the file name.  */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__ ((noinline))
work (int x, int rem)
{
  if (x % 3 == rem)
    return x * 7 + 1;
  return x / 5 - 2;
}

int
main (int argc, char **argv)
{
  int rem = argc > 1 ? atoi (argv[1]) : 0;
  long sum = 0;
  for (int i = 0; i < 100000; i++)
    sum += work (i, rem);
  printf ("%ld\n", sum);
  return 0;
}
