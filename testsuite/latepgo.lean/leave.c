/* leave.c: calls that may leave (ext_step is in another file and may
   call exit), in a loop and straight-line, for lean-counts.exp.  */

#include <stdlib.h>

extern int ext_step (int);

int
loop (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i & 1)
      s += ext_step (i);
  return s;
}

int
twice (int x)
{
  return ext_step (x) + ext_step (x + 1);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  return (loop (n) + twice (n)) == 12345;
}
