/* Two indirect calls with the same two targets, twice taking 3 calls
   in 4 and thrice 1 in 4, both hot: through parse, whose call is in
   tail position, and through parse_plus, whose call's value is used
   after it.  once calls a single target, in tail position.  */

#include <stdio.h>

struct page
{
  unsigned (*op) (const struct page *, unsigned);
  unsigned salt;
};

static unsigned
twice (const struct page *p, unsigned x)
{
  unsigned h = x * 2 + p->salt;
  h ^= h >> 7;
  return h * 0x9e3779b9u;
}

static unsigned
thrice (const struct page *p, unsigned x)
{
  unsigned h = x * 3 + p->salt;
  h ^= h >> 5;
  return h * 0x85ebca6bu;
}

static unsigned
once (const struct page *p, unsigned x)
{
  unsigned h = x + p->salt;
  h ^= h >> 3;
  return h * 0xc2b2ae35u;
}

static unsigned __attribute__ ((noinline))
parse (const struct page *p, unsigned x)
{
  return p->op (p, x);
}

static unsigned __attribute__ ((noinline))
parse_plus (const struct page *p, unsigned x)
{
  return p->op (p, x) + x;
}

static unsigned __attribute__ ((noinline))
parse_one (const struct page *p, unsigned x)
{
  return p->op (p, x);
}

int
main (int argc, char **argv)
{
  struct page two = { twice, 1 }, three = { thrice, 2 }, one = { once, 3 };
  unsigned n = argc > 5 ? 10 : 400000, h = 0;
  (void) argv;
  for (unsigned i = 0; i < n; i++)
    {
      const struct page *p = i % 4 == 3 ? &three : &two;
      h += parse (p, i);
      h ^= parse_plus (p, h);
      h += parse_one (&one, i);
    }
  printf ("%08x\n", h);
  return 0;
}
