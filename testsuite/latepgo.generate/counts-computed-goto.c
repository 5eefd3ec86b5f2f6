/* Computed goto: the abnormal dispatch edges are not instrumented; the
   labels' counts come from flow through the fake edges.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;

__attribute__ ((noinline)) int
dispatch (int x)
{
  static void *labels[] = { &&zero, &&one, &&two };
  goto *labels[x % 3];
zero:
  sink = 0;				/* count(4) */
  return 0;
one:
  sink = 1;				/* count(3) */
  return 1;
two:
  sink = 2;				/* count(3) */
  return 2;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += dispatch (i);			/* count(10) */
  return s == 9 ? 0 : 1;
}

/* { dg-final { latepgo-use-counts } } */
