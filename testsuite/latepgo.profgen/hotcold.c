/* The program of profgen.exp: a loop whose hot branch runs 9 times out
   of 10 and whose cold branch runs once in 10, both doing the same kind
   of work; a call that stays a call (mix); and a rare error path that
   GCC moves to main.cold.  With PROFGEN_SHLIB the loop also calls
   lib_mix from a shared library (profgen-lib.c).  Runs about half a
   second; prints a checksum.  */
#include <stdio.h>
#include <stdlib.h>

/* Iterations; profgen.exp rebuilds with another value to get another
   build id.  */
#ifndef PROFGEN_N
#define PROFGEN_N 50000000
#endif

#ifdef PROFGEN_SHLIB
extern unsigned lib_mix (unsigned x);
#else
#define lib_mix(x) (x)
#endif

__attribute__ ((noinline)) unsigned
mix (unsigned x)
{
  x ^= x >> 7;
  x *= 0x9e3779b1u;
  x ^= x >> 13;
  return x;
}

__attribute__ ((noinline, cold)) static void
fail (unsigned x)
{
  fprintf (stderr, "unexpected %u\n", x);
  exit (2);
}

/* Eight dependent multiply-adds: the time of a block is spent in its
   own instructions, so IP samples land in it in proportion to how
   often it runs.  */
#define STEP(v, k) ((v) = (v) * (k) + ((v) >> 15))
#define WORK(v, k) \
  (STEP (v, k), STEP (v, k), STEP (v, k), STEP (v, k), \
   STEP (v, k), STEP (v, k), STEP (v, k), STEP (v, k))

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : PROFGEN_N;
  unsigned x = 1, y = 2, k = 10;
  for (unsigned i = 0; i < n; i++)
    {
      if (--k != 0)
	/* Hot: 9 times out of 10.  */
	WORK (x, 1103515245u);
      else
	{
	  /* Cold: once in 10.  */
	  k = 10;
	  WORK (x, 69069u);
	  y += x;
	}
      x = mix (x) + lib_mix (y);
      if (x == 0xdeadbeefu && y == 0)
	fail (x);
    }
  printf ("%u %u\n", x, y);
  return 0;
}
