/* older.c: what an object of the latepgo before table blocks
   (table.exp: older-layout-linked) puts in the memop section, one
   site's nodes with their ranges' values and no table block before
   them, and how it counts a size: through the runtime's
   __latepgo_memop_words.  Built without the plugin.  */

#include "latepgo-abi.h"

extern const unsigned char __latepgo_memop_words[];

struct latepgo_value_node older_nodes[LATEPGO_MEMOP_BUCKETS]
  __attribute__ ((section (LATEPGO_SEC_VMOP), aligned (8), used)) = {
  { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 },
  { 5, 0, 0 }, { 6, 0, 0 }, { 7, 0, 0 }, { 8, 0, 0 }, { 9, 0, 0 },
  { 16, 0, 0 }, { 17, 0, 0 }, { 32, 0, 0 }, { 33, 0, 0 }, { 64, 0, 0 },
  { 65, 0, 0 }, { 128, 0, 0 }, { 129, 0, 0 }, { 256, 0, 0 },
  { 257, 0, 0 }, { 512, 0, 0 }, { 513, 0, 0 }
};

void
older_count (unsigned long long size)
{
  unsigned long long at = (size < LATEPGO_MEMOP_RANGES_LAST
			   ? size : LATEPGO_MEMOP_RANGES_LAST);
  ((unsigned long long *) older_nodes)[__latepgo_memop_words[at] + 1] += 1;
}
