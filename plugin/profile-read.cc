/* profile-read.cc: read an LLVM indexed profile (version 4-7, as
   written by latepgo-profdata merge or llvm-profdata merge) for use
   mode.  Layout: doc/indexed-format.md.

   The whole file is read into memory and parsed by
   format/indexed-read.c, the parser the tools use too, which checks
   the header, the bucket table, every key hash and every record; the
   records are indexed here by name.  A malformed file gives one error
   naming the file and what is wrong.

   Counts are 64-bit and saturate at 2^64-1 in the tools, but GCC's
   profile counts stop at 2^61-2 (profile_count::max_count) and GCC
   and the use pass add counts up (a block's inflow, an indirect
   call's targets, callers' calls).  So when a function's counts add
   up to more than MAX_FUNCTION_SUM, every count of the profile is
   divided by the same power of two until none does: the ratios
   between blocks and between functions stay, the sums fit.
   First-run times are not counts and are never divided.  */

#include "gcc-common.h"
#include "profile-read.h"
#include "names.h"
#include "dump.h"
#include "read-file.h"
#include "../libprof/latepgo-abi.h"
#include "../format/indexed-read.h"
#include "../format/le.h"

static unsigned char *file_data;
static size_t file_size;
static hash_map<nofree_string_hash, vec<lp_profile_record> > *by_name;
lp_profile_summary lp_summary;
unsigned HOST_WIDE_INT lp_profile_variant;

/* See the top of the file: 2^48, a day of a hot loop at 3 GHz.  */
#define MAX_FUNCTION_SUM ((unsigned HOST_WIDE_INT) 1 << 48)

/* The largest sum of a record's counts, and the shift that brings it
   down to MAX_FUNCTION_SUM.  */
static unsigned HOST_WIDE_INT max_record_sum;
static unsigned count_shift;

/* lp_indexed_record_fn: index REC by name, and note the sum of its
   counts for the scaling.  */

static void
take_record (void *, const lp_indexed_record *rec)
{
  lp_profile_record r;
  r.hash = rec->hash;
  r.n_counters = rec->num_counts;
  r.counters = rec->counts;
  r.values = rec->values;
  r.values_size = rec->values_size;
  unsigned HOST_WIDE_INT sum = 0;
  unsigned n_counts = r.n_counters - (latepgo_has_first_run (r.hash) ? 1 : 0);
  for (unsigned i = 0; i < n_counts; i++)
    if (__builtin_add_overflow (sum, le_read_u64 (rec->counts + 8 * i), &sum))
      sum = HOST_WIDE_INT_M1U;
  max_record_sum = MAX (max_record_sum, sum);

  char *name = xstrndup (rec->name, rec->name_len);
  bool existed;
  vec<lp_profile_record> &slot = by_name->get_or_insert (name, &existed);
  if (existed)
    free (name);
  else
    slot = vNULL;
  slot.safe_push (r);
}

/* Parse the loaded file with format/'s indexed reader; NULL on
   success, else what is wrong, in ERR if nothing more specific.  */

static const char *
parse_indexed (lp_err *err)
{
  lp_indexed idx;
  lp_indexed_status st = lp_indexed_open (&idx, file_data, file_size, err);
  if (st == LP_INDEXED_OK && !(idx.variant & LATEPGO_VARIANT_IR))
    return "not an IR-level profile (front-end instrumentation)";
  if (st == LP_INDEXED_OK)
    lp_profile_variant = idx.variant;
  if (st == LP_INDEXED_OK)
    st = lp_indexed_walk (&idx, take_record, NULL, err);
  switch (st)
    {
    case LP_INDEXED_OK:
      lp_summary.max_function_count = lp_indexed_summary_field (&idx, 2);
      lp_summary.max_block_count = lp_indexed_summary_field (&idx, 3);
      lp_summary.hot_count = lp_indexed_summary_min_count (&idx, 990000);
      return NULL;
    case LP_INDEXED_RAW:
      return "is a raw profile; merge it first with "
	     "'latepgo-profdata merge -o FILE.profdata FILE.profraw'";
    case LP_INDEXED_BAD_HASH_OFFSET:
      return "hash table offset is out of range";
    default:
      return err->msg;
    }
}

/* Load PATH.  Returns false after reporting an error.  */

bool
lp_profile_load (const char *path)
{
  file_data = lp_read_file (path, "profile", &file_size);
  if (!file_data)
    return false;

  by_name = new hash_map<nofree_string_hash, vec<lp_profile_record> >;
  lp_err err;
  const char *what = parse_indexed (&err);
  if (what)
    {
      error ("latepgo: profile %qs: %s", path, what);
      return false;
    }
  while ((max_record_sum >> count_shift) > MAX_FUNCTION_SUM)
    count_shift++;
  lp_summary.max_function_count
    = MIN (lp_summary.max_function_count >> count_shift, MAX_FUNCTION_SUM);
  lp_summary.max_block_count
    = MIN (lp_summary.max_block_count >> count_shift, MAX_FUNCTION_SUM);
  lp_summary.hot_count
    = MIN (lp_summary.hot_count >> count_shift, MAX_FUNCTION_SUM);
  if (count_shift && lp_dump_stream ())
    fprintf (lp_dump_stream (), "profile counts divided by 2^%u\n",
	     count_shift);
  return true;
}

/* The name of the profile's function whose name has MD5 HASH (how an
   indirect call's targets are recorded), or NULL.  The reverse table
   is made on the first call.  */

const char *
lp_profile_name_of_hash (unsigned HOST_WIDE_INT hash)
{
  struct named { unsigned HOST_WIDE_INT hash; const char *name; };
  static vec<named> table;
  static bool made;
  if (!by_name)
    return NULL;
  if (!made)
    {
      made = true;
      for (auto it = by_name->begin (); it != by_name->end (); ++it)
	{
	  named n = { lp_md5_low64 ((*it).first, strlen ((*it).first)),
		      (*it).first };
	  table.safe_push (n);
	}
      table.qsort ([] (const void *a, const void *b)
		   {
		     const named *x = (const named *) a;
		     const named *y = (const named *) b;
		     return x->hash < y->hash ? -1 : x->hash > y->hash;
		   });
    }
  unsigned lo = 0, hi = table.length ();
  while (lo < hi)
    {
      unsigned mid = (lo + hi) / 2;
      if (table[mid].hash < hash)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo < table.length () && table[lo].hash == hash ? table[lo].name
							: NULL;
}

/* The records named NAME, or NULL.  */

const vec<lp_profile_record> *
lp_profile_lookup (const char *name)
{
  return by_name ? by_name->get (name) : NULL;
}

/* The <file> parts of the profile's static functions called FN (the
   part after the last ':' of "<file>:<name>"), for finding a renamed
   file; indexed on first use.  */

const vec<const char *> *
lp_profile_static_files (const char *fn)
{
  static hash_map<nofree_string_hash, vec<const char *> > *by_fn;
  if (!by_name)
    return NULL;
  if (!by_fn)
    {
      by_fn = new hash_map<nofree_string_hash, vec<const char *> >;
      for (auto it = by_name->begin (); it != by_name->end (); ++it)
	{
	  const char *name = (*it).first;
	  const char *colon = strrchr (name, ':');
	  if (!colon || colon == name || !colon[1])
	    continue;
	  bool existed;
	  vec<const char *> &files
	    = by_fn->get_or_insert (xstrdup (colon + 1), &existed);
	  if (!existed)
	    files = vNULL;
	  files.safe_push (xstrndup (name, colon - name));
	}
    }
  return by_fn->get (fn);
}

/* Counter I of R shifted right by SHIFT, saturated to gcov_type's
   range.  */

static gcov_type
stored_counter (const lp_profile_record *r, unsigned i, unsigned shift)
{
  const unsigned char *counters = (const unsigned char *) r->counters;
  unsigned HOST_WIDE_INT v = le_read_u64 (counters + 8 * i) >> shift;
  return v > (unsigned HOST_WIDE_INT) INTTYPE_MAXIMUM (gcov_type)
	 ? INTTYPE_MAXIMUM (gcov_type) : (gcov_type) v;
}

/* Count I of R, scaled (see the top of the file).  */

gcov_type
lp_profile_counter (const lp_profile_record *r, unsigned i)
{
  return stored_counter (r, i, count_shift);
}

/* The first-run time of R (its last counter), never scaled.  */

gcov_type
lp_profile_first_run (const lp_profile_record *r)
{
  return stored_counter (r, r->n_counters - 1, 0);
}

/* A value count as stored, scaled (see the top of the file).  */

static gcov_type
stored_value_count (const unsigned char *pair)
{
  unsigned HOST_WIDE_INT c = le_read_u64 (pair + 8) >> count_shift;
  return (c > (unsigned HOST_WIDE_INT) MAX_FUNCTION_SUM
	  ? (gcov_type) MAX_FUNCTION_SUM : (gcov_type) c);
}

/* A query for the values of site SITE of value kind KIND of a record
   (run_site_query): TAKE is called on each.  */

struct site_query
{
  uint32_t kind;
  unsigned site;
  void (*take) (site_query *, unsigned HOST_WIDE_INT value, gcov_type count);
  /* lp_profile_icall_targets: the most called MAX targets.  */
  unsigned max, n;
  lp_value_count *out;
  gcov_type total;
  /* lp_profile_memop_sizes: the counts per range.  */
  gcov_type *buckets;
};

static void
site_query_kind (void *ctx, uint32_t kind, uint32_t num_sites,
		 const unsigned char *site_values, const unsigned char *pairs)
{
  site_query *q = (site_query *) ctx;
  if (kind != q->kind || q->site >= num_sites)
    return;
  for (unsigned s = 0; s < q->site; s++)
    pairs += 16 * site_values[s];
  for (unsigned k = 0; k < site_values[q->site]; k++, pairs += 16)
    {
      gcov_type count = stored_value_count (pairs);
      if (count > 0)
	q->take (q, le_read_u64 (pairs), count);
    }
}

/* Run Q on the values of site SITE of kind KIND of R, calling TAKE
   on each.  */

static void
run_site_query (const lp_profile_record *r, uint32_t kind, unsigned site,
		void (*take) (site_query *, unsigned HOST_WIDE_INT, gcov_type),
		site_query *q)
{
  q->kind = kind;
  q->site = site;
  q->take = take;
  lp_indexed_record rec;
  memset (&rec, 0, sizeof rec);
  rec.values = (const unsigned char *) r->values;
  rec.values_size = r->values_size;
  if (rec.values)
    lp_indexed_values (&rec, site_query_kind, q);
}

/* site_query's TAKE for indirect-call targets: keep the MAX most
   called, replacing the least called kept.  */

static void
take_target (site_query *q, unsigned HOST_WIDE_INT value, gcov_type count)
{
  q->total += count;
  unsigned slot = q->n;
  if (q->n == q->max)
    {
      slot = 0;
      for (unsigned j = 1; j < q->n; j++)
	if (q->out[j].count < q->out[slot].count)
	  slot = j;
      if (q->out[slot].count >= count)
	return;
    }
  else
    q->n++;
  q->out[slot].value = value;
  q->out[slot].count = count;
}

/* The targets of indirect-call site SITE of R (value kind 0), at most
   MAX of them, the most called, into OUT; the sum of all the site's
   counts into *TOTAL.  Returns how many were stored.  */

unsigned
lp_profile_icall_targets (const lp_profile_record *r, unsigned site,
			  lp_value_count *out, unsigned max, gcov_type *total)
{
  site_query q;
  memset (&q, 0, sizeof q);
  q.max = max;
  q.out = out;
  run_site_query (r, LP_VK_INDIRECT_CALL, site, take_target, &q);
  *total = q.total;
  return q.n;
}

/* site_query's TAKE for memop sizes: add to the size's range.  A
   profile holds each range's representative value (clang's runtime
   and latepgo's), but any size lands in its range.  */

static void
take_size (site_query *q, unsigned HOST_WIDE_INT value, gcov_type count)
{
  gcov_type *c = &q->buckets[latepgo_memop_bucket (value)];
  *c = MIN ((unsigned HOST_WIDE_INT) *c + count,
	    (unsigned HOST_WIDE_INT) MAX_FUNCTION_SUM);
}

/* The sizes of memop site SITE of R (value kind 1), as counts per
   range of sizes (latepgo-abi.h), into BUCKETS[LATEPGO_MEMOP_BUCKETS].  */

void
lp_profile_memop_sizes (const lp_profile_record *r, unsigned site,
			gcov_type *buckets)
{
  site_query q;
  memset (&q, 0, sizeof q);
  q.buckets = buckets;
  memset (buckets, 0, LATEPGO_MEMOP_BUCKETS * sizeof *buckets);
  run_site_query (r, LP_VK_MEMOP, site, take_size, &q);
}
