// A small C++ program built through latepgo-generate.specs.
#include <vector>
#include <cstdio>

template <typename T>
static T
sum (const std::vector<T> &v)
{
  T s = 0;
  for (const T &x : v)
    s += x;
  return s;
}

int
main ()
{
  std::vector<int> v;
  for (int i = 0; i < 50; i++)
    v.push_back (i % 7);
  std::printf ("%d\n", sum (v));
  return 0;
}
