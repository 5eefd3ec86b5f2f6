/* The program of perf-end-to-end.exp: route's rare arm (block probe
   2) runs for one value of I in ten, its common arm (probe 3) for the
   other nine.

   Without LBR, a cpu-clock sample lands where the program waited, not
   where it ran: on the instruction after a slow one, or at the target
   of a mispredicted branch.  So the arms are each twelve rounds of a
   dependent xorshift-multiply chain (about 60 cycles, different
   constants so that GCC merges and folds nothing), the same cost per
   run: their samples per instruction are in the ratio of their runs,
   and the few cycles a mispredicted branch or skid adds to the arm it
   leads to are small beside them.  A one- or two-instruction arm gets
   samples only from such stalls: on a KVM guest (Xeon), sample.exp's
   classify put 15 to 40 times as many samples per run on its rare arm
   (after a taken jump) as on its common one, and the rare arm looked
   the hotter.

   The three divisions (by a volatile, so that they stay divisions)
   make the first block slow for its size: its estimate stays above
   the arms' sum, and the flow lowers it (cheap for a function's first
   block) rather than move samples between the arms.  The join (the
   calls[] update, which GCC copies into both arms) is three quick
   instructions: its estimate stays below the arms' sum, and the flow
   raises it rather than raise one arm.  */

#include <stdio.h>
#include <stdlib.h>

#define MIX(x, c) ((x) ^= (x) >> 15, (x) *= (c))

static volatile unsigned divisor = 7;
unsigned calls[8];

__attribute__ ((noinline)) static unsigned
route (unsigned x, unsigned i)
{
  x ^= x / divisor;
  x ^= x / divisor;
  x ^= x / divisor;
  if (i % 10 == 0)
    {
      MIX (x, 0x9e3779b1u); MIX (x, 0x85ebca6bu); MIX (x, 0xc2b2ae35u);
      MIX (x, 0x27d4eb2fu); MIX (x, 0x165667b1u); MIX (x, 0xd3a2646cu);
      MIX (x, 0xfd7046c5u); MIX (x, 0xb55a4f09u); MIX (x, 0x7feb352du);
      MIX (x, 0x846ca68bu); MIX (x, 0x2c1b3c6du); MIX (x, 0x297a2d39u);
      x ^= x >> 13;
    }
  else
    {
      MIX (x, 0x01000193u); MIX (x, 0x5bd1e995u); MIX (x, 0xcc9e2d51u);
      MIX (x, 0x1b873593u); MIX (x, 0xe6546b64u); MIX (x, 0x85ebca77u);
      MIX (x, 0xc2b2ae3du); MIX (x, 0x27d4eb4fu); MIX (x, 0x68e31da4u);
      MIX (x, 0xb5297a4du); MIX (x, 0x1b56c4e9u); MIX (x, 0x3c6ef372u);
      x ^= x >> 16;
    }
  calls[i & 7]++;
  return x;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? atoi (argv[1]) : 1000;
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s = route (s + i, i);
  printf ("%u\n", s);
  return 0;
}
