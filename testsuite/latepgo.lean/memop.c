/* memop.c: a memcpy of varying size, which a lean build leaves
   unprofiled and says so (-Wlatepgo-lean-memop).  */

#include <string.h>

char dst[64], src[64];
volatile unsigned size = 8;

int
main (void)
{
  memcpy (dst, src, size);
  return dst[0];
}
