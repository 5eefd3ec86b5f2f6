/* indexed-read.c: reader for indexed instrumentation profiles,
   versions 4 to 7 (doc/indexed-format.md).  It iterates the
   hash-table payload as llvm-profdata does, and additionally checks
   the bucket table and every key hash so that a file that would break
   compiler look-ups is rejected.  */

#include "profile.h"
#include "indexed-format.h"
#include "le.h"
#include "md5.h"
#include "tool-util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct idx_reader
{
  const unsigned char *buf;
  size_t size;
  struct lp_site_buf sites;
  uint64_t *counts;
  size_t counts_cap;
};

/* Skip the summary at *POS (doc/indexed-format.md section 3).  */
static int
skip_summary (const struct idx_reader *r, size_t *pos, const char *which,
	      struct lp_err *err)
{
  uint64_t nfields, nentries, words;

  if (r->size - *pos < 16)
    goto bad;
  nfields = le_read_u64 (r->buf + *pos);
  nentries = le_read_u64 (r->buf + *pos + 8);
  if (nfields > (1 << 20) || nentries > (1 << 20))
    goto bad;
  words = 2 + nfields + 3 * nentries;
  if (words > (r->size - *pos) / 8)
    goto bad;
  *pos += words * 8;
  return 0;

bad:
  lp_seterr (err, "%s profile summary is corrupt or truncated", which);
  return -1;
}

/* Check (SINK NULL) or decode the value data of one record at *P,
   which must end by END.  */
static int
read_value_data (struct idx_reader *r, const unsigned char **pp,
		 const unsigned char *end, struct lp_record_in *in)
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
      const unsigned char *vals;
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
      vals = p + hdr;
      if (in)
	{
	  struct lp_site *sites = lp_site_buf_reset (&r->sites, kind, nsites);
	  for (uint32_t s = 0; s < nsites; s++)
	    for (unsigned v = 0; v < p[8 + s]; v++, vals += 16)
	      lp_site_add (&sites[s], le_read_u64 (vals), le_read_u64 (vals + 8));
	  in->num_sites[kind] = nsites;
	  in->sites[kind] = sites;
	}
      p += hdr + nvalues * 16;
    }
  *pp = vend;
  return 0;
}

int
lp_indexed_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
		 struct lp_err *err)
{
  struct idx_reader r;
  uint64_t version, hash_type, hash_offset, num_buckets, num_entries;
  size_t pos, payload;
  int ret = -1;

  memset (&r, 0, sizeof r);
  r.buf = prof->data;
  r.size = prof->size;
  prof->num_records = 0;

  if (r.size < 40)
    {
      lp_seterr (err, "file header is corrupt: %zu bytes, an indexed "
		 "profile header needs 40", r.size);
      return -1;
    }
  version = le_read_u64 (r.buf + 8);
  prof->variant = version & LATEPGO_VARIANT_MASK;
  version &= ~LATEPGO_VARIANT_MASK;
  if (version < 4 || version > LATEPGO_INDEXED_VERSION)
    {
      lp_seterr (err, "unsupported instrumentation profile format version %"
		 PRIu64 " (indexed profiles of versions 4 to 7 are "
		 "supported)", version);
      return -1;
    }
  hash_type = le_read_u64 (r.buf + 24);
  if (hash_type != 0)
    {
      lp_seterr (err, "unsupported instrumentation profile hash type %"
		 PRIu64, hash_type);
      return -1;
    }
  hash_offset = le_read_u64 (r.buf + 32);

  pos = 40;
  if (skip_summary (&r, &pos, "the", err) < 0)
    return -1;
  if ((prof->variant & LATEPGO_VARIANT_CSIR)
      && skip_summary (&r, &pos, "the context-sensitive", err) < 0)
    return -1;
  payload = pos;

  /* The bucket table.  */
  if (hash_offset < payload || hash_offset > r.size || r.size - hash_offset < 16
      || hash_offset % 8)
    {
      lp_seterr (err, "hash table offset %" PRIu64 " is out of range (file "
		 "size %zu)", hash_offset, r.size);
      return -1;
    }
  num_buckets = le_read_u64 (r.buf + hash_offset);
  num_entries = le_read_u64 (r.buf + hash_offset + 8);
  if (num_buckets == 0 || (num_buckets & (num_buckets - 1))
      || num_buckets > (r.size - hash_offset - 16) / 8)
    {
      lp_seterr (err, "hash table is corrupt: %" PRIu64 " buckets do not "
		 "fit in the file or are not a power of two", num_buckets);
      return -1;
    }
  if (!sink)
    for (uint64_t b = 0; b < num_buckets; b++)
      {
	uint64_t bo = le_read_u64 (r.buf + hash_offset + 16 + 8 * b);
	if (bo != 0 && (bo < payload || bo + 2 > hash_offset))
	  {
	    lp_seterr (err, "hash table is corrupt: bucket %" PRIu64
		       " offset %" PRIu64 " is out of range", b, bo);
	    return -1;
	  }
      }

  /* Iterate the payload: buckets of items.  */
  {
    const unsigned char *p = r.buf + payload, *end = r.buf + hash_offset;
    uint64_t seen = 0;

    while (seen < num_entries)
      {
	unsigned nitems;
	size_t bucket_off = p - r.buf;
	if (end - p < 2)
	  {
	    lp_seterr (err, "hash table is corrupt: %" PRIu64 " entries "
		       "announced, data ends after %" PRIu64, num_entries,
		       seen);
	    goto out;
	  }
	nitems = p[0] | p[1] << 8;
	p += 2;
	for (unsigned it = 0; it < nitems && seen < num_entries; it++, seen++)
	  {
	    uint64_t key_hash, key_len, data_len;
	    const unsigned char *key, *d, *dend;
	    if (end - p < 24)
	      goto truncated;
	    key_hash = le_read_u64 (p);
	    key_len = le_read_u64 (p + 8);
	    data_len = le_read_u64 (p + 16);
	    p += 24;
	    if (key_len > (uint64_t) (end - p)
		|| data_len > (uint64_t) (end - p) - key_len)
	      goto truncated;
	    key = p;
	    d = p + key_len;
	    dend = d + data_len;
	    p = dend;
	    if (!sink)
	      {
		uint64_t h = lp_md5low64 (key, key_len);
		uint64_t bo;
		if (h != key_hash)
		  {
		    lp_seterr (err, "hash table is corrupt: key hash %016"
			       PRIx64 " of '%.*s' is not its MD5", key_hash,
			       (int) (key_len > 200 ? 200 : key_len), key);
		    goto out;
		  }
		bo = le_read_u64 (r.buf + hash_offset + 16
			   + 8 * (h & (num_buckets - 1)));
		if (bo != bucket_off)
		  {
		    lp_seterr (err, "hash table is corrupt: '%.*s' is not "
			       "reachable through its bucket",
			       (int) (key_len > 200 ? 200 : key_len), key);
		    goto out;
		  }
	      }
	    if (data_len % 8 || data_len == 0)
	      goto malformed;
	    while (d < dend)
	      {
		struct lp_record_in in;
		uint64_t n;
		if (dend - d < 16)
		  goto malformed;
		memset (&in, 0, sizeof in);
		in.name = (const char *) key;
		in.name_len = key_len;
		in.name_md5 = key_hash;
		in.hash = le_read_u64 (d);
		n = le_read_u64 (d + 8);
		d += 16;
		if (n == 0 || n > UINT32_MAX || n > (uint64_t) (dend - d) / 8)
		  goto malformed;
		in.num_counts = n;
		if (sink)
		  {
		    if (n > r.counts_cap)
		      {
			r.counts_cap = n;
			r.counts = xrealloc (r.counts, n * 8);
		      }
		    for (uint64_t c = 0; c < n; c++)
		      r.counts[c] = le_read_u64 (d + 8 * c);
		    in.counts = r.counts;
		  }
		d += 8 * n;
		if (read_value_data (&r, &d, dend, sink ? &in : NULL) < 0)
		  goto malformed;
		prof->num_records++;
		if (sink)
		  sink (ctx, &in);
	      }
	  }
	if (nitems == 0)
	  {
	    lp_seterr (err, "hash table is corrupt: empty bucket in the "
		       "payload at offset %zu", bucket_off);
	    goto out;
	  }
      }
  }
  ret = 0;
  goto out;

truncated:
  lp_seterr (err, "hash table is corrupt: an item runs past the bucket "
	     "table");
  goto out;
malformed:
  lp_seterr (err, "malformed instrumentation profile data: a record of the "
	     "hash table is inconsistent");
out:
  lp_site_buf_free (&r.sites);
  free (r.counts);
  return ret;
}
