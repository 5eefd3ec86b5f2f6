// Exact counts around C++ exceptions: throws, catches and the normal
// path, with the EH edges counted like any other edge.
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdexcept>

volatile int sink;

__attribute__ ((noinline)) int
check (int x)
{
  if (x % 4 == 0)
    throw std::runtime_error ("multiple of four");	/* count(5) */
  return x;						/* count(15) */
}

int
main ()
{
  int caught = 0;
  for (int i = 0; i < 20; i++)
    try
      {
	sink = check (i);				/* count(20) */
      }
    catch (const std::exception &)
      {
	caught++;					/* count(5) */
      }
  return caught == 5 ? 0 : 1;
}

/* { dg-final { latepgo-use-counts } } */
