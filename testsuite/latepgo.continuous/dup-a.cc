/* dup-a.cc: one copy of dup.h's twice ().  */

#include "dup.h"

int
fa (int i)
{
  return twice (i);
}
