/* edited.c: a program edited after training (stale.exp).  With -DEDITED,
   work changes (its profile goes stale) and calls report, which the
   training run never called; drive and main do not change.  */

#include <stdio.h>
#include <stdlib.h>

volatile int sink;

/* Never run in training: only main's unused branch calls it there.  */
__attribute__ ((noinline, noclone)) static void
report (int i)
{
  sink += i * 3;
  if (i % 7 == 0)
    sink ^= i;
}

__attribute__ ((noinline, noclone)) static int
work (int i)
{
  int r = i * 2 + 1;
#ifdef EDITED
  if (i & 1)
    report (i);
  r += i >> 3;
#endif
  return r;
}

/* Hot, and the same in both versions: keeps its profile.  */
__attribute__ ((noinline, noclone)) static long
drive (int n)
{
  long t = 0;
  for (int i = 0; i < n; i++)
    t += work (i);
  return t;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 200000;
  if (argc > 2)
    report (n);
  printf ("%ld\n", drive (n));
  return 0;
}
