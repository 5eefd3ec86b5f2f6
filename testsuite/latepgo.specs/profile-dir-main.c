/* The program of profile-dir.exp: runs a loop argv[1] times in the
   program and argv[1] times in profile-dir-lib.c's shared library, so
   each process adds counts that depend on its argument.  */

#include <stdio.h>
#include <stdlib.h>

int lib_work (int);

__attribute__ ((noinline)) int
work (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += (i & 1) ? 2 : 1;
  return s;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1;
  printf ("%d\n", work (n) + lib_work (n));
  return 0;
}
