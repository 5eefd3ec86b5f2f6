/* lean-map-read.c: reader of a lean build's map section (lean-map.h,
   doc/lean.md): every chunk checked against its stated sizes before
   anything is kept, so a truncated or corrupt map is an error, never
   a wrong profile.  The names are checked later, with the joined
   profile (raw-read.c).  */

#include "lean-map.h"
#include "le.h"
#include "tool-util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void
lean_map_free (struct lean_map *map)
{
  free (map->records);
  free (map->names);
  memset (map, 0, sizeof *map);
}

/* Check the chunk at word offset W of the SIZE8 words at DATA and
   append it to MAP.  Return its size in words, or 0 with ERR set.  */
static size_t
parse_chunk (const unsigned char *data, size_t size8, size_t w,
	     struct lean_map *map, struct lp_err *err)
{
  size_t off = w * 8;
  size_t avail = size8 - w;
  if (avail < LEAN_MAP_HEADER_WORDS)
    {
      lp_seterr (err, "map chunk at offset %zu is truncated: %zu bytes, "
		 "its header needs %d", off, avail * 8,
		 LEAN_MAP_HEADER_WORDS * 8);
      return 0;
    }
  uint64_t magic = le_read_u64 (data + off);
  if ((uint32_t) magic != LEAN_MAP_MAGIC)
    {
      lp_seterr (err, "map chunk at offset %zu has a bad magic "
		 "(0x%016" PRIx64 ")", off, magic);
      return 0;
    }
  if (magic >> 32 != LEAN_MAP_VERSION)
    {
      lp_seterr (err, "map chunk at offset %zu has version %" PRIu64
		 ", this latepgo-profdata reads version %u", off,
		 magic >> 32, LEAN_MAP_VERSION);
      return 0;
    }
  uint64_t words = le_read_u64 (data + off + 8);
  uint64_t start = le_read_u64 (data + off + 16);
  uint64_t sizes = le_read_u64 (data + off + 24);
  uint64_t nrec = (uint32_t) sizes;
  uint64_t names_size = sizes >> 32;
  uint64_t need = LEAN_MAP_HEADER_WORDS + nrec * LEAN_MAP_RECORD_WORDS
		  + (names_size + 7) / 8;
  if (words != need)
    {
      lp_seterr (err, "map chunk at offset %zu is corrupt: it says %" PRIu64
		 " words, its %" PRIu64 " records and %" PRIu64 " bytes of "
		 "names need %" PRIu64, off, words, nrec, names_size, need);
      return 0;
    }
  if (words > avail)
    {
      lp_seterr (err, "map chunk at offset %zu is truncated: it needs %"
		 PRIu64 " bytes, %zu are left", off, words * 8, avail * 8);
      return 0;
    }
  if (map->num_records && start != map->counters_start)
    {
      lp_seterr (err, "map chunk at offset %zu is corrupt: its counters "
		 "section starts at 0x%" PRIx64 ", the first chunk's at 0x%"
		 PRIx64, off, start, map->counters_start);
      return 0;
    }
  map->counters_start = start;

  map->records = xrealloc (map->records, (map->num_records + nrec)
			   * sizeof *map->records);
  const unsigned char *p = data + off + LEAN_MAP_HEADER_WORDS * 8;
  for (uint64_t i = 0; i < nrec; i++, p += LEAN_MAP_RECORD_WORDS * 8)
    {
      struct lean_map_record *r = &map->records[map->num_records++];
      uint64_t shape = le_read_u64 (p + 24);
      r->counters = le_read_u64 (p);
      r->name_ref = le_read_u64 (p + 8);
      r->func_hash = le_read_u64 (p + 16);
      r->num_counters = (uint32_t) shape;
      r->num_value_sites[0] = (uint16_t) (shape >> 32);
      r->num_value_sites[1] = (uint16_t) (shape >> 48);
      if (r->num_counters == 0)
	{
	  lp_seterr (err, "map chunk at offset %zu is corrupt: record %"
		     PRIu64 " has no counters", off, i);
	  return 0;
	}
    }
  map->names = xrealloc (map->names, map->names_size + names_size);
  memcpy (map->names + map->names_size, p, names_size);
  map->names_size += names_size;
  return words;
}

int
lean_map_parse (const unsigned char *data, size_t size,
		struct lean_map *map, struct lp_err *err)
{
  memset (map, 0, sizeof *map);
  if (size % 8)
    {
      lp_seterr (err, "map section is %zu bytes, not a multiple of 8", size);
      return -1;
    }
  size_t size8 = size / 8;
  size_t chunks = 0;
  for (size_t w = 0; w < size8;)
    {
      if (le_read_u64 (data + w * 8) == 0)
	{
	  w++;
	  continue;
	}
      size_t n = parse_chunk (data, size8, w, map, err);
      if (n == 0)
	{
	  lean_map_free (map);
	  return -1;
	}
      w += n;
      chunks++;
    }
  if (chunks == 0)
    {
      lp_seterr (err, "map section holds no chunk");
      return -1;
    }
  return 0;
}
