/* dup.h: an inline function instrumented in both dup-a.cc and
   dup-b.cc, so the program holds two records of it.  */

inline int __attribute__ ((noinline))
twice (int x)
{
  return x > 5 ? x * 2 : x;
}
