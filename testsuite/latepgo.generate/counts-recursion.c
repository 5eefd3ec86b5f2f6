/* Exact counts of a recursive function: fib (15) makes 1973 calls, of
   which 987 reach the base case.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int leaves;

__attribute__ ((noinline)) int
fib (int n)
{
  if (n < 2)
    {
      leaves++;				/* count(987) */
      return n;
    }
  return fib (n - 1) + fib (n - 2);	/* count(986) */
}

int
main (void)
{
  return fib (15) == 610 && leaves == 987 ? 0 : 1;
}

/* { dg-final { latepgo-use-counts } } */
