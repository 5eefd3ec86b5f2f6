/* inl.c: functions that GCC's early inliner inlines before the
   latepgo pass (coverage-inline.exp).  Run without arguments
   (argc == 1): main, work, helper, top, mid and leaf run, rare does
   not; helper, rare, mid and leaf have no body of their own left.  */

#include <stdio.h>

static int
helper (int x)
{
  return x * x + 1;
}

int
work (int x)
{
  return helper (x) + 2;
}

/* Inlined into a branch that never runs.  */
static int
rare (int x)
{
  return x * x * x - 7;
}

/* leaf is inlined into mid, mid into top.  */
static int
leaf (int x)
{
  return x * x + 11;
}

static int
mid (int x)
{
  return leaf (x) * 5 + 1;
}

int
top (int x)
{
  return mid (x) - 3;
}

int
main (int argc, char **argv)
{
  int r = work (argc);
  if (argc > 5)
    r += rare (argc);
  r += top (argc);
  printf ("%d\n", r);
  return 0;
}
