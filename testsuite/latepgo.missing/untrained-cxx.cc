/* A C++ program training never ran; its COMDAT copy of shared_step has
   the trained program's profile, its own functions have none.  */
#include "shared.h"

/* A plain loop of calls, like stale/edited.c's drive(): a coincidence
   of shape between unrelated tests, left as it is.  */
static __attribute__ ((noinline)) int
tool (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    t += shared_step (i);
  return t;
}

int
main (int argc, char **)
{
  return tool (argc * 10) == 12345;
}
