/* The program of the plugin.exp use test with a shared library.  */
#include <stdio.h>

int lib_work (int);

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 100; i++)
    s = lib_work (i);
  printf ("%d\n", s);
  return 0;
}
