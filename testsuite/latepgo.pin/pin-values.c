/* pin-values.c: known value profiles for the pinned profiles (pin.exp).
   copy's memcpy runs 10 times with sizes read from a volatile table:
   sizes 3 (4 times), 16 (3 times), 40 (2 times) and 600 (once), so
   the memop value data holds the range values 3, 16, 33 (33..63) and
   513 (513 and up) with counts 4, 3, 2 and 1.  The
   indirect call in dispatch runs 10 times: 7 times to twice, 3 times
   to thrice.  */

#include <string.h>

static volatile unsigned sizes[10] = { 3, 16, 3, 40, 600, 16, 3, 40, 16, 3 };
static char src[1024], dst[1024];

__attribute__ ((noinline)) void
copy (unsigned n)
{
  memcpy (dst, src, n);
}

__attribute__ ((noinline)) int twice (int x) { return 2 * x; }
__attribute__ ((noinline)) int thrice (int x) { return 3 * x; }

int (*volatile ops[2]) (int) = { twice, thrice };

__attribute__ ((noinline)) int
dispatch (int i)
{
  return ops[i % 10 < 7 ? 0 : 1] (i);
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 10; i++)
    {
      copy (sizes[i]);
      s += dispatch (i);
    }
  /* 2 * (0+...+6) + 3 * (7+8+9) = 42 + 72.  */
  return s == 114 ? 0 : 1;
}
