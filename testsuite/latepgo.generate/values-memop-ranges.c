/* Every memcpy size from 0 to 600 once: each size lands in its LLVM
   memop range (0..8 exactly, then 2^(k-1)+1 .. 2^k-1 and 2^k alone up
   to 512, then 513 and more), named by the range's smallest size, with
   the exact number of sizes in the range (the runtime's table of
   ranges, libprof/prof-values.c).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <string.h>

char dst[1024], src[1024];

__attribute__ ((noinline)) void
copy (size_t n)
{
  memcpy (dst, src, n);
}

int
main (void)
{
  for (size_t n = 0; n <= 600; n++)
    copy (n);
  return dst[1];
}

/* { dg-final { latepgo-memop-sizes "copy" {0:257:255 0:129:127 0:513:88 0:65:63 0:33:31 0:17:15 0:9:7 0:0:1 0:1:1 0:2:1 0:3:1 0:4:1 0:5:1 0:6:1 0:7:1 0:8:1 0:16:1 0:32:1 0:64:1 0:128:1 0:256:1 0:512:1} } } */
