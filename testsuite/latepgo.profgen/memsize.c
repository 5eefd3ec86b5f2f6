/* The program of profgen.exp's memop-sizes test: a memcpy whose size
   comes from a volatile table, so that GCC calls memcpy with a size it
   cannot know: 24 bytes three times in four, 200 bytes once in four.
   The loop around it does some work of its own, so that samples land
   on the call instruction too.  Runs about half a second; prints a
   checksum.  With -DMEMSIZE_CMP the call is a memcmp of those sizes.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MEMSIZE_N
#define MEMSIZE_N 200000000
#endif

static size_t volatile sizes[4] = { 24, 24, 200, 24 };
static char src[256], dst[256];

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : MEMSIZE_N;
  unsigned x = 1;
  for (unsigned i = 0; i < n; i++)
    {
      src[i & 255] = (char) x;
#ifdef MEMSIZE_CMP
      /* A memcmp instead (the memcmp-sizes test): its size is the third
	 argument too.  */
      x += (unsigned) memcmp (dst, src, sizes[i & 3]);
#else
      memcpy (dst, src, sizes[i & 3]);
#endif
      x = x * 1103515245u + dst[(i >> 3) & 15];
    }
  printf ("%u\n", x);
  return 0;
}
