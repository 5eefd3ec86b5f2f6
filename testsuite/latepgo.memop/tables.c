/* The runtime's memop tables (latepgo-abi.h) for every size from 0 to
   600: __latepgo_memop_words, which instrumented code reads, holds 3
   times the range of latepgo_memop_bucket (three u64 words per node),
   and __latepgo_memop_ranges, which objects of the latepgo before
   read, the range itself; sizes beyond 512 share the last entry.
   Prints the number of wrong entries.  */

#include <stdio.h>
#include "latepgo-abi.h"

extern const unsigned char __latepgo_memop_words[];
extern const unsigned char __latepgo_memop_ranges[];

int
main (void)
{
  int wrong = 0;
  for (unsigned long long size = 0; size <= 600; size++)
    {
      unsigned long long at = (size < LATEPGO_MEMOP_RANGES_LAST
			       ? size : LATEPGO_MEMOP_RANGES_LAST);
      unsigned want = latepgo_memop_bucket (size);
      if (__latepgo_memop_words[at] != 3 * want)
	{
	  printf ("words[%llu] = %u, want %u\n", at,
		  __latepgo_memop_words[at], 3 * want);
	  wrong++;
	}
      if (__latepgo_memop_ranges[at] != want)
	{
	  printf ("ranges[%llu] = %u, want %u\n", at,
		  __latepgo_memop_ranges[at], want);
	  wrong++;
	}
    }
  printf ("%d wrong\n", wrong);
  return wrong != 0;
}
