/* anchors.c: libFuzzer harness for format/anchors-read.c, the reader
   of CFG anchors files (format/anchors.h) that the plugin uses to
   salvage stale functions and latepgo-profdata uses to collect them.

   The input must be rejected with a message, or every record handed
   out must lie inside the input (AddressSanitizer checks the reads)
   and be what the reader promises: edges between the record's blocks,
   counters numbered from 0 in edge order, value sites in its blocks.  */

#include "anchors.h"

#include "broken.h"

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  if (!anchors_file_p (data, size))
    return 0;
  size_t off = ANCHORS_FILE_MAGIC_LEN;
  uint64_t sum = 0;
  for (;;)
    {
      struct anchors_record rec;
      struct lp_err err;
      int r = anchors_next (data, size, off, &rec, &err);
      if (r == 0)
	break;
      if (r < 0)
	{
	  if (!err.msg[0])
	    broken ("a rejection without a message");
	  break;
	}
      if (rec.size > size - off)
	broken ("a record past the end of the input");
      for (uint32_t b = 0; b < rec.num_blocks; b++)
	{
	  struct anchors_block ab;
	  anchors_get_block (&rec, b, &ab);
	  sum += ab.shape ^ ab.calls ^ ab.line ^ ab.loop_depth;
	}
      int32_t next = 0;
      for (uint32_t i = 0; i < rec.num_edges; i++)
	{
	  struct anchors_edge e;
	  anchors_get_edge (&rec, i, &e);
	  if (e.src >= rec.num_blocks || e.dst >= rec.num_blocks)
	    broken ("an edge outside its record's blocks");
	  if (e.counter >= 0 && e.counter != next++)
	    broken ("counters out of edge order");
	}
      if ((uint32_t) next != anchors_num_counters (&rec))
	broken ("a counter count that is not the counter edges'");
      for (uint32_t i = 0; i < rec.num_sites; i++)
	{
	  struct anchors_site s;
	  anchors_get_site (&rec, i, &s);
	  if (s.block >= rec.num_blocks
	      || s.num_counters > ANCHORS_MAX_SITE_COUNTERS)
	    broken ("a value site the reader should have refused");
	  sum += s.key;
	}
      off += rec.size;
    }
  return sum == 42;
}
