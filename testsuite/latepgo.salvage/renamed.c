/* A file renamed between training and use (salvage.exp): its static
   functions' profile names change with it ("util.c:digits" becomes
   "helpers.c:digits").  With EDIT, count_words changes too.  */

#include <stdio.h>

static volatile int sink;

static __attribute__ ((noinline)) int
digits (const char *s)
{
  int n = 0;
  for (; *s; s++)
    if (*s >= '0' && *s <= '9')
      n++;
  return n;
}

static __attribute__ ((noinline)) int
count_words (const char *s)
{
  int n = 0, in = 0;
#ifdef EDIT
  if (!s)
    return -1;
#endif
  for (; *s; s++)
    {
      if (*s == ' ')
	in = 0;
      else if (!in)
	{
	  in = 1;
	  n++;
	}
    }
  return n;
}

int
main (void)
{
  static const char *lines[] = { "a 1 bb 22", "ccc 333 d", "4 e 5 f 6" };
  long total = 0;
  for (int i = 0; i < 300; i++)
    total += digits (lines[i % 3]) * 7 + count_words (lines[i % 3]);
  sink = total;
  printf ("%ld\n", total);
  return 0;
}
