/* An inline function of missing.exp's C++ programs: a COMDAT copy in
   every object that calls it, trained through trained-cxx.cc.  */

inline __attribute__ ((noinline)) int
shared_step (int i)
{
  return i % 3 ? i : -i;
}
