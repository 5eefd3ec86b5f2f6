/* indexed-write.c: writer for the indexed profile format, version 7
   (doc/indexed-format.md sections 1-5):

     header      Magic, Version|variant, 0, HashType 0, HashOffset
     summary     6 fields + 16 cutoff entries (twice if CSIR)
     payload     per non-empty bucket, in bucket order:
		   u16 ItemCount, then per item:
		   u64 KeyHash, u64 KeyLen, u64 DataLen, key bytes, and
		   per record: u64 FuncHash, u64 N, u64 Counts[N],
		   ValueProfData (08 00 00 00 00 00 00 00 when empty)
     padding     zeros to 8 bytes
     HashOffset: u64 NumBuckets, u64 NumEntries, u64 BucketOffset[]

   Everything little-endian.  One item per distinct name; records of a
   name in increasing FuncHash order; items of a bucket in name order,
   so the output depends only on the records, not on input order.  */

#include "profile.h"
#include "indexed-format.h"
#include "le.h"
#include "tool-util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One hash-table item: the records [FIRST, FIRST+NUM) share a name.  */
struct item
{
  size_t first, num;
  uint64_t bucket;
  uint64_t data_len;
};

static void
put64 (FILE *out, uint64_t v)
{
  unsigned char b[8];
  le_write_u64 (b, v);
  fwrite (b, 1, 8, out);
}

static void
put32 (FILE *out, uint32_t v)
{
  unsigned char b[4];
  le_write_u32 (b, v);
  fwrite (b, 1, 4, out);
}

/* Size of the ValueProfData block of R (doc/raw-format.md section 8).  */
static uint64_t
value_data_size (const struct lp_record *r)
{
  uint64_t size = 8;
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      uint32_t ns = r->num_sites[k];
      if (!ns)
	continue;
      size += (8 + (uint64_t) ns + 7) & ~(uint64_t) 7;
      for (uint32_t s = 0; s < ns; s++)
	{
	  uint32_t n = r->sites[k][s].num;
	  size += 16 * (uint64_t) (n > LP_MAX_VALUES_PER_SITE
				   ? LP_MAX_VALUES_PER_SITE : n);
	}
    }
  return size;
}

static void
write_value_data (FILE *out, const struct lp_record *r, uint64_t size)
{
  uint32_t nkinds = 0;
  struct lp_value *buf = NULL;
  size_t buf_cap = 0;

  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    nkinds += r->num_sites[k] != 0;
  put32 (out, (uint32_t) size);
  put32 (out, nkinds);
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      uint32_t ns = r->num_sites[k];
      size_t pad;
      if (!ns)
	continue;
      put32 (out, k);
      put32 (out, ns);
      for (uint32_t s = 0; s < ns; s++)
	{
	  uint32_t n = r->sites[k][s].num;
	  fputc (n > LP_MAX_VALUES_PER_SITE ? LP_MAX_VALUES_PER_SITE : n, out);
	}
      pad = (8 - (8 + ns) % 8) % 8;
      for (size_t i = 0; i < pad; i++)
	fputc (0, out);
      for (uint32_t s = 0; s < ns; s++)
	{
	  const struct lp_site *site = &r->sites[k][s];
	  uint32_t n;
	  n = lp_site_for_output (site, &buf, &buf_cap);
	  for (uint32_t v = 0; v < n; v++)
	    {
	      put64 (out, buf[v].value);
	      put64 (out, buf[v].count);
	    }
	}
    }
  free (buf);
}

static void
write_summary (FILE *out, const struct lp_summary *s)
{
  put64 (out, 6);
  put64 (out, s->num_entries);
  put64 (out, s->num_functions);
  put64 (out, s->num_blocks);
  put64 (out, s->max_function_count);
  put64 (out, s->max_block_count);
  put64 (out, s->max_internal_count);
  put64 (out, s->total_count);
  for (size_t i = 0; i < s->num_entries; i++)
    {
      put64 (out, s->entries[i].cutoff);
      put64 (out, s->entries[i].min_count);
      put64 (out, s->entries[i].num_blocks);
    }
}

/* qsort comparator for items: bucket, then name (items were made in
   name order, so FIRST orders them by name).  */
static int
cmp_items (const void *pa, const void *pb)
{
  const struct item *a = pa, *b = pb;
  if (a->bucket != b->bucket)
    return a->bucket < b->bucket ? -1 : 1;
  return a->first < b->first ? -1 : a->first > b->first;
}

int
lp_write_indexed (FILE *out, struct lp_record **recs, size_t num,
		  uint64_t variant)
{
  struct item *items = xmalloc ((num + 1) * sizeof *items);
  size_t nitems = 0, nsum = (variant & LATEPGO_VARIANT_CSIR) ? 2 : 1;
  uint64_t nbuckets, pos, hash_offset, *bucket_off;
  struct lp_summary sum[2];

  /* Group the (name, hash)-sorted records by name.  */
  for (size_t i = 0; i < num; i++)
    {
      if (nitems && recs[items[nitems - 1].first]->name_len == recs[i]->name_len
	  && memcmp (recs[items[nitems - 1].first]->name, recs[i]->name,
		     recs[i]->name_len) == 0)
	items[nitems - 1].num++;
      else
	{
	  items[nitems].first = i;
	  items[nitems].num = 1;
	  nitems++;
	}
    }

  /* Bucket count as LLVM's OnDiskChainedHashTableGenerator
     (doc/indexed-format.md section 4).  */
  if (nitems <= 2)
    nbuckets = 1;
  else
    {
      uint64_t want = (uint64_t) nitems * 4 / 3;
      nbuckets = 1;
      while (nbuckets <= want)
	nbuckets *= 2;
    }
  for (size_t i = 0; i < nitems; i++)
    {
      const struct lp_record *r0 = recs[items[i].first];
      items[i].bucket = r0->name_md5 & (nbuckets - 1);
      items[i].data_len = 0;
      for (size_t j = 0; j < items[i].num; j++)
	{
	  const struct lp_record *r = recs[items[i].first + j];
	  items[i].data_len += 16 + 8 * (uint64_t) r->num_counts
			       + value_data_size (r);
	}
    }
  qsort (items, nitems, sizeof *items, cmp_items);

  /* Layout.  */
  for (size_t s = 0; s < nsum; s++)
    lp_summary_compute (&sum[s], recs, num, s == 1, lp_default_cutoffs,
			LP_NUM_CUTOFFS);
  pos = 40;
  for (size_t s = 0; s < nsum; s++)
    pos += 8 * (8 + 3 * sum[s].num_entries);
  bucket_off = xcalloc (nbuckets, sizeof *bucket_off);
  for (size_t i = 0; i < nitems; i++)
    {
      if (i == 0 || items[i].bucket != items[i - 1].bucket)
	{
	  size_t count = 0;
	  for (size_t j = i; j < nitems && items[j].bucket == items[i].bucket;
	       j++)
	    count++;
	  if (count > UINT16_MAX)
	    {
	      free (bucket_off);
	      free (items);
	      errno = EOVERFLOW;
	      return -1;
	    }
	  bucket_off[items[i].bucket] = pos;
	  pos += 2;
	}
      pos += 24 + recs[items[i].first]->name_len + items[i].data_len;
    }
  hash_offset = (pos + 7) & ~(uint64_t) 7;

  /* Header and summaries.  */
  put64 (out, LATEPGO_INDEXED_MAGIC);
  put64 (out, LATEPGO_INDEXED_VERSION | variant);
  put64 (out, 0);
  put64 (out, 0);
  put64 (out, hash_offset);
  for (size_t s = 0; s < nsum; s++)
    write_summary (out, &sum[s]);

  /* Payload.  */
  for (size_t i = 0; i < nitems; i++)
    {
      const struct lp_record *r0 = recs[items[i].first];
      if (i == 0 || items[i].bucket != items[i - 1].bucket)
	{
	  unsigned count = 0;
	  for (size_t j = i; j < nitems && items[j].bucket == items[i].bucket;
	       j++)
	    count++;
	  fputc (count & 0xff, out);
	  fputc (count >> 8, out);
	}
      put64 (out, r0->name_md5);
      put64 (out, r0->name_len);
      put64 (out, items[i].data_len);
      fwrite (r0->name, 1, r0->name_len, out);
      for (size_t j = 0; j < items[i].num; j++)
	{
	  const struct lp_record *r = recs[items[i].first + j];
	  put64 (out, r->hash);
	  put64 (out, r->num_counts);
	  for (uint32_t c = 0; c < r->num_counts; c++)
	    put64 (out, r->counts[c]);
	  write_value_data (out, r, value_data_size (r));
	}
    }
  for (uint64_t p = pos; p < hash_offset; p++)
    fputc (0, out);

  /* Bucket table.  */
  put64 (out, nbuckets);
  put64 (out, nitems);
  for (uint64_t b = 0; b < nbuckets; b++)
    put64 (out, bucket_off[b]);

  free (bucket_off);
  free (items);
  return ferror (out) ? -1 : 0;
}
