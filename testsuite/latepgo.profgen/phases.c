/* The program of profgen.exp's first-sample test: run_b works for
   about a quarter of a second, then run_a as long.  So run_b gets its
   first sample before run_a, though its name sorts after.  Prints a
   checksum.  */
#include <stdio.h>
#include <stdlib.h>

#ifndef PHASES_N
#define PHASES_N 100000000
#endif

/* Dependent multiply-adds: time spent in the function's own code.  */
#define STEP(v, k) ((v) = (v) * (k) + ((v) >> 15))

__attribute__ ((noinline)) unsigned
run_a (unsigned x, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    STEP (x, 69069u);
  return x;
}

__attribute__ ((noinline)) unsigned
run_b (unsigned x, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    STEP (x, 1103515245u);
  return x;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : PHASES_N;
  unsigned x = run_b (1, n);
  x = run_a (x, n);
  printf ("%u\n", x);
  return 0;
}
