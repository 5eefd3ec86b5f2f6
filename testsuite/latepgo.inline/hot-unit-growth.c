/* Four static functions over -O2's inlining limit for functions not
   declared inline (max-inline-insns-auto, 15) and under the one
   hot-inline.cc gives a function with a hot call, each called 200000
   times from the loop of hot_mix and never from cold_mix and cold_mix2
   (two callers: each keeps its out-of-line body, so inlining a call
   grows the unit by its size).
   The test compiles with a tiny large-unit-insns, so that GCC's unit
   growth limit (inline-unit-growth, 40% at -O2) applies to this small
   unit: it lets only some of the hot calls in, the larger growth of a
   function with hot calls all of them.  */

#include <stdio.h>

#define STEP(NAME, K1, K2, K3)				\
  static unsigned					\
  NAME (unsigned h, unsigned v)				\
  {							\
    h ^= v * K1;					\
    h = (h << 13) | (h >> 19);				\
    if (h & 1)						\
      h = h * 5 + K2;					\
    else						\
      h ^= h >> 16;					\
    h *= K3;						\
    h ^= h >> 13;					\
    if (h % 7 == 3)					\
      h += v;						\
    h *= K2 ^ K3;					\
    h ^= h >> 16;					\
    switch (h & 3)					\
      {							\
      case 0:						\
	h ^= K1 + K3;					\
	break;						\
      case 1:						\
	h += h >> 11;					\
	break;						\
      default:						\
	h = ~h;						\
      }							\
    return h ^ (h >> 15);				\
  }

STEP (step1, 0x9e3779b9u, 0xe6546b64u, 0x85ebca6bu)
STEP (step2, 0x7feb352du, 0x846ca68bu, 0xc2b2ae35u)
STEP (step3, 0x27d4eb2fu, 0x165667b1u, 0xd3a2646cu)
STEP (step4, 0xfd7046c5u, 0xb55a4f09u, 0x68e31da4u)

unsigned
hot_mix (unsigned n)
{
  unsigned h = 0;
  for (unsigned i = 0; i < n; i++)
    h = step4 (step3 (step2 (step1 (h, i), i), i), i);
  return h;
}

unsigned
cold_mix (unsigned h)
{
  return step4 (step3 (step2 (step1 (h, h), h), h), h);
}

unsigned
cold_mix2 (unsigned h)
{
  return step1 (step2 (step3 (step4 (h, 7), h), h), h);
}

int
main (int argc, char **argv)
{
  unsigned h = hot_mix (argc > 5 ? 10 : 200000);
  if (argc > 1)
    h = cold_mix (h) ^ cold_mix2 (h);
  printf ("%08x\n", h);
  return 0;
}
