/* b.cc: fb inlines twice; main calls fb only with more than four
   arguments, so in coverage-inline.exp's run only a.cc's copy of
   twice runs.  */

#include <cstdio>
#include "twice.h"

int fa (int);

int
fb (int x)
{
  return twice (x) - 5;
}

int
main (int argc, char **)
{
  std::printf ("%d\n", fa (argc) + (argc > 5 ? fb (argc) : 0));
  return 0;
}
