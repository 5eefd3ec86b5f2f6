/* A generate build runs and writes a profile with counts for a hot loop.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

__attribute__ ((noinline)) int
sum_odd (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i & 1)
      s += i;
  return s;
}

int
main (void)
{
  if (sum_odd (10) != 25)
    __builtin_abort ();
  return 0;
}

/* { dg-final { scan-latepgo-dump "^function main blocks=\[0-9\]+ " } } */
/* { dg-final { scan-latepgo-dump "^function sum_odd .* checksum=0x\[0-9a-f\]+" } } */
/* { dg-final { latepgo-profile-has "main" } } */
/* { dg-final { latepgo-count-nonzero "sum_odd" } } */
