/* anchors.h: the CFG anchors a generate build records for each
   instrumented function, so that a use build can map the counters of
   a function that changed since training onto its new CFG
   (doc/stale-salvage.md).  One definition for the plugin, which writes
   them (plugin/anchors.cc) and reads them (plugin/salvage.cc), and the
   tools, which collect them from training binaries
   (latepgo-profdata merge --binary).

   Nothing here is loaded at run time: the generate build puts the
   records in the non-allocated section ANCHORS_SECTION of its objects,
   which the link concatenates; latepgo-profdata writes the records of
   the binaries it is given to an anchors file beside the indexed
   profile (OUTPUT.anchors), which stays exactly what llvm-profdata
   reads.

   A record, all fields little-endian, no padding:
     u32 magic ANCHORS_RECORD_MAGIC, u32 version ANCHORS_VERSION,
     u64 name_md5 (MD5 low 64 of the profile name: the indexed
     profile's key), u64 hash (the record's FuncHash with value
     counters), u64 hash_plain (without them: a no-values profile),
     u32 num_blocks, u32 num_edges, u32 num_sites,
     num_blocks blocks of ANCHORS_BLOCK_SIZE bytes:
       s32 line (of the block's first statement, relative to the
	   function's first line; inlined code counts at its call site;
	   ANCHORS_NO_LINE when no statement has one),
       u32 loop_depth,
       u64 shape (hash of the block's statements: codes, operators,
	   integer constants, callees; the same for equal statements at
	   other lines),
       u64 calls (hash of the names the block calls in order; 0: none),
     num_edges edges of ANCHORS_EDGE_SIZE bytes:
       u32 src, u32 dst (block indices: ENTRY 0, EXIT 1),
       s32 counter (the edge counter's index in the record, or
	   ANCHORS_ON_TREE, or ANCHORS_IGNORED),
     num_sites value sites of ANCHORS_SITE_SIZE bytes, in counter order
     (their counters follow the edge counters in the record):
       u32 block, u32 num_counters,
       u64 key (hash of the kind, the number of counters and, for an
	   indirect call, the candidate targets in counter order).
   Edge 0 is the virtual EXIT->ENTRY edge, on the tree.
   An anchors file is ANCHORS_FILE_MAGIC followed by records.  */

#ifndef LATEPGO_ANCHORS_H
#define LATEPGO_ANCHORS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANCHORS_SECTION ".latepgo_anchors"
#define ANCHORS_FILE_MAGIC "LPANCHR1"
#define ANCHORS_FILE_MAGIC_LEN 8
#define ANCHORS_RECORD_MAGIC 0x4e41504cu	/* "LPAN" */
#define ANCHORS_VERSION 1u
#define ANCHORS_HEADER_SIZE 44
#define ANCHORS_BLOCK_SIZE 24
#define ANCHORS_EDGE_SIZE 12
#define ANCHORS_SITE_SIZE 16
/* No value site has more (memop buckets).  */
#define ANCHORS_MAX_SITE_COUNTERS 256
#define ANCHORS_NO_LINE INT32_MIN
#define ANCHORS_ON_TREE (-1)
#define ANCHORS_IGNORED (-2)
/* More would not be a function GCC compiled.  */
#define ANCHORS_MAX_BLOCKS (1u << 24)

/* One record, checked by anchors_next, pointing into the buffer.  */
struct anchors_record
{
  uint64_t name_md5, hash, hash_plain;
  uint32_t num_blocks, num_edges, num_sites;
  const unsigned char *blocks;	/* num_blocks * ANCHORS_BLOCK_SIZE.  */
  const unsigned char *edges;	/* num_edges * ANCHORS_EDGE_SIZE.  */
  const unsigned char *sites;	/* num_sites * ANCHORS_SITE_SIZE.  */
  size_t size;			/* Of the whole record.  */
};

struct anchors_block
{
  int32_t line;
  uint32_t loop_depth;
  uint64_t shape, calls;
};

struct anchors_edge
{
  uint32_t src, dst;
  int32_t counter;
};

struct anchors_site
{
  uint32_t block, num_counters;
  uint64_t key;
};

/* Check the record at OFF in the SIZE bytes at BUF and fill *REC.
   Returns 1 for a record, 0 at the end (OFF == SIZE), -1 with a
   message in ERR for a malformed one (bad magic or version, truncated,
   an edge's block out of range, a counter index out of range or used
   twice, an edge 0 that is not EXIT->ENTRY, a value site outside the
   blocks or with more than ANCHORS_MAX_SITE_COUNTERS counters; an
   indirect call has 0, its targets being value data).  */
int anchors_next (const unsigned char *buf, size_t size, size_t off,
		  struct anchors_record *rec, struct lp_err *err);

/* Block or edge I of a checked record.  */
void anchors_get_block (const struct anchors_record *rec, uint32_t i,
			struct anchors_block *out);
void anchors_get_edge (const struct anchors_record *rec, uint32_t i,
		       struct anchors_edge *out);
void anchors_get_site (const struct anchors_record *rec, uint32_t i,
		       struct anchors_site *out);

/* The number of counter edges of REC (the edge counters its profile
   record starts with).  */
uint32_t anchors_num_counters (const struct anchors_record *rec);

/* Whether the SIZE bytes at BUF start an anchors file; its records
   then start at ANCHORS_FILE_MAGIC_LEN.  */
int anchors_file_p (const unsigned char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_ANCHORS_H */
