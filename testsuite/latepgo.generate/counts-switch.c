/* Exact counts of the arms of a switch.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;

__attribute__ ((noinline)) void
classify (int x)
{
  switch (x % 7)
    {
    case 0:
      sink = 10;			/* count(15) */
      break;
    case 1:
    case 2:
      sink = 20;			/* count(29) */
      break;
    case 5:
      sink = 30;			/* count(14) */
      break;
    default:
      sink = 40;			/* count(42) */
      break;
    }
}

int
main (void)
{
  for (int i = 0; i < 100; i++)
    classify (i);
  return 0;
}

/* { dg-final { latepgo-use-counts } } */
