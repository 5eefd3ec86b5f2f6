/* marker.c: version's copy in main folds to a constant, so only its
   debug markers are left of it, and only under -g
   (coverage-inline.exp).  */

#include <stdio.h>

const char *
version (void)
{
  return "v1";
}

int
main (void)
{
  puts (version ());
  return 0;
}
