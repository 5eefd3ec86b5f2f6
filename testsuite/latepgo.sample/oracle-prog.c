/* The program of oracle.exp, with known counts: main's loop runs 1000
   times; step runs its rare arm 300 times (i % 10 < 3); the indirect
   call goes 700 times to twice and 300 times to thrice; copy copies 24
   bytes 900 times and 48 bytes 100 times; slide is zlib's slide_hash
   loop (a vectorizable loop whose arm a sample profile may leave
   without samples).  */

#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) static int
step (int i)
{
  if (i % 10 < 3)
    return i * 7 + (i >> 3);
  return i + 1;
}

__attribute__ ((noinline)) static int
twice (int x)
{
  return 2 * x;
}

__attribute__ ((noinline)) static int
thrice (int x)
{
  return 3 * x;
}

static int (*volatile op) (int);

static char src[64], dst[64];

__attribute__ ((noinline)) static void
copy (size_t n)
{
  memcpy (dst, src, n);
}

__attribute__ ((noinline)) void
slide (unsigned short *p, unsigned n, unsigned wsize)
{
  unsigned m;
  p += n;
  do
    {
      m = *--p;
      *p = (unsigned short) (m >= wsize ? m - wsize : 0);
    }
  while (--n);
}

static unsigned short table[4096];

int
main (void)
{
  long sum = 0;
  for (int i = 0; i < 1000; i++)
    {
      sum += step (i);
      op = i % 10 < 7 ? twice : thrice;
      sum += op (i);
      copy (i % 10 ? 24 : 48);
    }
  for (unsigned i = 0; i < 4096; i++)
    table[i] = (unsigned short) (i * 37);
  for (int k = 0; k < 20; k++)
    slide (table, 4096, 1000);
  /* The sums are those of the known counts.  */
  return sum == 2561375 && dst[0] == 0 ? 0 : 1;
}
