/* The program of sample.exp: classify runs its rare branch (a call,
   so that GCC cannot if-convert it) for one value in ten; apply calls
   through a pointer; pick has a one-instruction arm and a long one;
   copy_rec copies a size GCC cannot know, cmp_rec compares one.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) static int
rare (int x)
{
  return x * 3 + (x >> 4);
}

__attribute__ ((noinline)) static int
classify (int x)
{
  if (x % 10 == 0)
    return rare (x);
  return x + 1;
}

__attribute__ ((noinline)) static int
unsampled (int x)
{
  return x > 3 ? x - 3 : x + 3;
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

/* An indirect call GCC cannot resolve.  */
static int (*volatile op) (int) = twice;

__attribute__ ((noinline)) static int
apply (int x)
{
  return op (x);
}

/* The short arm (an add) collects few samples however often it runs;
   the long one runs for the first half of main's loop (the profiles
   of sample.exp say what they need).  */
__attribute__ ((noinline)) static int
pick (int x, const int *t)
{
  int r;
  if (x >= 0)
    r = x + 1;
  else
    r = t[x & 7] * 3 + t[(x >> 3) & 7] * 5 - t[(x >> 6) & 7] + (x >> 9);
  return r;
}

static const int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

/* Not called: sample.exp gives it a profile of its memcpy's sizes.  */
void
copy_rec (char *dst, const char *src, size_t len)
{
  memcpy (dst, src, len);
}

/* Not called: sample.exp gives it a profile of its memcmp's sizes.  */
int
cmp_rec (const char *a, const char *b, size_t len)
{
  return memcmp (a, b, len) == 0;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += classify (i) + pick (i - n / 2, table);
  if (argc > 2)
    s += unsampled (argc);
  if (argc > 3)
    {
      op = thrice;
      s += apply (argc);
    }
  printf ("%ld\n", s);
  return 0;
}
