// A virtual call whose usual target (square::area) is defined in
// another file (virt-shapes.cc).
#include "virt-shape.h"

__attribute__ ((noinline)) long
total_area (shape *const *shapes, int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += shapes[i]->area (i);
  return s;
}

int
main ()
{
  shape *shapes[100];
  for (int i = 0; i < 100; i++)
    shapes[i] = i == 50 ? make_circle () : make_square ();
  long s = 0;
  for (int r = 0; r < 100; r++)
    s += total_area (shapes, 100);
  return s == 42;
}
