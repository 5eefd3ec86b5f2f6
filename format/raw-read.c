/* raw-read.c: reader for raw instrumentation profiles, version 8
   (doc/raw-format.md): 64- and 32-bit layouts, either byte
   order, concatenated profiles, binary-id area, byte-coverage counters
   and value-profile data.  Every bound that LLVM 14's reader checks is
   checked here, plus the consistency of concatenated profiles.  */

#include "profile.h"
#include "raw-names.h"
#include "md5.h"
#include "tool-util.h"
#include "lower-bound.h"
#include "le.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define RAW_HEADER_SIZE (LATEPGO_RAW_HEADER_WORDS * 8)

/* One profile of a (possibly concatenated) raw file.  */
struct raw_hdr
{
  int swap;                     /* File byte order differs from ours.  */
  int ptr32;                    /* 32-bit record layout.  */
  uint64_t variant;
  uint64_t data_size;           /* Number of records.  */
  uint64_t counters_size;       /* Number of counters.  */
  uint64_t counters_delta;
  size_t rec_size;
  size_t counter_size;
  size_t data_off, counters_off, names_off, names_size, vd_off;
  size_t end;                   /* Offset after the value data.  */
};

struct raw_reader
{
  const unsigned char *buf;
  size_t size;
  int swap;
  int lean_ok;                  /* Lean profiles pass (prof-read.c).  */
  struct lp_site_buf sites;
  uint64_t *counts;
  size_t counts_cap;
  /* FunctionPointer -> NameRef, sorted by address.  */
  struct addr_map { uint64_t addr, md5; } *addrs;
  size_t num_addrs, addrs_cap;
};

/* One reader per field width of the raw format, each swapping bytes
   when the file's order is not ours.  */
static uint64_t
rd64 (const struct raw_reader *r, size_t off)
{
  uint64_t v;
  memcpy (&v, r->buf + off, 8);
  return r->swap ? __builtin_bswap64 (v) : v;
}

static uint32_t
rd32 (const struct raw_reader *r, size_t off)
{
  uint32_t v;
  memcpy (&v, r->buf + off, 4);
  return r->swap ? __builtin_bswap32 (v) : v;
}

static uint16_t
rd16 (const struct raw_reader *r, size_t off)
{
  uint16_t v;
  memcpy (&v, r->buf + off, 2);
  return r->swap ? __builtin_bswap16 (v) : v;
}

/* Fields of data record I of H.  */
struct raw_rec
{
  uint64_t name_ref, func_hash, counter_ptr, function_ptr;
  uint32_t num_counters;
  uint16_t num_sites[LP_NUM_VALUE_KINDS];
};

static void
read_rec (const struct raw_reader *r, const struct raw_hdr *h, uint64_t i,
	  struct raw_rec *rec)
{
  size_t o = h->data_off + (size_t) i * h->rec_size;
  rec->name_ref = rd64 (r, o);
  rec->func_hash = rd64 (r, o + 8);
  if (h->ptr32)
    {
      /* CounterPtr is a relative pointer: sign-extend it.  */
      rec->counter_ptr = (uint64_t) (int64_t) (int32_t) rd32 (r, o + 16);
      rec->function_ptr = rd32 (r, o + 20);
      rec->num_counters = rd32 (r, o + 28);
      rec->num_sites[0] = rd16 (r, o + 32);
      rec->num_sites[1] = rd16 (r, o + 34);
    }
  else
    {
      /* The 64-bit layout: format/instrprof-data.def's.  */
#define REC64(FIELD) (o + offsetof (struct latepgo_data_record, FIELD))
      rec->counter_ptr = rd64 (r, REC64 (counter_ptr));
      rec->function_ptr = rd64 (r, REC64 (function_ptr));
      rec->num_counters = rd32 (r, REC64 (num_counters));
      rec->num_sites[0] = rd16 (r, REC64 (num_value_sites[0]));
      rec->num_sites[1] = rd16 (r, REC64 (num_value_sites[1]));
#undef REC64
    }
}

/* Decide the byte order and width of the header magic M (as read
   little-endian).  Returns 0 or -1 if M is no raw magic.  */
static int
classify_magic (uint64_t m, int *swap, int *ptr32)
{
  uint64_t s = __builtin_bswap64 (m);
  int le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
  uint64_t host = le ? m : s, other = le ? s : m;

  if (host == LATEPGO_RAW_MAGIC_64 || host == LATEPGO_RAW_MAGIC_32)
    *swap = 0, *ptr32 = host == LATEPGO_RAW_MAGIC_32;
  else if (other == LATEPGO_RAW_MAGIC_64 || other == LATEPGO_RAW_MAGIC_32)
    *swap = 1, *ptr32 = other == LATEPGO_RAW_MAGIC_32;
  else
    return -1;
  return 0;
}

/* Size checks: A + B and A * B within size_t, else fail.  */
#define ADD_OR_FAIL(dst, a, b) \
  do { if (__builtin_add_overflow ((a), (b), &(dst))) goto too_big; } while (0)
#define MUL_OR_FAIL(dst, a, b) \
  do { if (__builtin_mul_overflow ((a), (b), &(dst))) goto too_big; } while (0)

/* Parse and check the header of the profile at OFF; fill H.  INDEX is
   the profile's position in the file (0 = first).  */
static int
parse_header (struct raw_reader *r, size_t off, int index,
	      const struct raw_hdr *first, struct raw_hdr *h,
	      struct lp_err *err)
{
  uint64_t version, bin_ids, pad_before, pad_after, names_size;
  size_t t, avail = r->size - off;

  memset (h, 0, sizeof *h);
  if (avail < RAW_HEADER_SIZE)
    {
      if (index == 0)
	lp_seterr (err, "file header is corrupt: %zu bytes, a raw profile "
		   "header needs %d", avail, RAW_HEADER_SIZE);
      else
	lp_seterr (err, "not enough space for another header: %zu "
		   "non-zero trailing bytes", avail);
      return -1;
    }
  if (classify_magic (le_read_u64 (r->buf + off), &h->swap, &h->ptr32) < 0)
    {
      if (index == 0)
	lp_seterr (err, "unrecognized instrumentation profile encoding "
		   "format (bad magic)");
      else
	lp_seterr (err, "trailing data is not another raw profile (bad "
		   "magic)");
      return -1;
    }
  if (index > 0 && h->swap != first->swap)
    {
      lp_seterr (err, "mixed endianness: this profile is %s-endian, the "
		 "first one is %s-endian",
		 (h->swap ^ (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		 ? "big" : "little",
		 (first->swap ^ (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		 ? "big" : "little");
      return -1;
    }
  if (index > 0 && h->ptr32 != first->ptr32)
    {
      lp_seterr (err, "mixed pointer width: this profile is %d-bit, the "
		 "first one is %d-bit", h->ptr32 ? 32 : 64,
		 first->ptr32 ? 32 : 64);
      return -1;
    }
  r->swap = h->swap;

  version = rd64 (r, off + 8);
  if ((version & ~LATEPGO_VARIANT_MASK) != LATEPGO_RAW_VERSION)
    {
      lp_seterr (err, "unsupported instrumentation profile format version "
		 "%" PRIu64 " (raw profiles must be version 8)",
		 (uint64_t) (version & ~LATEPGO_VARIANT_MASK));
      return -1;
    }
  h->variant = version & LATEPGO_VARIANT_MASK;
  if ((h->variant & LP_VARIANT_DBG_CORRELATE) && !r->lean_ok)
    {
      /* latepgo's lean builds and clang's -debug-info-correlate.  */
      lp_seterr (err, "lean raw profile needs --binary=PROG or --map=FILE: "
		 "its names and records are in the binary (doc/lean.md); "
		 "clang's debug-info correlation is not supported");
      return -1;
    }
  if (index > 0
      && ((h->variant ^ first->variant) & LATEPGO_VARIANT_IR))
    {
      lp_seterr (err, "concatenated profiles mix IR and front-end "
		 "instrumentation");
      return -1;
    }
  bin_ids = rd64 (r, off + 8 * LP_H_IDS_SIZE);
  h->data_size = rd64 (r, off + 8 * LP_H_DATA_SIZE);
  pad_before = rd64 (r, off + 8 * LP_H_PAD_BEFORE);
  h->counters_size = rd64 (r, off + 8 * LP_H_COUNTERS_SIZE);
  pad_after = rd64 (r, off + 8 * LP_H_PAD_AFTER);
  names_size = rd64 (r, off + 8 * LP_H_NAMES_SIZE);
  h->counters_delta = rd64 (r, off + 8 * LP_H_COUNTERS_DELTA);
  if (bin_ids % 8)
    {
      lp_seterr (err, "file header is corrupt: binary-id area size %"
		 PRIu64 " is not a multiple of 8", bin_ids);
      return -1;
    }
  h->rec_size = h->ptr32 ? 40 : sizeof (struct latepgo_data_record);
  h->counter_size = (h->variant & LP_VARIANT_BYTE_COVERAGE) ? 1 : 8;

  /* Section offsets, relative to the file start
     (doc/raw-format.md section 1).  */
  ADD_OR_FAIL (h->data_off, off + RAW_HEADER_SIZE, bin_ids);
  MUL_OR_FAIL (t, h->data_size, h->rec_size);
  ADD_OR_FAIL (t, t, h->data_off);
  ADD_OR_FAIL (h->counters_off, t, pad_before);
  MUL_OR_FAIL (t, h->counters_size, h->counter_size);
  ADD_OR_FAIL (t, t, h->counters_off);
  ADD_OR_FAIL (h->names_off, t, pad_after);
  h->names_size = names_size;
  if (names_size != h->names_size)
    goto too_big;
  ADD_OR_FAIL (t, h->names_off, names_size);
  ADD_OR_FAIL (h->vd_off, t, (8 - names_size % 8) % 8);
  if (h->vd_off > r->size)
    {
      lp_seterr (err, "file header is corrupt: the sections need %zu bytes, "
		 "the file has %zu", h->vd_off, r->size);
      return -1;
    }
  return 0;

too_big:
  lp_seterr (err, "file header is corrupt: section sizes overflow");
  return -1;
}

/* Check every data record of H against the counters
   (doc/raw-format.md section 5).  */
static int
check_records (struct raw_reader *r, const struct raw_hdr *h,
	       struct lp_err *err)
{
  uint64_t max_bytes = h->counters_size * h->counter_size;

  for (uint64_t i = 0; i < h->data_size; i++)
    {
      struct raw_rec rec;
      int64_t off;

      read_rec (r, h, i, &rec);
      if (rec.num_counters == 0)
	{
	  lp_seterr (err, "data record %" PRIu64 ": number of counters is "
		     "zero", i);
	  return -1;
	}
      off = (int64_t) (rec.counter_ptr
		       - (h->counters_delta - i * h->rec_size));
      if (off < 0)
	{
	  lp_seterr (err, "data record %" PRIu64 ": counter offset %" PRId64
		     " is negative", i, off);
	  return -1;
	}
      if ((uint64_t) off >= max_bytes)
	{
	  lp_seterr (err, "data record %" PRIu64 ": counter offset %" PRId64
		     " is out of range (counters are %" PRIu64 " bytes)",
		     i, off, max_bytes);
	  return -1;
	}
      if ((uint64_t) off % h->counter_size)
	{
	  lp_seterr (err, "data record %" PRIu64 ": counter offset %" PRId64
		     " is not a multiple of the counter size", i, off);
	  return -1;
	}
      if (rec.num_counters > (max_bytes - off) / h->counter_size)
	{
	  lp_seterr (err, "data record %" PRIu64 ": number of counters %u "
		     "is greater than the maximum number of counters %"
		     PRIu64, i, rec.num_counters,
		     (max_bytes - off) / h->counter_size);
	  return -1;
	}
    }
  return 0;
}

/* Check the ValueProfData block at *POS (doc/raw-format.md section 8)
   and advance *POS past it.  */
static int
check_value_block (struct raw_reader *r, size_t *pos, uint64_t rec_index,
		   struct lp_err *err)
{
  size_t p = *pos, end;
  uint32_t total, nkinds;

  if (r->size - p < 8)
    goto truncated;
  total = rd32 (r, p);
  nkinds = rd32 (r, p + 4);
  if (total < 8 || total % 8 || total > r->size - p)
    goto bad;
  if (nkinds > LP_NUM_VALUE_KINDS)
    goto bad;
  end = p + total;
  p += 8;
  for (uint32_t k = 0; k < nkinds; k++)
    {
      uint32_t kind, nsites;
      uint64_t nvalues = 0, hdr;
      if (end - p < 8)
	goto bad;
      kind = rd32 (r, p);
      nsites = rd32 (r, p + 4);
      if (kind >= LP_NUM_VALUE_KINDS)
	goto bad;
      hdr = (8 + (uint64_t) nsites + 7) & ~(uint64_t) 7;
      if (hdr > end - p)
	goto bad;
      for (uint32_t s = 0; s < nsites; s++)
	nvalues += r->buf[p + 8 + s];
      if (nvalues * 16 > end - p - hdr)
	goto bad;
      p += hdr + nvalues * 16;
    }
  *pos = end;
  return 0;

truncated:
bad:
  lp_seterr (err, "malformed value profile data of data record %" PRIu64
	     " at offset %zu", rec_index, p);
  return -1;
}

/* Validate the data records and value data of H and find its end.  */
static int
check_profile (struct raw_reader *r, struct raw_hdr *h, struct lp_err *err)
{
  size_t pos = h->vd_off;

  if (lp_raw_names_load (r->buf + h->names_off, h->names_size, err) < 0)
    return -1;
  if (check_records (r, h, err) < 0)
    return -1;
  for (uint64_t i = 0; i < h->data_size; i++)
    {
      struct raw_rec rec;
      read_rec (r, h, i, &rec);
      if (rec.num_sites[0] || rec.num_sites[1])
	if (check_value_block (r, &pos, i, err) < 0)
	  return -1;
    }
  h->end = pos;
  return 0;
}

static int
cmp_addr (const void *pa, const void *pb)
{
  const struct addr_map *a = pa, *b = pb;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Build the FunctionPointer -> NameRef map of H (for indirect-call
   targets).  */
static void
build_addr_map (struct raw_reader *r, const struct raw_hdr *h)
{
  r->num_addrs = 0;
  for (uint64_t i = 0; i < h->data_size; i++)
    {
      struct raw_rec rec;
      read_rec (r, h, i, &rec);
      if (!rec.function_ptr)
	continue;
      r->addrs = lp_grow (r->addrs, &r->addrs_cap, r->num_addrs,
			  sizeof *r->addrs, 64);
      r->addrs[r->num_addrs].addr = rec.function_ptr;
      r->addrs[r->num_addrs++].md5 = rec.name_ref;
    }
  qsort (r->addrs, r->num_addrs, sizeof *r->addrs, cmp_addr);
}

_Static_assert (offsetof (struct addr_map, addr) == 0,
		"lp_lower_bound_u64 finds addresses by their first member");

/* NameRef of the function at ADDR, or 0 if none (as LLVM).  */
static uint64_t
map_addr (const struct raw_reader *r, uint64_t addr)
{
  size_t lo = lp_lower_bound_u64 (r->addrs, r->num_addrs, sizeof *r->addrs,
				 addr);
  return lo < r->num_addrs && r->addrs[lo].addr == addr ? r->addrs[lo].md5
							: 0;
}

/* Decode the value block at *POS into IN's sites and advance *POS.  */
static void
decode_value_block (struct raw_reader *r, size_t *pos,
		    struct lp_record_in *in)
{
  size_t p = *pos;
  uint32_t total = rd32 (r, p), nkinds = rd32 (r, p + 4);

  p += 8;
  for (uint32_t k = 0; k < nkinds; k++)
    {
      uint32_t kind = rd32 (r, p), nsites = rd32 (r, p + 4);
      size_t vals = p + ((8 + (size_t) nsites + 7) & ~(size_t) 7);
      struct lp_site *sites = lp_site_buf_reset (&r->sites, kind, nsites);

      for (uint32_t s = 0; s < nsites; s++)
	{
	  unsigned n = r->buf[p + 8 + s];
	  for (unsigned v = 0; v < n; v++, vals += 16)
	    {
	      uint64_t value = rd64 (r, vals), count = rd64 (r, vals + 8);
	      if (kind == LP_VK_INDIRECT_CALL)
		value = map_addr (r, value);
	      lp_site_add (&sites[s], value, count);
	    }
	}
      in->num_sites[kind] = nsites;
      in->sites[kind] = sites;
      p = vals;
    }
  *pos += total;
}

/* Pass the records of the checked profile H to SINK.  */
static void
emit_profile (struct raw_reader *r, const struct raw_hdr *h,
	      const char *path, lp_sink_fn sink, void *ctx)
{
  size_t pos = h->vd_off;
  struct lp_err err;
  int have_vp = 0;

  if (lp_raw_names_load (r->buf + h->names_off, h->names_size, &err) < 0)
    lp_fatal (NULL, "internal error: %s", err.msg);
  for (uint64_t i = 0; i < h->data_size && !have_vp; i++)
    {
      struct raw_rec rec;
      read_rec (r, h, i, &rec);
      have_vp = rec.num_sites[0] || rec.num_sites[1];
    }
  if (have_vp)
    build_addr_map (r, h);

  for (uint64_t i = 0; i < h->data_size; i++)
    {
      struct raw_rec rec;
      struct lp_record_in in;
      size_t coff;

      read_rec (r, h, i, &rec);
      memset (&in, 0, sizeof in);
      if (!lp_raw_names_lookup (rec.name_ref, &in.name, &in.name_len))
	{
	  /* LLVM gives such a record an empty name, which no text
	     profile can hold and no function has.  */
	  lp_warning (path, "data record %" PRIu64 " has no name (NameRef "
		      "0x%016" PRIx64 " is not in the names section); record "
		      "dropped", i, rec.name_ref);
	  if (rec.num_sites[0] || rec.num_sites[1])
	    pos += rd32 (r, pos);
	  continue;
	}
      in.name_md5 = rec.name_ref;
      in.hash = rec.func_hash;
      in.num_counts = rec.num_counters;
      if (rec.num_counters > r->counts_cap)
	{
	  r->counts_cap = rec.num_counters;
	  r->counts = xrealloc (r->counts, r->counts_cap * sizeof *r->counts);
	}
      coff = h->counters_off
	     + (size_t) (rec.counter_ptr
			 - (h->counters_delta - i * h->rec_size));
      if (h->counter_size == 1)
	/* Byte coverage: 0 means covered.  */
	for (uint32_t c = 0; c < rec.num_counters; c++)
	  r->counts[c] = r->buf[coff + c] == 0;
      else if (!r->swap)
	memcpy (r->counts, r->buf + coff, (size_t) rec.num_counters * 8);
      else
	for (uint32_t c = 0; c < rec.num_counters; c++)
	  r->counts[c] = rd64 (r, coff + 8 * (size_t) c);
      in.counts = r->counts;
      if (rec.num_sites[0] || rec.num_sites[1])
	decode_value_block (r, &pos, &in);
      sink (ctx, &in);
    }
}

int
lp_raw_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
	     struct lp_err *err)
{
  struct raw_reader r;
  struct raw_hdr first, h;
  size_t off = 0;
  int index = 0, ret = 0;

  memset (&r, 0, sizeof r);
  memset (&first, 0, sizeof first);
  r.lean_ok = prof->lean_ok;
  r.buf = prof->data;
  r.size = prof->size;
  prof->num_records = 0;
  for (;;)
    {
      if (parse_header (&r, off, index, &first, &h, err) < 0
	  || check_profile (&r, &h, err) < 0)
	{
	  if (index > 0)
	    {
	      /* Say which profile of the file is bad.  */
	      struct lp_err e2;
	      lp_seterr (&e2, "profile %d (offset %zu): %s", index + 1, off,
			 err->msg);
	      *err = e2;
	    }
	  ret = -1;
	  break;
	}
      if (index == 0)
	{
	  first = h;
	  prof->variant = h.variant;
	}
      else
	prof->variant |= h.variant;
      prof->num_records += h.data_size;
      if (sink)
	emit_profile (&r, &h, prof->path, sink, ctx);
      /* Zero bytes may follow; anything else must be another profile on
	 an 8-byte boundary.  */
      off = h.end;
      while (off < r.size && r.buf[off] == 0)
	off++;
      if (off == r.size)
	break;
      if (off % 8)
	{
	  lp_seterr (err, "trailing data at offset %zu is not another raw "
		     "profile (not 8-byte aligned)", off);
	  /* Reported for the file, not for a profile in it.  */
	  ret = -1;
	  break;
	}
      index++;
    }
  lp_site_buf_free (&r.sites);
  free (r.counts);
  free (r.addrs);
  return ret;
}
