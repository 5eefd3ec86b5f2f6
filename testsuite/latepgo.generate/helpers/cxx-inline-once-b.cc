// Second translation unit of cxx-inline-once.cc.
#include "inline-once.h"

int
from_b (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    t += shared_inline (3) + shared_template (i);
  return t;
}
