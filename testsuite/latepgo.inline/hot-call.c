/* A static function over -O2's inlining limit for functions not
   declared inline (max-inline-insns-auto, 15) and under the limit
   hot-inline.cc gives a function with a hot call: called 1000000 times
   from the loop of hot_sum, and once from rare_fix.  */

#include <stdio.h>

static unsigned
mix (unsigned h, unsigned v)
{
  h ^= v * 0x9e3779b9u;
  h = (h << 13) | (h >> 19);
  if (h & 1)
    h = h * 5 + 0xe6546b64u;
  else
    h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  if (h % 7 == 3)
    h += v;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  for (int round = 0; round < 2; round++)
    {
      h += (v ^ round) * 0x7feb352du;
      if (h > 0x80000000u)
	h -= v >> 3;
      h = (h >> 7) | (h << 25);
    }
  switch (h & 3)
    {
    case 0:
      h ^= 0x27d4eb2fu;
      break;
    case 1:
      h += h >> 11;
      break;
    default:
      h = ~h;
    }
  return h ^ (h >> 15);
}

unsigned
hot_sum (unsigned n)
{
  unsigned h = 0;
  for (unsigned i = 0; i < n; i++)
    h = mix (h, i);
  return h;
}

unsigned
rare_fix (unsigned h)
{
  return mix (h, 42);
}

int
main (int argc, char **argv)
{
  unsigned h = hot_sum (argc > 5 ? 10 : 1000000);
  if (argc > 1)
    h = rare_fix (h);
  printf ("%08x\n", h);
  return 0;
}
