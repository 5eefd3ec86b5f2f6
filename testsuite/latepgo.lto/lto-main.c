/* Two-file program for the -flto tests (lto.exp), with lto-work.c:
   main calls classify, which no IPA pass may touch (noipa), so that
   the -flto build's functions are the separate build's, and weight,
   which -flto inlines across the files unless KEEP_APART is
   defined.  */

#include <stdio.h>
#include <stdlib.h>

int classify (unsigned);
int weight (int);

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? strtoul (argv[1], NULL, 10) : 1000;
  long sum = 0;
  for (unsigned i = 0; i < n; i++)
    sum += weight (classify (i * 2654435761u));
  printf ("%ld\n", sum);
  return 0;
}
