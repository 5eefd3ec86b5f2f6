/* Exact counts of nested loops with known trip counts, read back by a
   profile-use rebuild.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;

__attribute__ ((noinline)) void
triangle (int n)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      sink += j;			/* count(135) */
}

__attribute__ ((noinline)) int
odd_sum (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i & 1)
      sink = s += i;			/* count(50) */
    else
      sink = s -= 1;			/* count(50) */
  return s;
}

int
main (void)
{
  for (int k = 0; k < 3; k++)
    triangle (10);			/* count(3) */
  odd_sum (100);
  return 0;
}

/* { dg-final { latepgo-profile-has "triangle" } } */
/* { dg-final { latepgo-use-counts } } */
