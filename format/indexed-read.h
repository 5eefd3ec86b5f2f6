/* indexed-read.h: the one parser of indexed instrumentation profiles,
   versions 4 to 7 (doc/indexed-format.md), shared by the tools
   (indexed-sink.c) and the plugin (plugin/profile-read.cc).

   It neither allocates nor prints: it works on the file's bytes in
   memory, hands out each record pointing into them, and on bad input
   returns a status with a message in a struct lp_err.  */

#ifndef LATEPGO_INDEXED_READ_H
#define LATEPGO_INDEXED_READ_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is wrong with a file; callers that word some cases their own
   way (the plugin) tell them apart by it.  */
enum lp_indexed_status
{
  LP_INDEXED_OK = 0,
  LP_INDEXED_RAW,		/* A raw profile's magic.  */
  LP_INDEXED_BAD_MAGIC,		/* Neither an indexed nor a raw profile.  */
  LP_INDEXED_BAD_HEADER,	/* Too short, or unsupported version or
				   hash type.  */
  LP_INDEXED_BAD_SUMMARY,
  LP_INDEXED_BAD_HASH_OFFSET,	/* The bucket table is not in the file.  */
  LP_INDEXED_BAD_TABLE		/* Bucket table, keys or records.  */
};

/* An indexed profile whose header lp_indexed_open has checked.  */
struct lp_indexed
{
  const unsigned char *buf;
  size_t size;
  uint64_t variant;		/* Variant bits (bits 56-63).  */
  const unsigned char *summary;	/* The first summary's fields ...  */
  uint64_t summary_fields;	/* ... and how many there are;  */
  uint64_t summary_entries;	/* its cutoff entries follow them.  */
  size_t payload;		/* Offset of the first bucket's items.  */
  uint64_t hash_offset;		/* Offset of the bucket table.  */
  uint64_t num_buckets;
  uint64_t num_entries;
};

/* One record as lp_indexed_walk hands it out, pointing into the
   file.  */
struct lp_indexed_record
{
  const char *name;		/* Not NUL-terminated.  */
  size_t name_len;
  uint64_t name_md5;		/* The key hash, checked: MD5LOW64 (NAME).  */
  uint64_t hash;		/* FuncHash.  */
  uint32_t num_counts;		/* >= 1.  */
  const unsigned char *counts;	/* NUM_COUNTS little-endian u64s.  */
  const unsigned char *values;	/* The value data (doc/indexed-format.md
				   section 5), checked ...  */
  size_t values_size;		/* ... and its TotalSize.  */
};

/* The variant bits (bits 56-63 of the version) of the indexed profile
   whose first SIZE bytes are at BUF: its header's first 16 are enough,
   so a caller can tell a coverage profile before it reads the file.
   Return 0 with *VARIANT set, or -1 when BUF does not start as an
   indexed profile.  */
int lp_indexed_header_variant (const unsigned char *buf, size_t size,
			       uint64_t *variant);

/* Check the header, summaries and bucket table of the SIZE bytes at
   BUF and describe them in *IDX.  */
enum lp_indexed_status lp_indexed_open (struct lp_indexed *idx,
					const unsigned char *buf, size_t size,
					struct lp_err *err);

/* Field I of the first summary (0 functions, 1 blocks, 2 max function
   count, 3 max block count, ...), or 0 if the file has fewer.  */
uint64_t lp_indexed_summary_field (const struct lp_indexed *idx,
				   unsigned i);

/* The MinCount of the first summary's entry for CUTOFF (parts per
   million of the counts' sum, doc/indexed-format.md section 3): the
   smallest count among the largest counts that make up that share of
   the sum; 0 if the file has no such entry.  */
uint64_t lp_indexed_summary_min_count (const struct lp_indexed *idx,
				       uint64_t cutoff);

/* Check every bucket offset, key hash and record of the opened IDX,
   calling RECORD_FN (if not NULL) on each record in file order.  A
   record is handed out once it is checked, so the calls made before a
   failure are of good records.  */
typedef void (*lp_indexed_record_fn) (void *ctx,
				      const struct lp_indexed_record *rec);
enum lp_indexed_status lp_indexed_walk (const struct lp_indexed *idx,
					lp_indexed_record_fn record_fn,
					void *ctx, struct lp_err *err);

/* Call KIND_FN on each value kind of the value data of REC, checked by
   lp_indexed_walk: KIND, its NUM_SITES, the values per site
   (NUM_SITES bytes) and the (value, count) pairs of all sites, each
   two little-endian u64s.  */
typedef void (*lp_indexed_kind_fn) (void *ctx, uint32_t kind,
				    uint32_t num_sites,
				    const unsigned char *site_values,
				    const unsigned char *pairs);
void lp_indexed_values (const struct lp_indexed_record *rec,
			lp_indexed_kind_fn kind_fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_INDEXED_READ_H */
