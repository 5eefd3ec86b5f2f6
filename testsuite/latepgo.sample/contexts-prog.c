/* One function called from two call sites whose data send its branch
   opposite ways: at site A every element is positive (the "* 3" arm),
   at site B every one negative (the "* 5" arm).  GCC inlines work at
   both sites; with a context-sensitive sample profile each copy gets
   its own site's branch probabilities (contexts.exp).  */

#include <stdlib.h>

volatile unsigned long sink;
int pos[4096], neg[4096];

static unsigned long
work (int v, unsigned long s)
{
  if (v > 0)
    return s + (unsigned long) v * 3 + (s >> 3);
  else
    return s ^ ((unsigned long) -v * 5 + (s << 1));
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
    {
      unsigned long s = 0;
      for (int i = 0; i < 4096; i++)
	s = work (pos[i], s);		/* Site A.  */
      sink += s;
    }
  for (int r = 0; r < reps; r++)
    {
      unsigned long s = 0;
      for (int i = 0; i < 4096; i++)
	s = work (neg[i], s);		/* Site B.  */
      sink ^= s;
    }
  return 0;
}
