/* The trained C++ program of missing.exp.  */
#include "shared.h"

int
main ()
{
  int t = 0;
  for (int i = 0; i < 1000; i++)
    t += shared_step (i);
  return t == 0;
}
