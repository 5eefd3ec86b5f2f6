/* a.cc: fa inlines twice; main calls fa.  */

#include "twice.h"

int
fa (int x)
{
  return twice (x) + 3;
}
