/* profile.h: the in-memory profile model of the latepgo tools and the
   interfaces of format/'s readers and writers.

   The formats themselves are described in doc/raw-format.md (raw v8,
   names and hashes) and doc/indexed-format.md (indexed v7 and text);
   each reader or writer file names the section it follows.  */

#ifndef LATEPGO_PROFILE_H
#define LATEPGO_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "raw-format.h"

/* Value kinds: 0 = indirect-call target, 1 = mem-op size.  */
#define LP_NUM_VALUE_KINDS 2
#define LP_VK_INDIRECT_CALL 0
#define LP_VK_MEMOP 1

/* LLVM keeps at most this many values per site (u8 site counts).  */
#define LP_MAX_VALUES_PER_SITE 255

/* FuncHash bit 60 marks a context-sensitive record.  */
#define LP_CS_HASH_BIT (1ULL << 60)

/* Text name of an indirect-call target hash with no known name.  */
#define LP_EXTERNAL_SYMBOL "** External Symbol **"

/* One profiled value and how often it was seen.  */
struct lp_value
{
  uint64_t value;
  uint64_t count;
};

/* The values of one value site, sorted by increasing VALUE, no
   duplicates.  */
struct lp_site
{
  uint32_t num;
  uint32_t cap;
  struct lp_value *values;
};

/* A record as a reader hands it over.  Everything points into
   reader-owned memory valid only during the sink call; COUNTS are in
   host byte order; each site's values are sorted and merged as in
   struct lp_site.  */
struct lp_record_in
{
  const char *name;
  size_t name_len;
  uint64_t name_md5;            /* MD5LOW64 (NAME).  */
  uint64_t hash;                /* FuncHash.  */
  uint32_t num_counts;          /* >= 1.  */
  const uint64_t *counts;
  uint32_t num_sites[LP_NUM_VALUE_KINDS];
  const struct lp_site *sites[LP_NUM_VALUE_KINDS];
};

/* A record owned by a store.  NAME is stored right after COUNTS in the
   same allocation.  */
struct lp_record
{
  struct lp_record *chain;      /* Next record in the same hash bucket.  */
  const char *name;
  uint32_t name_len;
  uint32_t num_counts;
  uint64_t name_md5;
  uint64_t hash;
  uint32_t num_sites[LP_NUM_VALUE_KINDS];
  struct lp_site *sites[LP_NUM_VALUE_KINDS];
  uint64_t counts[];
};

/* ---- prof-value.c ---- */

/* Insert (VALUE, COUNT) into SITE, adding COUNT (saturating) to an
   existing entry with the same value.  */
void lp_site_add (struct lp_site *site, uint64_t value, uint64_t count);

/* Merge SRC into DST, multiplying SRC's counts by WEIGHT.  Returns
   nonzero if a count saturated.  */
int lp_site_merge (struct lp_site *dst, const struct lp_site *src,
		   uint64_t weight);

/* Store in *OUT, an array of *CAP entries grown as needed, the values
   of SITE ordered for output: decreasing count, ties by increasing
   value, at most LP_MAX_VALUES_PER_SITE of them.  Returns how many
   were stored.  */
uint32_t lp_site_for_output (const struct lp_site *site,
			     struct lp_value **out, size_t *cap);

/* Free the value sites of REC.  */
void lp_record_free_sites (struct lp_record *rec);

/* ---- prof-read.c and the format readers ---- */

enum lp_format
{
  LP_FORMAT_RAW,
  LP_FORMAT_INDEXED,
  LP_FORMAT_TEXT
};

/* Called once per record; returns 0.  */
typedef void (*lp_sink_fn) (void *ctx, const struct lp_record_in *rec);

/* An opened and fully validated input profile.  */
struct lp_profile
{
  const char *path;
  const unsigned char *data;    /* Whole file contents.  */
  size_t size;
  int mapped;                   /* DATA is an mmap, else malloc'd.  */
  enum lp_format format;
  uint64_t variant;             /* Variant bits (bits 56-63).  */
  size_t num_records;           /* Records the file holds.  */
  int lean_ok;                  /* Lean raw profiles pass validation.  */
};

/* Open PATH, detect its format and validate it completely.  Returns 0,
   or -1 with ERR set and nothing left open.  */
int lp_profile_open (struct lp_profile *prof, const char *path,
		     struct lp_err *err);

/* The same, but a lean raw profile (doc/lean.md), whose records are
   in the binary, passes too: for latepgo-profdata merge to join it
   with the binary's map (contrib/profdata/map-join.c) before reading
   it.  */
int lp_profile_open_lean (struct lp_profile *prof, const char *path,
			  struct lp_err *err);

/* Pass every record of the validated PROF to SINK.  */
void lp_profile_emit (struct lp_profile *prof, lp_sink_fn sink, void *ctx);

void lp_profile_close (struct lp_profile *prof);

/* Describe the variant bits V for messages ("IR", "front-end", ...).  */
const char *lp_variant_kind_name (uint64_t v);

/* Format-specific halves of lp_profile_open/emit.  Validation (SINK
   NULL) must succeed before a call with a sink; with a sink they
   cannot fail.  They return 0 or -1 with ERR set.  */
int lp_raw_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
		 struct lp_err *err);
int lp_indexed_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
		     struct lp_err *err);
int lp_text_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
		  struct lp_err *err);

/* Reader scratch for building value sites of one record.  */
struct lp_site_buf
{
  struct lp_site *kind[LP_NUM_VALUE_KINDS];
  uint32_t cap[LP_NUM_VALUE_KINDS];
};

/* Make room for N sites of KIND in BUF, all empty; return them.  */
struct lp_site *lp_site_buf_reset (struct lp_site_buf *buf, int kind,
				   uint32_t n);
void lp_site_buf_free (struct lp_site_buf *buf);

/* ---- prof-summary.c ---- */

#define LP_NUM_CUTOFFS 16
extern const uint32_t lp_default_cutoffs[LP_NUM_CUTOFFS];

struct lp_summary_entry
{
  uint64_t cutoff;
  uint64_t min_count;
  uint64_t num_blocks;
};

/* The profile summary of doc/indexed-format.md section 3.  */
struct lp_summary
{
  uint64_t num_functions;
  uint64_t num_blocks;
  uint64_t max_function_count;
  uint64_t max_block_count;
  uint64_t max_internal_count;
  uint64_t total_count;
  size_t num_entries;
  struct lp_summary_entry entries[LP_NUM_CUTOFFS];
};

/* Compute the summary of the NUM records RECS whose FuncHash CS bit
   equals CS, with the NUM_CUTOFFS increasing CUTOFFS (parts per
   million).  */
void lp_summary_compute (struct lp_summary *sum, struct lp_record **recs,
			 size_t num, int cs, const uint32_t *cutoffs,
			 size_t num_cutoffs);

/* Fill SUM's entries for the NUM_CUTOFFS CUTOFFS from the N counts
   ALL (sorted here, largest first), whose sum is SUM->total_count
   (also the sample profile summary, contrib/profdata/sample-ext-write.c).  */
void lp_summary_entries (struct lp_summary *sum, uint64_t *all,
			 size_t n, const uint32_t *cutoffs,
			 size_t num_cutoffs);

/* ---- indexed-write.c, text-write.c ---- */

/* Write the NUM sorted records RECS with variant bits VARIANT as an
   indexed v7 profile to OUT.  Returns 0 or -1 (errno set by stdio).  */
int lp_write_indexed (FILE *out, struct lp_record **recs, size_t num,
		      uint64_t variant);

/* Map from name MD5 to name, for printing indirect-call targets.  */
struct lp_symtab
{
  size_t mask;
  struct lp_record **slots;
};

void lp_symtab_init (struct lp_symtab *tab, struct lp_record **recs,
		     size_t num);
void lp_symtab_free (struct lp_symtab *tab);

/* The record whose name has MD5LOW64 MD5, or NULL.  */
const struct lp_record *lp_symtab_lookup (const struct lp_symtab *tab,
					  uint64_t md5);

/* Write the text-format header for VARIANT (if WITH_COMMENTS, with
   llvm-profdata's comment lines).  */
void lp_write_text_header (FILE *out, uint64_t variant, int with_comments);

/* Write one record in text format.  */
void lp_write_text_record (FILE *out, const struct lp_record *rec,
			   const struct lp_symtab *tab);

/* Whether NAME can be a record's name in a text profile and read
   back: not empty, not a comment, header or number line, no control
   character but tab.  */
int lp_text_name_ok (const char *name, size_t len);

/* Write the NUM sorted records RECS as a text profile, leaving out
   with a warning those whose name is not lp_text_name_ok.  Returns 0
   or -1.  */
int lp_write_text (FILE *out, struct lp_record **recs, size_t num,
		   uint64_t variant);

#endif /* LATEPGO_PROFILE_H */
