/* A function with a loop, called from two hot call sites, each with its
   own data (contexts.exp, inline-by-context): sample-use inlines it at
   both sites by their hot contexts, and each copy gets its context's
   counts.  */
#include <stdlib.h>
volatile unsigned long sink;
int pos[4096], neg[4096];

static unsigned long
work (const int *v, int n)
{
  unsigned long s = 0;
  for (int i = 0; i < n; i++)
    if (v[i] > 0)
      s += (unsigned long) v[i] * 3 + (s >> 3);
    else
      s ^= (unsigned long) -v[i] * 5 + (s << 1);
  return s;
}

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 3000;
  for (int i = 0; i < 4096; i++)
    {
      pos[i] = i + 1;
      neg[i] = -i - 1;
    }
  for (int r = 0; r < reps; r++)
    sink += work (pos, 4096);		/* Site A.  */
  for (int r = 0; r < reps; r++)
    sink ^= work (neg, 4096);		/* Site B.  */
  return 0;
}
