/* lean-map.c: libFuzzer harness for format/lean-map-read.c, the reader
   of a lean build's map section (format/lean-map.h) that
   latepgo-profdata merge --binary and --map use.

   The input must be rejected with a message, or the map handed out
   must be what the input can hold (AddressSanitizer checks the reads):
   every record with counters, no more records and names than the
   input's bytes.  */

#include "lean-map.h"

#include "broken.h"

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct lean_map map;
  struct lp_err err;
  err.msg[0] = 0;
  if (lean_map_parse (data, size, &map, &err) < 0)
    {
      if (!err.msg[0])
	broken ("a rejection without a message");
      if (map.records || map.names)
	broken ("a rejected map that still holds memory");
      return 0;
    }
  if (map.num_records * 8 * LEAN_MAP_RECORD_WORDS + map.names_size > size)
    broken ("more records and names than the input holds");
  uint64_t sum = 0;
  for (size_t i = 0; i < map.num_records; i++)
    {
      if (map.records[i].num_counters == 0)
	broken ("a record without counters");
      sum += map.records[i].counters ^ map.records[i].name_ref;
    }
  for (size_t i = 0; i < map.names_size; i++)
    sum += map.names[i];
  lean_map_free (&map);
  return sum == 42;
}
