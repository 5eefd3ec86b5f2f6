/* prof-store.c: the record store, a chained hash table keyed by (name,
   FuncHash), and the merge rules of llvm-profdata merge: counts of
   equal keys are summed (weighted, saturating at 2^64-1; a first-run
   time, latepgo-abi.h, keeps the earliest instead), different
   hashes under one name stay apart, and a record whose counter count
   differs from the stored one is dropped with a warning.  */

#include "prof-store.h"
#include "tool-util.h"

#include <stdlib.h>
#include <string.h>

static size_t
key_slot (const struct lp_store *store, uint64_t name_md5, uint64_t hash)
{
  uint64_t h = name_md5 ^ (hash * 0x9e3779b97f4a7c15ULL);
  h ^= h >> 29;
  return (size_t) h & (store->num_buckets - 1);
}

void
lp_store_init (struct lp_store *store)
{
  memset (store, 0, sizeof *store);
  store->num_buckets = 1024;
  store->buckets = xcalloc (store->num_buckets, sizeof *store->buckets);
}

void
lp_store_free (struct lp_store *store)
{
  for (size_t b = 0; b < store->num_buckets; b++)
    for (struct lp_record *r = store->buckets[b], *next; r; r = next)
      {
	next = r->chain;
	lp_record_free_sites (r);
	free (r);
      }
  free (store->buckets);
  memset (store, 0, sizeof *store);
}

struct lp_record *
lp_store_find (const struct lp_store *store, const char *name,
	       size_t name_len, uint64_t name_md5, uint64_t hash)
{
  for (struct lp_record *r = store->buckets[key_slot (store, name_md5, hash)];
       r; r = r->chain)
    if (r->name_md5 == name_md5 && r->hash == hash
	&& r->name_len == name_len && memcmp (r->name, name, name_len) == 0)
      return r;
  return NULL;
}

/* Double the bucket array of STORE.  */
static void
store_grow (struct lp_store *store)
{
  struct lp_record **old = store->buckets;
  size_t old_n = store->num_buckets;

  store->num_buckets *= 2;
  store->buckets = xcalloc (store->num_buckets, sizeof *store->buckets);
  for (size_t b = 0; b < old_n; b++)
    for (struct lp_record *r = old[b], *next; r; r = next)
      {
	size_t s = key_slot (store, r->name_md5, r->hash);
	next = r->chain;
	r->chain = store->buckets[s];
	store->buckets[s] = r;
      }
  free (old);
}

/* The number of leading counters of REC that are counts, summed by a
   merge: all but a first-run time (latepgo-abi.h), which is not
   weighted and keeps the earliest.  */
static uint32_t
summed_counts (const struct lp_record_in *rec)
{
  return rec->num_counts - (latepgo_has_first_run (rec->hash) ? 1 : 0);
}

/* Make a store record from REC scaled by WEIGHT; set *OVERFLOW if a
   count saturated.  */
static struct lp_record *
record_new (const struct lp_record_in *rec, uint64_t weight, int *overflow)
{
  size_t counts_size = (size_t) rec->num_counts * sizeof (uint64_t);
  struct lp_record *r = xmalloc (sizeof *r + counts_size + rec->name_len + 1);
  char *name = (char *) r->counts + counts_size;

  memcpy (name, rec->name, rec->name_len);
  name[rec->name_len] = 0;
  r->chain = NULL;
  r->name = name;
  r->name_len = rec->name_len;
  r->name_md5 = rec->name_md5;
  r->hash = rec->hash;
  r->num_counts = rec->num_counts;
  memcpy (r->counts, rec->counts, counts_size);
  if (weight != 1)
    for (uint32_t i = 0; i < summed_counts (rec); i++)
      {
	r->counts[i] = lp_sat_mul (rec->counts[i], weight);
	*overflow |= r->counts[i] == UINT64_MAX && rec->counts[i] != UINT64_MAX;
      }
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      uint32_t n = rec->num_sites[k];
      r->num_sites[k] = n;
      r->sites[k] = NULL;
      if (!n)
	continue;
      r->sites[k] = xcalloc (n, sizeof *r->sites[k]);
      for (uint32_t s = 0; s < n; s++)
	*overflow |= lp_site_merge (&r->sites[k][s], &rec->sites[k][s],
				    weight);
    }
  return r;
}

int
lp_store_add (struct lp_store *store, const struct lp_record_in *rec,
	      uint64_t weight, const char *where)
{
  static int hint_given;
  struct lp_record *r;
  int overflow = 0, problems = 0;

  r = lp_store_find (store, rec->name, rec->name_len, rec->name_md5,
		     rec->hash);
  if (!r)
    {
      size_t s;
      if (store->num_records >= store->num_buckets)
	store_grow (store);
      r = record_new (rec, weight, &overflow);
      s = key_slot (store, r->name_md5, r->hash);
      r->chain = store->buckets[s];
      store->buckets[s] = r;
      store->num_records++;
    }
  else if (r->num_counts != rec->num_counts)
    {
      lp_warning (where, "%.*s: function basic block count change detected "
		  "(counter mismatch: %u counters, previously %u); record "
		  "dropped", (int) rec->name_len, rec->name,
		  rec->num_counts, r->num_counts);
      if (!hint_given++)
	lp_note ("make sure that all profile data to be merged is "
		 "generated from the same binary");
      return 1;
    }
  else
    {
      uint64_t *c = r->counts;
      uint32_t n = summed_counts (rec);
      if (weight == 1)
	for (uint32_t i = 0; i < n; i++)
	  {
	    uint64_t v;
	    if (__builtin_add_overflow (c[i], rec->counts[i], &v))
	      v = UINT64_MAX, overflow = 1;
	    c[i] = v;
	  }
      else
	for (uint32_t i = 0; i < n; i++)
	  {
	    uint64_t m, v;
	    if (__builtin_mul_overflow (rec->counts[i], weight, &m))
	      m = UINT64_MAX, overflow = 1;
	    if (__builtin_add_overflow (c[i], m, &v))
	      v = UINT64_MAX, overflow = 1;
	    c[i] = v;
	  }
      /* Keep the earliest first-run time, as GCC's time-profile merge.  */
      if (n < rec->num_counts)
	c[n] = latepgo_first_run_merge (c[n], rec->counts[n]);
      for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
	{
	  if (r->num_sites[k] != rec->num_sites[k])
	    {
	      lp_warning (where, "%.*s: function value site count change "
			  "detected (counter mismatch); value data of this "
			  "record dropped", (int) rec->name_len, rec->name);
	      problems++;
	      continue;
	    }
	  for (uint32_t s = 0; s < rec->num_sites[k]; s++)
	    overflow |= lp_site_merge (&r->sites[k][s], &rec->sites[k][s],
				       weight);
	}
    }
  if (overflow)
    {
      lp_warning (where, "%.*s: counter overflow (saturated at "
		  "18446744073709551615)", (int) rec->name_len, rec->name);
      problems++;
    }
  return problems;
}

/* qsort comparator: name bytes (shorter prefix first), then hash.  */
static int
cmp_records (const void *pa, const void *pb)
{
  const struct lp_record *a = *(struct lp_record *const *) pa;
  const struct lp_record *b = *(struct lp_record *const *) pb;
  size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
  int c = memcmp (a->name, b->name, n);

  if (c)
    return c;
  if (a->name_len != b->name_len)
    return a->name_len < b->name_len ? -1 : 1;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  return 0;
}

struct lp_record **
lp_store_sorted (const struct lp_store *store)
{
  struct lp_record **v = xmalloc ((store->num_records + 1) * sizeof *v);
  size_t n = 0;

  for (size_t b = 0; b < store->num_buckets; b++)
    for (struct lp_record *r = store->buckets[b]; r; r = r->chain)
      v[n++] = r;
  qsort (v, n, sizeof *v, cmp_records);
  return v;
}

int
lp_store_merge_variant (struct lp_store *store, uint64_t v,
			struct lp_err *err)
{
  /* Debug-info correlation is resolved by reading; it does not carry
     over to merged output.  */
  v &= LATEPGO_VARIANT_MASK & ~LP_VARIANT_DBG_CORRELATE;
  if (!store->have_kind)
    {
      store->variant = v;
      store->have_kind = 1;
      return 0;
    }
  if ((store->variant & LATEPGO_VARIANT_IR) != (v & LATEPGO_VARIANT_IR))
    {
      lp_seterr (err, "cannot merge an IR-level profile with a front-end "
		 "(clang -fprofile-instr-generate) profile: this input is "
		 "%s, earlier inputs are %s",
		 lp_variant_kind_name (v),
		 lp_variant_kind_name (store->variant));
      return -1;
    }
  /* A byte-coverage record's counts say only "ran"; summed with
     counts, and under the union of the bits, a use build would take
     every count as coverage (doc/coverage.md section 3).  */
  if ((store->variant ^ v) & LP_VARIANT_BYTE_COVERAGE)
    {
      lp_seterr (err, "cannot merge a coverage profile "
		 "(coverage=function|block, single-byte counters) with a "
		 "profile of counts: this input is %s, earlier inputs are %s",
		 (v & LP_VARIANT_BYTE_COVERAGE) ? "coverage" : "counts",
		 (store->variant & LP_VARIANT_BYTE_COVERAGE)
		 ? "coverage" : "counts");
      return -1;
    }
  if ((store->variant ^ v) & LP_VARIANT_ENTRY_ONLY)
    {
      lp_seterr (err, "cannot merge function-entry-only profiles with "
		 "block profiles");
      return -1;
    }
  store->variant |= v;
  return 0;
}
