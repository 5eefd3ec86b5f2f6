/* anchors-read.c: the checks and accessors of CFG anchor records
   (anchors.h).  Neither allocates nor prints, as indexed-read.c: the
   plugin and the tools share it, and the fuzz harness
   fuzz/anchors.c drives it.  */

#include <string.h>

#include "anchors.h"
#include "le.h"

int
anchors_file_p (const unsigned char *buf, size_t size)
{
  return size >= ANCHORS_FILE_MAGIC_LEN
	 && memcmp (buf, ANCHORS_FILE_MAGIC, ANCHORS_FILE_MAGIC_LEN) == 0;
}

void
anchors_get_block (const struct anchors_record *rec, uint32_t i,
		   struct anchors_block *out)
{
  const unsigned char *p = rec->blocks + (size_t) i * ANCHORS_BLOCK_SIZE;
  out->line = (int32_t) le_read_u32 (p);
  out->loop_depth = le_read_u32 (p + 4);
  out->shape = le_read_u64 (p + 8);
  out->calls = le_read_u64 (p + 16);
}

void
anchors_get_edge (const struct anchors_record *rec, uint32_t i,
		  struct anchors_edge *out)
{
  const unsigned char *p = rec->edges + (size_t) i * ANCHORS_EDGE_SIZE;
  out->src = le_read_u32 (p);
  out->dst = le_read_u32 (p + 4);
  out->counter = (int32_t) le_read_u32 (p + 8);
}

void
anchors_get_site (const struct anchors_record *rec, uint32_t i,
		  struct anchors_site *out)
{
  const unsigned char *p = rec->sites + (size_t) i * ANCHORS_SITE_SIZE;
  out->block = le_read_u32 (p);
  out->num_counters = le_read_u32 (p + 4);
  out->key = le_read_u64 (p + 8);
}

uint32_t
anchors_num_counters (const struct anchors_record *rec)
{
  uint32_t n = 0;
  for (uint32_t i = 0; i < rec->num_edges; i++)
    {
      struct anchors_edge e;
      anchors_get_edge (rec, i, &e);
      if (e.counter >= 0)
	n++;
    }
  return n;
}

int
anchors_next (const unsigned char *buf, size_t size, size_t off,
	      struct anchors_record *rec, struct lp_err *err)
{
  if (off == size)
    return 0;
  if (off > size || size - off < ANCHORS_HEADER_SIZE)
    {
      lp_seterr (err, "anchors record at offset %zu is truncated", off);
      return -1;
    }
  const unsigned char *p = buf + off;
  if (le_read_u32 (p) != ANCHORS_RECORD_MAGIC)
    {
      lp_seterr (err, "no anchors record at offset %zu (bad magic)", off);
      return -1;
    }
  if (le_read_u32 (p + 4) != ANCHORS_VERSION)
    {
      lp_seterr (err, "anchors record at offset %zu has version %u, "
		 "expected %u", off, le_read_u32 (p + 4), ANCHORS_VERSION);
      return -1;
    }
  rec->name_md5 = le_read_u64 (p + 8);
  rec->hash = le_read_u64 (p + 16);
  rec->hash_plain = le_read_u64 (p + 24);
  rec->num_blocks = le_read_u32 (p + 32);
  rec->num_edges = le_read_u32 (p + 36);
  rec->num_sites = le_read_u32 (p + 40);
  if (rec->num_blocks < 2 || rec->num_blocks > ANCHORS_MAX_BLOCKS
      || rec->num_edges < 1 || rec->num_edges > 8 * ANCHORS_MAX_BLOCKS
      || rec->num_sites > 8 * ANCHORS_MAX_BLOCKS)
    {
      lp_seterr (err, "anchors record at offset %zu has %u blocks, %u "
		 "edges and %u value sites", off, rec->num_blocks,
		 rec->num_edges, rec->num_sites);
      return -1;
    }
  uint64_t body = (uint64_t) rec->num_blocks * ANCHORS_BLOCK_SIZE
		  + (uint64_t) rec->num_edges * ANCHORS_EDGE_SIZE
		  + (uint64_t) rec->num_sites * ANCHORS_SITE_SIZE;
  if (body > size - off - ANCHORS_HEADER_SIZE)
    {
      lp_seterr (err, "anchors record at offset %zu is truncated", off);
      return -1;
    }
  rec->blocks = p + ANCHORS_HEADER_SIZE;
  rec->edges = rec->blocks + (size_t) rec->num_blocks * ANCHORS_BLOCK_SIZE;
  rec->sites = rec->edges + (size_t) rec->num_edges * ANCHORS_EDGE_SIZE;
  rec->size = ANCHORS_HEADER_SIZE + (size_t) body;

  /* Counters are numbered in edge order (plugin/cfg-graph.cc), which
     makes "each index once" checkable without memory.  */
  int32_t next_counter = 0;
  for (uint32_t i = 0; i < rec->num_edges; i++)
    {
      struct anchors_edge e;
      anchors_get_edge (rec, i, &e);
      if (e.src >= rec->num_blocks || e.dst >= rec->num_blocks)
	{
	  lp_seterr (err, "anchors record at offset %zu: edge %u joins "
		     "blocks %u and %u of %u", off, i, e.src, e.dst,
		     rec->num_blocks);
	  return -1;
	}
      if (i == 0 && (e.src != 1 || e.dst != 0 || e.counter != ANCHORS_ON_TREE))
	{
	  lp_seterr (err, "anchors record at offset %zu: edge 0 is not the "
		     "virtual EXIT->ENTRY edge", off);
	  return -1;
	}
      if (e.counter >= 0 ? e.counter != next_counter++
	  : e.counter != ANCHORS_ON_TREE && e.counter != ANCHORS_IGNORED)
	{
	  lp_seterr (err, "anchors record at offset %zu: edge %u has "
		     "counter %d", off, i, e.counter);
	  return -1;
	}
    }
  for (uint32_t i = 0; i < rec->num_sites; i++)
    {
      struct anchors_site s;
      anchors_get_site (rec, i, &s);
      if (s.block >= rec->num_blocks
	  || s.num_counters > ANCHORS_MAX_SITE_COUNTERS)
	{
	  lp_seterr (err, "anchors record at offset %zu: value site %u in "
		     "block %u of %u with %u counters", off, i, s.block,
		     rec->num_blocks, s.num_counters);
	  return -1;
	}
    }
  return 1;
}
