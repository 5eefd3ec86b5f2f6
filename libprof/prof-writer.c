/* prof-writer.c: lay out this module's profile in memory as one LLVM
   raw profile, version 8, 64-bit, host byte order
   (doc/raw-format.md):

     header          11 x u64
                     Magic, Version = 8 | IR, BinaryIdsSize, DataSize
                     (records), 0, CountersSize (counters), 0, NamesSize,
                     CountersDelta = start(cnts) - start(data), NamesDelta
                     = run token (readers ignore it), ValueKindLast = 1
     binary IDs      u64 Len, Len bytes of NT_GNU_BUILD_ID, pad8; or nothing
     records         DataSize x 48 bytes, Values written as 0,
                     FunctionPointer the NameRef of a function with an
                     address (prof-vdata.c), NumValueSites[0] the record's
                     indirect-call sites (none in continuous mode)
     counters        CountersSize x u64, the whole __llvm_prf_cnts section
                     (x 1 byte in a coverage module, with the byte
                     coverage variant bits: prof-coverage.c)
     names           the whole __llvm_prf_names section, then pad8 zeros
     value data      the indirect-call targets (prof-vdata.c), built at
                     write time, in IMG->vdata

   Records are not copied verbatim: records with the same NameRef,
   FuncHash and NumCounters (an inline or template function emitted in
   several translation units, each copy with TU-local counters) become
   one record whose counters hold the sum of all copies; the other
   copies' counter slots are written as 0 (a first-run time keeps the
   earliest copy's, see latepgo-abi.h).  Each record's CounterPtr is
   recomputed for its position in the written array, so CounterPtr
   stays consistent with CountersDelta:
     CounterPtr_i = address(first counter) - (start(data) + 48 * i).
   Records whose counters lie outside the counters section, or that
   have no counters, are left out (LLVM readers reject the whole file
   for one such record).

   Continuous mode (prof-continuous.c) maps the counters area of the
   file and counts there, so its layout differs in two ways, both of
   which llvm-profdata 14 reads: records are not folded (every copy
   keeps its own record, and readers add records of the same name and
   hash), and the counters area starts and ends on a page boundary of
   the profile, with zeros before it (PaddingBytesBeforeCounters) and
   after it (PaddingBytesAfterCounters).

   A module with lean objects (doc/lean.md) writes the same layout with
   the debug-info correlation bit set: its lean functions have no
   record here, only counters, and latepgo-profdata merge --binary
   joins them with the binary's map.  */

#include "prof-internal.h"

/* Open-addressing table from (NameRef, FuncHash, NumCounters) to the
   index of the first written record with that key, plus one.  */

static uint64_t
record_key_hash (const struct latepgo_data_record *r)
{
  return lp_mix64 (r->name_ref ^ lp_mix64 (r->func_hash + r->num_counters));
}

static int
same_key (const struct latepgo_data_record *a,
	  const struct latepgo_data_record *b)
{
  return a->name_ref == b->name_ref && a->func_hash == b->func_hash
	 && a->num_counters == b->num_counters;
}

/* Return the index of the first counter of record R in SECS, whose
   counters are SIZE bytes each, or UINT64_MAX if its counters are not
   inside the counters section.  */

static uint64_t
counter_slot (const struct lp_sections *secs,
	      const struct latepgo_data_record *r, unsigned size)
{
  uintptr_t first = (uintptr_t) r + (uintptr_t) r->counter_ptr;
  uintptr_t begin = (uintptr_t) secs->cnts_begin;
  uintptr_t end = (uintptr_t) secs->cnts_end;
  if (!begin || r->num_counters == 0 || first < begin || first >= end
      || (first - begin) % size != 0
      || r->num_counters > (end - first) / size)
    return UINT64_MAX;
  return (first - begin) / size;
}

/* The Version word of the module's profile: the variant bits of its
   counters' kind (prof-coverage.c), and with lean objects in it, LLVM's
   debug-info correlation bit, which says that records and names are not
   in the profile but in the binary (doc/lean.md).  */

static uint64_t
lp_raw_version (const struct lp_sections *secs)
{
  uint64_t v = LATEPGO_RAW_VERSION | lp_kind_variant (lp_counter_kind ());
  if (secs->lean_begin != secs->lean_end)
    v |= LP_VARIANT_DBG_CORRELATE;
  return v;
}

/* Build the layout of this module's profile in IMG: header, binary
   ID, folded records and names; the counters area is filled later by
   lp_image_snapshot and lp_image_fill_counters.  TOKEN goes to the
   header's NamesDelta.  PAGE is 0 for the usual layout, or the page
   size for continuous mode's (see above).  Return 0, or -1 after
   reporting an error (IMG then owns nothing).  */

int
lp_image_build (struct lp_image *img, uint64_t token, uint64_t page)
{
  struct lp_sections secs;
  const unsigned char *id;
  uint32_t *table = NULL;
  uint64_t *slots;
  size_t table_alloc = 0;

  memset (img, 0, sizeof *img);
  lp_get_sections (&secs);
  int kind = lp_counter_kind ();
  if (kind < 0)
    return -1;
  unsigned size = kind ? 1 : 8;
  img->counter_size = size;
  img->variant = lp_kind_variant (kind);

  size_t data_bytes = (const char *) secs.data_end
		      - (const char *) secs.data_begin;
  if (data_bytes % LP_RECORD_SIZE != 0)
    {
      lp_error ("section %s is %zu bytes, not a multiple of %d; "
		"no profile written", LATEPGO_SEC_DATA, data_bytes,
		LP_RECORD_SIZE);
      return -1;
    }
  uint64_t nraw = data_bytes / LP_RECORD_SIZE;
  uint64_t ncounters = ((char *) secs.cnts_end
			- (char *) secs.cnts_begin) / size;
  uint64_t names_size = secs.names_end - secs.names_begin;
  size_t id_size = lp_binary_id (&id);

  img->num_counters = ncounters;
  img->names_size = names_size;
  img->ids_size = id_size ? 8 + id_size + lp_pad8 (id_size) : 0;
  img->ids_off = LP_HEADER_SIZE;
  img->data_off = img->ids_off + img->ids_size;

  /* Room for the records before folding; the counters and names move
     up once the number of distinct records is known.  */
  img->buf_alloc = img->data_off + nraw * LP_RECORD_SIZE + ncounters * size
		   + names_size + 8 + 2 * page;
  img->buf = lp_alloc (img->buf_alloc);
  img->raw_alloc = ncounters * 8;
  img->raw = lp_alloc (img->raw_alloc);
  img->dups_alloc = nraw * sizeof (struct lp_dup);
  img->dups = lp_alloc (img->dups_alloc);
  img->first_run_alloc = (ncounters / 64 + 1) * 8;
  img->first_run = lp_alloc (img->first_run_alloc);
  img->vsrc_alloc = (nraw ? nraw : 1) * sizeof (struct lp_vsrc);
  img->vsrc = lp_alloc (img->vsrc_alloc);
  img->site_base_alloc = (nraw ? nraw : 1) * 8;
  img->site_base = lp_alloc (img->site_base_alloc);
  size_t table_size = 16;
  while (table_size < 2 * nraw)
    table_size *= 2;
  /* The table, then the first counter slot of each written record.  */
  table_alloc = table_size * sizeof *table + nraw * sizeof *slots;
  table = lp_alloc (table_alloc);
  slots = (uint64_t *) (table + table_size);
  if (!img->buf || (ncounters && !img->raw) || (nraw && !img->dups)
      || !img->first_run || !table || !img->vsrc || !img->site_base)
    {
      lp_error ("cannot allocate %zu bytes for the profile; "
		"no profile written", img->buf_alloc);
      lp_free (table, table_alloc);
      lp_image_free (img);
      return -1;
    }

  /* Fold the records.  */
  struct latepgo_data_record *out
    = (struct latepgo_data_record *) (img->buf + img->data_off);
  uint64_t nout = 0;
  for (uint64_t j = 0; j < nraw; j++)
    {
      const struct latepgo_data_record *r = &secs.data_begin[j];
      uint64_t slot = counter_slot (&secs, r, size);
      if (slot == UINT64_MAX)
	{
	  /* All-zero padding between records is not worth a word.  */
	  if (r->name_ref || r->func_hash || r->num_counters)
	    img->skipped++;
	  continue;
	}

      size_t h = record_key_hash (r) & (table_size - 1);
      while (table[h] && !same_key (&out[table[h] - 1], r))
	h = (h + 1) & (table_size - 1);
      uint64_t sites = page ? 0 : lp_record_value_sites (r);
      if (table[h] && !page)
	{
	  /* A duplicate: its counts go to the first copy.  */
	  uint64_t to = slots[table[h] - 1];
	  if (sites)
	    {
	      img->vsrc[img->num_vsrc].rec = r;
	      img->vsrc[img->num_vsrc++].out = table[h] - 1;
	    }
	  if (r->function_ptr)
	    out[table[h] - 1].function_ptr = r->name_ref;
	  if (to != slot)
	    {
	      struct lp_dup *d = &img->dups[img->num_dups++];
	      d->from = slot;
	      d->to = to;
	      d->n = r->num_counters;
	    }
	  continue;
	}

      struct latepgo_data_record *w = &out[nout];
      w->name_ref = r->name_ref;
      w->func_hash = r->func_hash;
      w->counter_ptr = (int64_t) (((char *) secs.cnts_begin + slot * size)
				  - ((char *) secs.data_begin
				     + nout * LP_RECORD_SIZE));
      /* The NameRef, not the address (prof-vdata.c).  */
      w->function_ptr = r->function_ptr ? r->name_ref : 0;
      w->values = 0;
      w->num_counters = r->num_counters;
      w->num_value_sites[LP_VK_INDIRECT_CALL]
	= sites ? r->num_value_sites[LP_VK_INDIRECT_CALL] : 0;
      w->num_value_sites[LP_VK_MEMOP]
	= sites ? r->num_value_sites[LP_VK_MEMOP] : 0;
      img->site_base[nout] = img->num_sites;
      img->num_sites += sites;
      if (sites)
	{
	  img->vsrc[img->num_vsrc].rec = r;
	  img->vsrc[img->num_vsrc++].out = nout;
	}
      if (latepgo_has_first_run (r->func_hash))
	{
	  uint64_t last = slot + r->num_counters - 1;
	  img->first_run[last / 64] |= (uint64_t) 1 << (last % 64);
	}
      if (!table[h])
	table[h] = (uint32_t) (nout + 1);
      slots[nout] = slot;
      nout++;
    }
  lp_free (table, table_alloc);
  img->lean = secs.lean_begin != secs.lean_end;
  lp_lean_mark_first_run (&secs, img->first_run);

  img->num_records = nout;
  img->counters_off = img->data_off + nout * LP_RECORD_SIZE;
  uint64_t pad_before = page ? (page - img->counters_off % page) % page : 0;
  /* Byte counters are padded so that the names, and so the end of the
     profile, stay 8-aligned (clang 14 writes no padding and leaves
     them unaligned; readers go by the header either way).  */
  uint64_t pad_after = (page ? (page - ncounters * size % page) % page
			: lp_pad8 (ncounters * size));
  img->counters_off += pad_before;
  img->names_off = img->counters_off + ncounters * size + pad_after;
  img->size = img->names_off + names_size + lp_pad8 (names_size);

  uint64_t *hdr = (uint64_t *) img->buf;
  hdr[LP_H_MAGIC] = LATEPGO_RAW_MAGIC_64;
  hdr[LP_H_VERSION] = lp_raw_version (&secs);
  hdr[LP_H_IDS_SIZE] = img->ids_size;
  hdr[LP_H_DATA_SIZE] = nout;
  hdr[LP_H_PAD_BEFORE] = pad_before;
  hdr[LP_H_COUNTERS_SIZE] = ncounters;
  hdr[LP_H_PAD_AFTER] = pad_after;
  hdr[LP_H_NAMES_SIZE] = names_size;
  /* A lean module may have no records: then 0, not the counters'
     address, which would differ from run to run and keep %m from
     merging.  */
  hdr[LP_H_COUNTERS_DELTA] = (secs.data_begin
			      ? (uint64_t) ((char *) secs.cnts_begin
					    - (char *) secs.data_begin)
			      : 0);
  hdr[LP_H_NAMES_DELTA] = token;
  hdr[LP_H_VALUE_KIND_LAST] = LATEPGO_VALUE_KIND_LAST;

  if (id_size)
    {
      uint64_t len = id_size;
      memcpy (img->buf + img->ids_off, &len, 8);
      memcpy (img->buf + img->ids_off + 8, id, id_size);
    }
  if (names_size)
    memcpy (img->buf + img->names_off, secs.names_begin, names_size);
  /* The paddings are already zero (lp_alloc).  */
  return 0;
}

/* Copy the live counters to IMG->raw, as late as possible before the
   write so the profile misses as few counts as possible.  */

void
lp_image_snapshot (struct lp_image *img)
{
  struct lp_sections secs;
  lp_get_sections (&secs);
  if (img->num_counters && img->counter_size == 1)
    lp_coverage_snapshot (img->raw, (const unsigned char *) secs.cnts_begin,
			  img->num_counters);
  else if (img->num_counters)
    {
      memcpy (img->raw, secs.cnts_begin, img->num_counters * 8);
      lp_shards_add (img->raw, img->num_counters);
    }
}

/* lp_image_fill_counters for byte coverage: a byte is covered (0) if
   its count since BASE is not 0; a duplicate's byte joins the first
   copy's and is then written as not covered.  */

static void
fill_bytes (struct lp_image *img, const uint64_t *base)
{
  unsigned char *c = img->buf + img->counters_off;
  for (uint64_t i = 0; i < img->num_counters; i++)
    c[i] = lp_coverage_byte (img->raw[i] - (base ? base[i] : 0));
  for (size_t d = 0; d < img->num_dups; d++)
    {
      const struct lp_dup *dup = &img->dups[d];
      lp_coverage_merge (c + dup->to, c + dup->from, dup->n);
      memset (c + dup->from, LATEPGO_COVERAGE_NOT_RUN, dup->n);
    }
}

/* Compute the counters area of IMG from its snapshot: the counts since
   BASE (a snapshot of an earlier write, or NULL for all counts), with
   duplicate records folded.  */

void
lp_image_fill_counters (struct lp_image *img, const uint64_t *base)
{
  if (img->counter_size == 1)
    {
      fill_bytes (img, base);
      return;
    }
  uint64_t *c = (uint64_t *) (img->buf + img->counters_off);
  if (base)
    for (uint64_t i = 0; i < img->num_counters; i++)
      c[i] = img->raw[i] - base[i];
  else
    memcpy (c, img->raw, img->num_counters * 8);
  for (size_t d = 0; d < img->num_dups; d++)
    {
      const struct lp_dup *dup = &img->dups[d];
      for (uint64_t i = 0; i < dup->n; i++)
	{
	  c[dup->to + i] = lp_merge_slot (img, dup->to + i, c[dup->to + i],
					  c[dup->from + i]);
	  c[dup->from + i] = 0;
	}
    }
}

/* Release what IMG owns.  */

void
lp_image_free (struct lp_image *img)
{
  lp_free (img->buf, img->buf_alloc);
  lp_free (img->raw, img->raw_alloc);
  lp_free (img->dups, img->dups_alloc);
  lp_free (img->first_run, img->first_run_alloc);
  lp_free (img->vsrc, img->vsrc_alloc);
  lp_free (img->site_base, img->site_base_alloc);
  lp_free (img->vdata, img->vdata_alloc);
  memset (img, 0, sizeof *img);
}

/* Return a 64-bit signature of this module's profile layout and build
   ID, the %m part of file names: modules that can merge their profiles
   share it, others almost surely do not.  Computed once.  */

uint64_t
lp_module_signature (void)
{
  static uint64_t signature;
  static int done;
  if (done)
    return signature;

  struct lp_sections secs;
  const unsigned char *id;
  lp_get_sections (&secs);
  size_t id_size = lp_binary_id (&id);
  uint64_t h = LP_HASH_INIT;
  uint64_t v = lp_raw_version (&secs);
  h = lp_hash_bytes (h, &v, 8);
  h = lp_hash_bytes (h, id, id_size);
  for (const struct latepgo_data_record *r = secs.data_begin;
       r && r < secs.data_end; r++)
    {
      uint64_t f[4] = { r->name_ref, r->func_hash, (uint64_t) r->counter_ptr,
			r->num_counters };
      h = lp_hash_bytes (h, f, sizeof f);
    }
  v = (char *) secs.cnts_end - (char *) secs.cnts_begin;
  h = lp_hash_bytes (h, &v, 8);
  h = lp_hash_bytes (h, secs.names_begin, secs.names_end - secs.names_begin);
  signature = lp_mix64 (h);
  done = 1;
  return signature;
}
