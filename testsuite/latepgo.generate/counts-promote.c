/* Counters of closed loops (no calls that could leave them) are counted
   in a local and added at every loop exit: break, return, goto and the
   normal exit, nested loops included, must give the exact counts; a
   loop with a call keeps its counters in place.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;
unsigned char data[256];

__attribute__ ((noinline)) int
scan (int n, int stop)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    {
      if (data[i] & 1)
	s += data[i];			/* count(1210) */
      else
	s -= 1;				/* count(1221) */
      if (s > stop)
	break;
      if (data[i] == 200)
	return -s;
    }
  return s;
}

/* Loops shaped like counters-formula.c's, deliberately kept apart:
   that test checks the counter formula, this one the counts.  */
__attribute__ ((noinline)) int
nested (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      {
	if ((i ^ j) & 1)
	  s += j;			/* count(225) */
	else
	  s--;				/* count(210) */
	if (s > 1000000)
	  goto out;
      }
 out:
  return s;
}

__attribute__ ((noinline)) void
callee (int i)
{
  sink = i;
}

__attribute__ ((noinline)) int
with_call (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i & 1)
	callee (i);			/* count(25) */
      s += i;
    }
  return s;
}

int
main (void)
{
  for (int i = 0; i < 256; i++)
    data[i] = i;
  int t = 0;
  for (int k = 0; k < 10; k++)
    {
      t += scan (250, 1000000);		/* count(10) */
      t += scan (250, 100);
    }
  t += scan (256, 1000000);
  t += nested (30);
  t += with_call (50);
  sink = t;
  return 0;
}

/* { dg-final { latepgo-use-counts } } */
/* { dg-final { scan-latepgo-dump "function scan .* promoted=\[1-9\]" } } */
/* { dg-final { scan-latepgo-dump "function nested .* promoted=\[1-9\]" } } */
/* { dg-final { scan-latepgo-dump "function with_call .* promoted=0" } } */
