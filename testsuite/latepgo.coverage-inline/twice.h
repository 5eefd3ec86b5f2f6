/* twice.h: a C++ inline function that a.cc and b.cc both inline
   early (coverage-inline.exp).  */

inline int
twice (int x)
{
  return 2 * x * x + 1;
}
