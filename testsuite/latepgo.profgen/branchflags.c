/* The program of profgen.exp's branch-directions test, which feeds
   latepgo-profgen made-up samples of it: pick's test, a conditional
   jump to one of two calls that GCC can neither merge nor if-convert,
   each arm a block of its own; pick_zero's the same for AArch64.  */
#include <stdio.h>
#include <stdlib.h>

__attribute__ ((noinline)) int
small (int x)
{
  return x + 1;
}

__attribute__ ((noinline)) int
large (int x)
{
  return x * 7 - 3;
}

__attribute__ ((noinline)) int
pick (int x)
{
  int r;
  if (x > 100)
    r = large (x);
  else
    r = small (x);
  return r * 2;
}

/* On AArch64, a test against zero is a cbz or cbnz, whose direction
   a sample's registers give (pick's b.cond tests NZCV, which perf does
   not record there).  */
__attribute__ ((noinline)) int
pick_zero (int x)
{
  int r;
  if (x == 0)
    r = large (x);
  else
    r = small (x);
  return r * 3;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += pick (i % 300) + pick_zero (i % 7);
  printf ("%ld\n", s);
  return 0;
}
