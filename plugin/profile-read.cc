/* profile-read.cc: read an LLVM indexed profile (version 4-7, as
   written by latepgo-profdata merge or llvm-profdata merge) for use
   mode.  Layout: doc/indexed-format.md.

   The whole file is read into memory and every record is indexed by
   name; each access is bounds-checked, and a malformed file gives one
   error naming the file and what is wrong.

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
#include "dump.h"
#include "../libprof/latepgo-abi.h"

static unsigned char *file_data;
static size_t file_size;
static hash_map<nofree_string_hash, vec<lp_profile_record> > *by_name;
lp_profile_summary lp_summary;

/* See the top of the file: 2^48, a day of a hot loop at 3 GHz.  */
#define MAX_FUNCTION_SUM ((unsigned HOST_WIDE_INT) 1 << 48)

/* The largest sum of a record's counts, and the shift that brings it
   down to MAX_FUNCTION_SUM.  */
static unsigned HOST_WIDE_INT max_record_sum;
static unsigned count_shift;

/* Little-endian u64 at OFF; the caller has checked the bounds.  */

static unsigned HOST_WIDE_INT
get_u64 (size_t off)
{
  unsigned HOST_WIDE_INT v = 0;
  for (int i = 7; i >= 0; i--)
    v = (v << 8) | file_data[off + i];
  return v;
}

/* Whether [OFF, OFF + LEN) lies inside the file (overflow-safe).  */

static bool
in_file (size_t off, unsigned HOST_WIDE_INT len)
{
  return off <= file_size && len <= file_size - off;
}

/* Parse the records of one name: DATA_LEN bytes at OFF.  */

static const char *
parse_records (const char *name, size_t off, unsigned HOST_WIDE_INT data_len)
{
  size_t end = off + data_len;
  vec<lp_profile_record> recs = vNULL;

  while (off < end)
    {
      if (end - off < 16)
	return "record header runs past its data";
      lp_profile_record r;
      r.hash = get_u64 (off);
      unsigned HOST_WIDE_INT n = get_u64 (off + 8);
      off += 16;
      if (n == 0 || n > (end - off) / 8)
	return "number of counters runs past its data";
      r.n_counters = n;
      r.counters = file_data + off;
      unsigned HOST_WIDE_INT sum = 0;
      unsigned n_counts = n - (latepgo_has_first_run (r.hash) ? 1 : 0);
      for (unsigned i = 0; i < n_counts; i++)
	if (__builtin_add_overflow (sum, get_u64 (off + 8 * i), &sum))
	  sum = HOST_WIDE_INT_M1U;
      max_record_sum = MAX (max_record_sum, sum);
      off += 8 * n;
      /* Value profile data: u32 total size (>= 8, multiple of 8).  */
      if (end - off < 8)
	return "value profile data missing";
      unsigned total = file_data[off] | file_data[off + 1] << 8
		       | file_data[off + 2] << 16
		       | (unsigned) file_data[off + 3] << 24;
      if (total < 8 || total % 8 || total > end - off)
	return "value profile data size is wrong";
      off += total;
      recs.safe_push (r);
    }
  bool existed;
  vec<lp_profile_record> &slot = by_name->get_or_insert (name, &existed);
  if (existed)
    {
      slot.safe_splice (recs);
      recs.release ();
    }
  else
    slot = recs;
  return NULL;
}

/* Parse the loaded file; NULL on success, else what is wrong.  */

static const char *
parse_indexed (void)
{
  if (file_size == 0)
    return "file is empty";
  if (file_size < 40)
    return "file is too short for an indexed profile header";
  unsigned HOST_WIDE_INT magic = get_u64 (0);
  if (magic == LATEPGO_RAW_MAGIC_64 || magic == LATEPGO_RAW_MAGIC_32)
    return "is a raw profile; merge it first with "
	   "'latepgo-profdata merge -o FILE.profdata FILE.profraw'";
  if (magic != LATEPGO_INDEXED_MAGIC)
    return "not an indexed profile (bad magic)";
  unsigned HOST_WIDE_INT version = get_u64 (8);
  unsigned HOST_WIDE_INT format = version & ~LATEPGO_VARIANT_MASK;
  if (format < 4 || format > LATEPGO_INDEXED_VERSION)
    return "unsupported indexed profile version";
  if (!(version & LATEPGO_VARIANT_IR))
    return "not an IR-level profile (front-end instrumentation)";
  if (get_u64 (24) != 0)
    return "unsupported hash type";
  unsigned HOST_WIDE_INT hash_off = get_u64 (32);

  /* Summaries: the plain one, then a context-sensitive one.  */
  size_t off = 40;
  int n_summaries = (version & LATEPGO_VARIANT_CSIR) ? 2 : 1;
  for (int s = 0; s < n_summaries; s++)
    {
      if (!in_file (off, 16))
	return "summary runs past the end of the file";
      unsigned HOST_WIDE_INT n_fields = get_u64 (off);
      unsigned HOST_WIDE_INT n_cutoffs = get_u64 (off + 8);
      if (n_fields > 64 || n_cutoffs > 1024
	  || !in_file (off + 16, 8 * n_fields + 24 * n_cutoffs))
	return "summary is corrupt";
      if (s == 0)
	{
	  /* Fields: functions, blocks, max function count, max block
	     count, max internal block count, total block count.  */
	  lp_summary.max_function_count = n_fields > 2 ? get_u64 (off + 32) : 0;
	  lp_summary.max_block_count = n_fields > 3 ? get_u64 (off + 40) : 0;
	}
      off += 16 + 8 * n_fields + 24 * n_cutoffs;
    }

  if (!in_file (hash_off, 16) || hash_off % 8)
    return "hash table offset is out of range";
  unsigned HOST_WIDE_INT n_entries = get_u64 (hash_off + 8);

  /* Walk the payload as llvm-profdata does: buckets of items from the
     end of the summaries until N_ENTRIES names are read.  */
  unsigned HOST_WIDE_INT seen = 0;
  while (seen < n_entries)
    {
      if (!in_file (off, 2) || off >= hash_off)
	return "hash table payload runs past the bucket table";
      unsigned items = file_data[off] | file_data[off + 1] << 8;
      off += 2;
      for (unsigned i = 0; i < items && seen < n_entries; i++, seen++)
	{
	  if (!in_file (off, 24))
	    return "record runs past the end of the file";
	  unsigned HOST_WIDE_INT key_len = get_u64 (off + 8);
	  unsigned HOST_WIDE_INT data_len = get_u64 (off + 16);
	  off += 24;
	  if (!in_file (off, key_len) || !in_file (off + key_len, data_len)
	      || data_len % 8)
	    return "record length is out of range";
	  char *name = xstrndup ((const char *) file_data + off, key_len);
	  const char *err = parse_records (name, off + key_len, data_len);
	  if (err)
	    return err;
	  off += key_len + data_len;
	}
    }
  return NULL;
}

/* Load PATH.  Returns false after reporting an error.  */

bool
lp_profile_load (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    {
      error ("latepgo: cannot open profile %qs: %m", path);
      return false;
    }
  struct stat st;
  if (fstat (fileno (f), &st) != 0 || !S_ISREG (st.st_mode))
    {
      error ("latepgo: profile %qs is not a regular file", path);
      fclose (f);
      return false;
    }
  file_size = st.st_size;
  file_data = XNEWVEC (unsigned char, file_size ? file_size : 1);
  if (fread (file_data, 1, file_size, f) != file_size)
    {
      error ("latepgo: cannot read profile %qs: %m", path);
      fclose (f);
      return false;
    }
  fclose (f);

  by_name = new hash_map<nofree_string_hash, vec<lp_profile_record> >;
  const char *err = parse_indexed ();
  if (err)
    {
      error ("latepgo: profile %qs: %s", path, err);
      return false;
    }
  while ((max_record_sum >> count_shift) > MAX_FUNCTION_SUM)
    count_shift++;
  lp_summary.max_function_count
    = MIN (lp_summary.max_function_count >> count_shift, MAX_FUNCTION_SUM);
  lp_summary.max_block_count
    = MIN (lp_summary.max_block_count >> count_shift, MAX_FUNCTION_SUM);
  if (count_shift && lp_dump_stream ())
    fprintf (lp_dump_stream (), "profile counts divided by 2^%u\n",
	     count_shift);
  return true;
}

/* The records named NAME, or NULL.  */

const vec<lp_profile_record> *
lp_profile_lookup (const char *name)
{
  return by_name ? by_name->get (name) : NULL;
}

/* Counter I of R shifted right by SHIFT, saturated to gcov_type's
   range.  */

static gcov_type
stored_counter (const lp_profile_record *r, unsigned i, unsigned shift)
{
  size_t off = (const unsigned char *) r->counters - file_data + 8 * i;
  unsigned HOST_WIDE_INT v = get_u64 (off) >> shift;
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
