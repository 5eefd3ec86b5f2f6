/* A function with a loop called through a pointer from a hot call
   site (contexts.exp, inline-by-context-indirect): sample-use makes the
   indirect call a test of the pointer with a direct call of work, and
   inlines it there by its hot context.  The table is not const, so GCC
   cannot see which function the pointer holds.  */
#include <stdlib.h>
volatile unsigned long sink;
int pos[4096];

typedef unsigned long (*work_fn) (const int *, int);

static unsigned long
work (const int *v, int n)
{
  unsigned long s = 0;
  for (int i = 0; i < n; i++)
    if (v[i] & 1)
      s += (unsigned long) v[i] * 3 + (s >> 3);
    else
      s ^= (unsigned long) v[i] * 5 + (s << 1);
  return s;
}

static unsigned long
other (const int *v, int n)
{
  return (unsigned long) v[0] + n;
}

work_fn table[2] = { work, other };

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 3000;
  int pick = argc > 2 ? atoi (argv[2]) : 0;
  for (int i = 0; i < 4096; i++)
    pos[i] = i + 1;
  work_fn f = table[pick & 1];
  for (int r = 0; r < reps; r++)
    sink += f (pos, 4096);		/* The indirect call.  */
  sink += table[1] (pos, reps);
  return 0;
}
