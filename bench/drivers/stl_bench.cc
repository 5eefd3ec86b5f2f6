// stl_bench.cc: containers, algorithms, std::function and virtual calls
// of libstdc++ (Debian's libstdc++-12-dev, the headers g++ uses): the
// work is in the library's template code, instantiated here, and in
// indirect calls (std::function, a class hierarchy) whose targets the
// value profiles of a generate build follow.
//
// Usage: stl_bench SEED N MIX
//   SEED  seed of the data generator
//   N     size of the data sets
//   MIX   0 = training mix, 1 = evaluation mix (other shares of the
//         kernels and other shape mixes)
//
// Prints a checksum of every result.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "driver-util.h"

namespace {

// Shapes: a virtual call per element, targets spread by the mix.
struct Shape
{
  virtual ~Shape () = default;
  virtual double area () const = 0;
  virtual int corners () const = 0;
};

struct Square : Shape
{
  double s;
  explicit Square (double v) : s (v) {}
  double area () const override { return s * s; }
  int corners () const override { return 4; }
};

struct Circle : Shape
{
  double r;
  explicit Circle (double v) : r (v) {}
  double area () const override { return 3.14159265358979 * r * r; }
  int corners () const override { return 0; }
};

struct Triangle : Shape
{
  double b, h;
  Triangle (double x, double y) : b (x), h (y) {}
  double area () const override { return 0.5 * b * h; }
  int corners () const override { return 3; }
};

struct Record
{
  std::string name;
  int key;
  double weight;
};

std::string
make_name (Rng &rng)
{
  static const char *const parts[] = { "al", "be", "ga", "de", "ep", "ze",
				       "et", "th", "io", "ka", "la", "mu" };
  std::string s;
  int n = 2 + rng.below (4);
  for (int i = 0; i < n; i++)
    s += parts[rng.below (12)];
  return s;
}

void
sort_kernel (Rng &rng, int n)
{
  std::vector<Record> v;
  v.reserve (n);
  for (int i = 0; i < n; i++)
    v.push_back (Record{ make_name (rng), rng.below (1000), rng.below (10000) / 7.0 });
  std::stable_sort (v.begin (), v.end (),
		    [] (const Record &a, const Record &b) { return a.name < b.name; });
  std::sort (v.begin (), v.end (),
	     [] (const Record &a, const Record &b) { return a.key < b.key; });
  auto it = std::lower_bound (v.begin (), v.end (), 500,
			      [] (const Record &r, int k) { return r.key < k; });
  mix (static_cast<std::uint64_t> (it - v.begin ()));
  std::vector<int> keys (v.size ());
  std::transform (v.begin (), v.end (), keys.begin (),
		  [] (const Record &r) { return r.key; });
  keys.erase (std::unique (keys.begin (), keys.end ()), keys.end ());
  std::nth_element (keys.begin (), keys.begin () + keys.size () / 2, keys.end ());
  mix (static_cast<std::uint64_t> (keys[keys.size () / 2]));
  mix (static_cast<std::uint64_t> (std::accumulate (keys.begin (), keys.end (), 0LL)));
}

void
map_kernel (Rng &rng, int n)
{
  std::map<std::string, int> ordered;
  std::unordered_map<int, std::string> hashed;
  for (int i = 0; i < n; i++)
    {
      std::string name = make_name (rng);
      ordered[name] += i;
      hashed.emplace (rng.below (n), std::move (name));
    }
  std::uint64_t s = 0;
  for (int i = 0; i < n; i++)
    {
      auto h = hashed.find (rng.below (n));
      if (h != hashed.end ())
	{
	  auto o = ordered.find (h->second);
	  s += o == ordered.end () ? 1 : static_cast<std::uint64_t> (o->second);
	}
    }
  for (auto it = ordered.begin (); it != ordered.end ();)
    it = it->second % 3 == 0 ? ordered.erase (it) : std::next (it);
  mix (s);
  mix (ordered.size ());
}

void
queue_kernel (Rng &rng, int n)
{
  std::deque<int> dq;
  std::list<int> a, b;
  for (int i = 0; i < n; i++)
    {
      if (rng.below (3))
	dq.push_back (i);
      else
	dq.push_front (i);
      if (dq.size () > 64)
	{
	  (i & 1 ? a : b).push_back (dq.front ());
	  dq.pop_front ();
	}
    }
  a.sort ();
  b.sort ();
  a.merge (b);
  a.remove_if ([] (int x) { return x % 5 == 0; });
  mix (std::accumulate (a.begin (), a.end (), 0ULL));
  mix (dq.size ());
}

void
function_kernel (Rng &rng, int n, int mix_kind)
{
  std::vector<std::function<long (long)>> ops;
  ops.emplace_back ([] (long x) { return x + 1; });
  ops.emplace_back ([] (long x) { return x * 3; });
  ops.emplace_back ([] (long x) { return x ^ 0x55; });
  long bias = rng.below (100);
  ops.emplace_back ([bias] (long x) { return x - bias; });
  // The training mix calls the first two most; the evaluation mix
  // spreads the calls.
  long acc = 1;
  for (int i = 0; i < 4 * n; i++)
    {
      int k = mix_kind ? rng.below (4) : (rng.below (8) < 7 ? i & 1 : 2 + (i & 1));
      acc = ops[k] (acc) & 0xffffff;
    }
  mix (static_cast<std::uint64_t> (acc));
}

void
shape_kernel (Rng &rng, int n, int mix_kind)
{
  std::vector<std::unique_ptr<Shape>> shapes;
  std::vector<std::shared_ptr<Shape>> shared;
  for (int i = 0; i < n; i++)
    {
      int k = rng.below (mix_kind ? 3 : 4);
      double v = 1 + rng.below (100) / 10.0;
      if (k == 0 || k == 3)
	shapes.push_back (std::make_unique<Square> (v));
      else if (k == 1)
	shapes.push_back (std::make_unique<Circle> (v));
      else
	shapes.push_back (std::make_unique<Triangle> (v, v + 1));
      if (i % 4 == 0)
	shared.push_back (std::make_shared<Square> (v));
    }
  double total = 0;
  long corners = 0;
  for (int round = 0; round < 4; round++)
    for (const auto &s : shapes)
      {
	total += s->area ();
	corners += s->corners ();
      }
  auto copy = shared;
  for (const auto &s : copy)
    total += s->area ();
  mix (static_cast<std::uint64_t> (total));
  mix (static_cast<std::uint64_t> (corners));
}

} // namespace

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      std::fprintf (stderr, "usage: stl_bench SEED N MIX\n");
      return 2;
    }
  Rng rng{ 0x9e3779b97f4a7c15ULL ^ std::strtoull (argv[1], nullptr, 10) };
  int n = std::atoi (argv[2]);
  int mix_kind = std::atoi (argv[3]);
  if (n < 16)
    n = 16;
  for (int round = 0; round < 4; round++)
    {
      sort_kernel (rng, mix_kind ? n / 2 : n);
      map_kernel (rng, n);
      queue_kernel (rng, 4 * n);
      function_kernel (rng, n, mix_kind);
      shape_kernel (rng, mix_kind ? 2 * n : n, mix_kind);
    }
  std::printf ("stl_bench seed=%s n=%d mix=%d checksum=%016llx\n", argv[1], n,
	       mix_kind, static_cast<unsigned long long> (checksum));
  return 0;
}
