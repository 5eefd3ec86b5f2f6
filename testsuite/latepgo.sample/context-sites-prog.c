/* context-sites-prog.c: main calls work from two sites and printf
   from a third (context-sites.exp: calling contexts naming main's call
   sites, and others).  */
#include <stdio.h>
#include <stdlib.h>

__attribute__ ((noinline)) static int
work (int x)
{
  return x * 3 + 1;
}

int
main (int argc, char **argv)
{
  int s = work (argc);
  if (argv[0][0] == 'x')
    s += work (s);
  printf ("%d\n", s);
  return 0;
}
