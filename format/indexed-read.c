/* indexed-read.c: the parser of indexed instrumentation profiles,
   versions 4 to 7 (doc/indexed-format.md); interface in
   indexed-read.h.  It iterates the hash-table payload as llvm-profdata
   does, and additionally checks the bucket table and every key hash so
   that a file that would break compiler look-ups is rejected.  */

#include "indexed-read.h"
#include "indexed-format.h"
#include "le.h"
#include "md5.h"
#include "profile.h"

#include <inttypes.h>
#include <string.h>

/* Skip the summary at *POS (doc/indexed-format.md section 3); store
   where its fields start in *FIELDS, how many in *NFIELDS and how many
   cutoff entries follow them in *NENTRIES.  */
static int
skip_summary (const unsigned char *buf, size_t size, size_t *pos,
	      const char *which, const unsigned char **fields,
	      uint64_t *nfields, uint64_t *nentries_out, struct lp_err *err)
{
  uint64_t nentries, words;

  if (size - *pos < 16)
    goto bad;
  *nfields = le_read_u64 (buf + *pos);
  nentries = le_read_u64 (buf + *pos + 8);
  if (*nfields > (1 << 20) || nentries > (1 << 20))
    goto bad;
  words = 2 + *nfields + 3 * nentries;
  if (words > (size - *pos) / 8)
    goto bad;
  *fields = buf + *pos + 16;
  *nentries_out = nentries;
  *pos += words * 8;
  return 0;

bad:
  lp_seterr (err, "%s profile summary is corrupt or truncated", which);
  return -1;
}

int
lp_indexed_header_variant (const unsigned char *buf, size_t size,
			   uint64_t *variant)
{
  if (size < 16 || le_read_u64 (buf) != LATEPGO_INDEXED_MAGIC)
    return -1;
  *variant = le_read_u64 (buf + 8) & LATEPGO_VARIANT_MASK;
  return 0;
}

enum lp_indexed_status
lp_indexed_open (struct lp_indexed *idx, const unsigned char *buf,
		 size_t size, struct lp_err *err)
{
  uint64_t version, hash_type, cs_fields, cs_entries;
  const unsigned char *cs_summary;
  size_t pos;

  memset (idx, 0, sizeof *idx);
  idx->buf = buf;
  idx->size = size;
  if (size >= 8)
    {
      uint64_t magic = le_read_u64 (buf);
      if (magic == LATEPGO_RAW_MAGIC_64 || magic == LATEPGO_RAW_MAGIC_32)
	{
	  lp_seterr (err, "is a raw profile");
	  return LP_INDEXED_RAW;
	}
      if (magic != LATEPGO_INDEXED_MAGIC)
	{
	  lp_seterr (err, "not an indexed profile (bad magic)");
	  return LP_INDEXED_BAD_MAGIC;
	}
    }
  if (size == 0)
    {
      lp_seterr (err, "file is empty");
      return LP_INDEXED_BAD_HEADER;
    }
  if (size < 40)
    {
      lp_seterr (err, "file header is corrupt: %zu bytes, an indexed "
		 "profile header needs 40", size);
      return LP_INDEXED_BAD_HEADER;
    }
  lp_indexed_header_variant (buf, size, &idx->variant);
  version = le_read_u64 (buf + 8) & ~LATEPGO_VARIANT_MASK;
  if (version < 4 || version > LATEPGO_INDEXED_VERSION)
    {
      lp_seterr (err, "unsupported instrumentation profile format version %"
		 PRIu64 " (indexed profiles of versions 4 to 7 are "
		 "supported)", version);
      return LP_INDEXED_BAD_HEADER;
    }
  hash_type = le_read_u64 (buf + 24);
  if (hash_type != 0)
    {
      lp_seterr (err, "unsupported instrumentation profile hash type %"
		 PRIu64, hash_type);
      return LP_INDEXED_BAD_HEADER;
    }
  idx->hash_offset = le_read_u64 (buf + 32);

  pos = 40;
  if (skip_summary (buf, size, &pos, "the", &idx->summary,
		    &idx->summary_fields, &idx->summary_entries, err) < 0)
    return LP_INDEXED_BAD_SUMMARY;
  if ((idx->variant & LATEPGO_VARIANT_CSIR)
      && skip_summary (buf, size, &pos, "the context-sensitive", &cs_summary,
		       &cs_fields, &cs_entries, err) < 0)
    return LP_INDEXED_BAD_SUMMARY;
  idx->payload = pos;

  /* The bucket table.  */
  if (idx->hash_offset < idx->payload || idx->hash_offset > size
      || size - idx->hash_offset < 16 || idx->hash_offset % 8)
    {
      lp_seterr (err, "hash table offset %" PRIu64 " is out of range (file "
		 "size %zu)", idx->hash_offset, size);
      return LP_INDEXED_BAD_HASH_OFFSET;
    }
  idx->num_buckets = le_read_u64 (buf + idx->hash_offset);
  idx->num_entries = le_read_u64 (buf + idx->hash_offset + 8);
  if (idx->num_buckets == 0 || (idx->num_buckets & (idx->num_buckets - 1))
      || idx->num_buckets > (size - idx->hash_offset - 16) / 8)
    {
      lp_seterr (err, "hash table is corrupt: %" PRIu64 " buckets do not "
		 "fit in the file or are not a power of two",
		 idx->num_buckets);
      return LP_INDEXED_BAD_TABLE;
    }
  return LP_INDEXED_OK;
}

uint64_t
lp_indexed_summary_field (const struct lp_indexed *idx, unsigned i)
{
  return i < idx->summary_fields ? le_read_u64 (idx->summary + 8 * i) : 0;
}

uint64_t
lp_indexed_summary_min_count (const struct lp_indexed *idx, uint64_t cutoff)
{
  const unsigned char *entry = idx->summary + 8 * idx->summary_fields;

  /* Entries are Cutoff, MinCount, NumCounts; skip_summary checked that
     they are in the file.  */
  for (uint64_t i = 0; i < idx->summary_entries; i++, entry += 24)
    if (le_read_u64 (entry) == cutoff)
      return le_read_u64 (entry + 8);
  return 0;
}

/* Walk the value data at *PP, which must end by END: check it, and
   call KIND_FN (if not NULL) on each kind.  Leave *PP after it.  */
static int
walk_values (const unsigned char **pp, const unsigned char *end,
	     lp_indexed_kind_fn kind_fn, void *ctx)
{
  const unsigned char *p = *pp, *vend;
  uint32_t total, nkinds;

  if (end - p < 8)
    return -1;
  total = le_read_u32 (p);
  nkinds = le_read_u32 (p + 4);
  if (total < 8 || total % 8 || total > (size_t) (end - p)
      || nkinds > LP_NUM_VALUE_KINDS)
    return -1;
  vend = p + total;
  p += 8;
  for (uint32_t k = 0; k < nkinds; k++)
    {
      uint32_t kind, nsites;
      uint64_t hdr, nvalues = 0;
      if (vend - p < 8)
	return -1;
      kind = le_read_u32 (p);
      nsites = le_read_u32 (p + 4);
      if (kind >= LP_NUM_VALUE_KINDS)
	return -1;
      hdr = (8 + (uint64_t) nsites + 7) & ~(uint64_t) 7;
      if (hdr > (uint64_t) (vend - p))
	return -1;
      for (uint32_t s = 0; s < nsites; s++)
	nvalues += p[8 + s];
      if (nvalues * 16 > (uint64_t) (vend - p) - hdr)
	return -1;
      if (kind_fn)
	kind_fn (ctx, kind, nsites, p + 8, p + hdr);
      p += hdr + nvalues * 16;
    }
  *pp = vend;
  return 0;
}

void
lp_indexed_values (const struct lp_indexed_record *rec,
		   lp_indexed_kind_fn kind_fn, void *ctx)
{
  const unsigned char *p = rec->values;
  walk_values (&p, p + rec->values_size, kind_fn, ctx);
}

/* Check that every bucket offset of IDX lies in the payload.  */
static enum lp_indexed_status
check_buckets (const struct lp_indexed *idx, struct lp_err *err)
{
  for (uint64_t b = 0; b < idx->num_buckets; b++)
    {
      uint64_t bo = le_read_u64 (idx->buf + idx->hash_offset + 16 + 8 * b);
      if (bo != 0 && (bo < idx->payload || bo + 2 > idx->hash_offset))
	{
	  lp_seterr (err, "hash table is corrupt: bucket %" PRIu64
		     " offset %" PRIu64 " is out of range", b, bo);
	  return LP_INDEXED_BAD_TABLE;
	}
    }
  return LP_INDEXED_OK;
}

/* Check that KEY's hash KEY_HASH is its MD5 and that its bucket is the
   one at BUCKET_OFF.  */
static enum lp_indexed_status
check_key (const struct lp_indexed *idx, const unsigned char *key,
	   uint64_t key_len, uint64_t key_hash, size_t bucket_off,
	   struct lp_err *err)
{
  uint64_t h = lp_md5low64 (key, key_len);
  int shown = key_len > 200 ? 200 : (int) key_len;

  if (h != key_hash)
    {
      lp_seterr (err, "hash table is corrupt: key hash %016" PRIx64 " of '%.*s' "
		 "is not its MD5", key_hash, shown, key);
      return LP_INDEXED_BAD_TABLE;
    }
  if (le_read_u64 (idx->buf + idx->hash_offset + 16
		   + 8 * (h & (idx->num_buckets - 1))) != bucket_off)
    {
      lp_seterr (err, "hash table is corrupt: '%.*s' is not reachable "
		 "through its bucket", shown, key);
      return LP_INDEXED_BAD_TABLE;
    }
  return LP_INDEXED_OK;
}

/* Check the DATA_LEN bytes of records at D of the key in REC, handing
   each to RECORD_FN.  */
static int
walk_records (struct lp_indexed_record *rec, const unsigned char *d,
	      uint64_t data_len, lp_indexed_record_fn record_fn, void *ctx)
{
  const unsigned char *dend = d + data_len;

  if (data_len % 8 || data_len == 0)
    return -1;
  while (d < dend)
    {
      uint64_t n;
      if (dend - d < 16)
	return -1;
      rec->hash = le_read_u64 (d);
      n = le_read_u64 (d + 8);
      d += 16;
      if (n == 0 || n > UINT32_MAX || n > (uint64_t) (dend - d) / 8)
	return -1;
      rec->num_counts = n;
      rec->counts = d;
      d += 8 * n;
      rec->values = d;
      if (walk_values (&d, dend, NULL, NULL) < 0)
	return -1;
      rec->values_size = d - rec->values;
      if (record_fn)
	record_fn (ctx, rec);
    }
  return 0;
}

enum lp_indexed_status
lp_indexed_walk (const struct lp_indexed *idx, lp_indexed_record_fn record_fn,
		 void *ctx, struct lp_err *err)
{
  const unsigned char *p = idx->buf + idx->payload;
  const unsigned char *end = idx->buf + idx->hash_offset;
  uint64_t seen = 0;
  enum lp_indexed_status st = check_buckets (idx, err);

  /* The payload: buckets of items, until NumEntries items are read.  */
  while (st == LP_INDEXED_OK && seen < idx->num_entries)
    {
      unsigned nitems;
      size_t bucket_off = p - idx->buf;
      if (end - p < 2)
	{
	  lp_seterr (err, "hash table is corrupt: %" PRIu64 " entries "
		     "announced, data ends after %" PRIu64, idx->num_entries,
		     seen);
	  return LP_INDEXED_BAD_TABLE;
	}
      nitems = p[0] | p[1] << 8;
      p += 2;
      for (unsigned it = 0; it < nitems && seen < idx->num_entries;
	   it++, seen++)
	{
	  struct lp_indexed_record rec;
	  uint64_t key_len, data_len;
	  if (end - p < 24)
	    goto truncated;
	  memset (&rec, 0, sizeof rec);
	  rec.name_md5 = le_read_u64 (p);
	  key_len = le_read_u64 (p + 8);
	  data_len = le_read_u64 (p + 16);
	  p += 24;
	  if (key_len > (uint64_t) (end - p)
	      || data_len > (uint64_t) (end - p) - key_len)
	    goto truncated;
	  st = check_key (idx, p, key_len, rec.name_md5, bucket_off, err);
	  if (st != LP_INDEXED_OK)
	    return st;
	  rec.name = (const char *) p;
	  rec.name_len = key_len;
	  if (walk_records (&rec, p + key_len, data_len, record_fn, ctx) < 0)
	    {
	      lp_seterr (err, "malformed instrumentation profile data: a "
			 "record of the hash table is inconsistent");
	      return LP_INDEXED_BAD_TABLE;
	    }
	  p += key_len + data_len;
	}
      if (nitems == 0)
	{
	  lp_seterr (err, "hash table is corrupt: empty bucket in the "
		     "payload at offset %zu", bucket_off);
	  return LP_INDEXED_BAD_TABLE;
	}
    }
  return st;

truncated:
  lp_seterr (err, "hash table is corrupt: an item runs past the bucket "
	     "table");
  return LP_INDEXED_BAD_TABLE;
}
