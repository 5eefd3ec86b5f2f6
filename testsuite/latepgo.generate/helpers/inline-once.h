/* Shared by cxx-inline-once.cc and helpers/cxx-inline-once-b.cc.  */
inline int __attribute__ ((noinline))
shared_inline (int x)
{
  int s = 0;
  for (int i = 0; i < x; i++)
    s += i & 1;
  return s;
}

template <typename T> __attribute__ ((noinline)) T
shared_template (T x)
{
  return x > 5 ? x * 2 : x + 1;
}
