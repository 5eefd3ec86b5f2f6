/* map-join.c: a lean build (doc/lean.md) writes raw profiles with the
   counters only; its names and records are in the binary's map
   (format/lean-map.h).  latepgo-profdata merge --binary=PROG (or
   --map=FILE) joins them here: each lean profile of a raw file is
   matched with the map of the binary whose GNU build id it carries,
   and rewritten into the profile a non-lean build writes, which the
   raw reader then validates and reads as any other.

   The rewritten profile: the header with the correlation bit cleared,
   the binary id, one record per map record whose counters lie in the
   profile's counters (the records a non-lean module writes itself
   follow them), no padding, the counters, the map's names chunks
   followed by the module's own, and no value data.  A record's
   counters are at (its link-time address - the counters section's
   link-time address) in the counters area; CountersDelta is the
   records' size, so CounterPtr_i = CountersDelta - 48 i + that offset
   (doc/raw-format.md section 5).  Copies of one function from several
   files keep one record each; the readers add them, as they add the
   records a non-lean runtime folds.  */

#include "map-join.h"
#include "elf-read.h"
#include "lean-map.h"
#include "le.h"
#include "tool-util.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct map_entry
{
  char *path;
  char build_id[2 * 64 + 1];	/* Lower-case hex.  */
  struct lean_map map;
};

struct map_set
{
  struct map_entry *v;
  size_t num, cap;
};

struct map_set *
map_set_new (void)
{
  return xcalloc (1, sizeof (struct map_set));
}

void
map_set_free (struct map_set *set)
{
  for (size_t i = 0; i < set->num; i++)
    {
      free (set->v[i].path);
      lean_map_free (&set->v[i].map);
    }
  free (set->v);
  free (set);
}

size_t
map_set_size (const struct map_set *set)
{
  return set->num;
}

/* The contents of SEC of ELF, inflated when the section is
   compressed (SHF_COMPRESSED: objcopy --compress-debug-sections, as
   dh_strip makes -dbgsym files), in a malloc'd buffer of *SIZE
   bytes.  */
static unsigned char *
map_contents (const struct elf_file *elf, const struct elf_section *sec,
	      const char *path, size_t *size)
{
  const unsigned char *data = elf_section_data (elf, sec);
  if (!data)
    lp_fatal (path, "section %s has no contents", LEAN_MAP_SECTION);
  if (!(sec->flags & SHF_COMPRESSED))
    {
      *size = sec->size;
      return memcpy (xmalloc (sec->size ? sec->size : 1), data, sec->size);
    }
  Elf64_Chdr ch;
  if (sec->size < sizeof ch)
    lp_fatal (path, "compressed section %s is truncated", LEAN_MAP_SECTION);
  memcpy (&ch, data, sizeof ch);
  if (ch.ch_type != ELFCOMPRESS_ZLIB)
    lp_fatal (path, "section %s is compressed with type %u; only zlib "
	      "(1) is read", LEAN_MAP_SECTION, ch.ch_type);
  if (ch.ch_size > (uint64_t) 1 << 32)
    lp_fatal (path, "compressed section %s claims %" PRIu64 " bytes",
	      LEAN_MAP_SECTION, (uint64_t) ch.ch_size);
  uLongf n = ch.ch_size;
  unsigned char *out = xmalloc (n ? n : 1);
  if (uncompress (out, &n, data + sizeof ch, sec->size - sizeof ch) != Z_OK
      || n != ch.ch_size)
    lp_fatal (path, "compressed section %s does not inflate to its %"
	      PRIu64 " bytes", LEAN_MAP_SECTION, (uint64_t) ch.ch_size);
  *size = n;
  return out;
}

void
map_set_add (struct map_set *set, const char *path)
{
  struct elf_file elf;
  struct lp_err err;

  elf_open (&elf, path);
  const struct elf_section *sec = elf_find_section (&elf, LEAN_MAP_SECTION);
  if (!sec)
    lp_fatal (path, "no lean map (section %s): not built with "
	      "-fplugin-arg-latepgo-lean, or stripped (give the map "
	      "extracted before with --map)", LEAN_MAP_SECTION);
  if (!elf.build_id[0])
    lp_fatal (path, "no GNU build id: a lean build must be linked with "
	      "-Wl,--build-id so that its profiles name it");
  set->v = lp_grow (set->v, &set->cap, set->num + 1, sizeof *set->v, 4);
  struct map_entry *e = &set->v[set->num];
  size_t size;
  unsigned char *data = map_contents (&elf, sec, path, &size);
  if (lean_map_parse (data, size, &e->map, &err) < 0)
    lp_fatal (path, "%s", err.msg);
  free (data);
  for (size_t i = 0; i < set->num; i++)
    if (strcmp (set->v[i].build_id, elf.build_id) == 0)
      {
	/* The same build twice (the binary and its extracted map).  */
	lean_map_free (&e->map);
	return;
      }
  e->path = xstrdup (path);
  strcpy (e->build_id, elf.build_id);
  set->num++;
}

/* Lower-case hex of the N bytes at P, at most 64 of them, into OUT.  */
static void
hex_id (const unsigned char *p, size_t n, char out[2 * 64 + 1])
{
  static const char hex[] = "0123456789abcdef";
  if (n > 64)
    n = 64;
  for (size_t j = 0; j < n; j++)
    {
      out[2 * j] = hex[p[j] >> 4];
      out[2 * j + 1] = hex[p[j] & 15];
    }
  out[2 * n] = 0;
}

/* Growing output buffer.  */
struct out
{
  unsigned char *buf;
  size_t size, cap;
};

static unsigned char *
out_reserve (struct out *o, size_t n)
{
  if (o->size + n > o->cap)
    {
      /* lp_grow doubles once; a profile may need more at a time.  */
      while (o->cap < o->size + n)
	o->cap = o->cap ? 2 * o->cap : 4096;
      o->buf = xrealloc (o->buf, o->cap);
    }
  unsigned char *p = o->buf + o->size;
  memset (p, 0, n);
  o->size += n;
  return p;
}

static void
put64 (unsigned char *p, uint64_t v)
{
  memcpy (p, &v, 8);
}

/* One profile of the input file: the header words, where its parts
   are.  */
struct lean_prof
{
  uint64_t h[LATEPGO_RAW_HEADER_WORDS];
  size_t ids_off, data_off, counters_off, names_off, end;
  unsigned counter_size;	/* 1 with byte coverage, else 8.  */
};

/* Lay out the profile at OFF of the SIZE bytes at BUF (validated by the
   raw reader, 64-bit, our byte order).  */
static void
read_prof (const unsigned char *buf, size_t off, struct lean_prof *p)
{
  for (int k = 0; k < LATEPGO_RAW_HEADER_WORDS; k++)
    p->h[k] = le_read_u64 (buf + off + 8 * k);
  p->counter_size
    = (p->h[LP_H_VERSION] & LP_VARIANT_BYTE_COVERAGE) ? 1 : 8;
  p->ids_off = off + 8 * LATEPGO_RAW_HEADER_WORDS;
  p->data_off = p->ids_off + p->h[LP_H_IDS_SIZE];
  p->counters_off = p->data_off + 48 * p->h[LP_H_DATA_SIZE]
		    + p->h[LP_H_PAD_BEFORE];
  p->names_off = p->counters_off
		 + p->counter_size * p->h[LP_H_COUNTERS_SIZE]
		 + p->h[LP_H_PAD_AFTER];
  uint64_t names = p->h[LP_H_NAMES_SIZE];
  p->end = p->names_off + names + (8 - names % 8) % 8;
}

/* The map of the binary whose build id the profile P of BUF carries.  */
static const struct map_entry *
find_map (const unsigned char *buf, const struct lean_prof *p,
	  const struct map_set *set, int index, struct lp_err *err)
{
  char id[2 * 64 + 1];
  if (p->h[LP_H_IDS_SIZE] < 8
      || le_read_u64 (buf + p->ids_off) == 0
      || le_read_u64 (buf + p->ids_off) > p->h[LP_H_IDS_SIZE] - 8)
    {
      lp_seterr (err, "lean profile %d has no build id, so no binary can "
		 "be matched with it (link lean builds with "
		 "-Wl,--build-id)", index + 1);
      return NULL;
    }
  hex_id (buf + p->ids_off + 8, le_read_u64 (buf + p->ids_off), id);
  for (size_t i = 0; i < set->num; i++)
    if (strcmp (set->v[i].build_id, id) == 0)
      return &set->v[i];

  /* Name every id given, so that the stale binary stands out.  */
  char given[sizeof err->msg];
  size_t n = 0;
  given[0] = 0;
  for (size_t i = 0; i < set->num && n < sizeof given; i++)
    n += snprintf (given + n, sizeof given - n, "%s%s (build id %s)",
		   i ? ", " : "", set->v[i].path, set->v[i].build_id);
  lp_seterr (err, "lean profile %d was written by the binary with build "
	     "id %s, which is not among %s", index + 1, id, given);
  return NULL;
}

/* Append to O the non-lean form of the lean profile P of BUF, with the
   records of map E.  */
static int
join_one (const unsigned char *buf, const struct lean_prof *p,
	  const struct map_entry *e, int index, struct out *o,
	  struct lp_err *err)
{
  const struct lean_map *m = &e->map;
  uint64_t ncounters = p->h[LP_H_COUNTERS_SIZE];
  uint64_t own = p->h[LP_H_DATA_SIZE];
  uint64_t nrec = 0;
  unsigned size = p->counter_size;
  /* Byte counters are padded to 8 bytes (doc/raw-format.md).  */
  uint64_t pad = (8 - size * ncounters % 8) % 8;

  for (size_t i = 0; i < m->num_records; i++)
    {
      const struct lean_map_record *r = &m->records[i];
      uint64_t off = r->counters - m->counters_start;
      if (r->counters == 0)
	continue;		/* Dropped by the linker.  */
      if (r->counters < m->counters_start || off % size
	  || off / size > ncounters
	  || r->num_counters > ncounters - off / size)
	{
	  lp_seterr (err, "map of %s does not fit lean profile %d: record %zu "
		     "has counters at offset %" PRIu64 ", the profile has %"
		     PRIu64 " counters", e->path, index + 1, i, off, ncounters);
	  return -1;
	}
      nrec++;
    }

  uint64_t total = nrec + own;
  uint64_t names_own = p->h[LP_H_NAMES_SIZE];
  uint64_t names = m->names_size + names_own;
  size_t ids = p->h[LP_H_IDS_SIZE];
  unsigned char *q = out_reserve (o, 8 * LATEPGO_RAW_HEADER_WORDS + ids
				  + 48 * total + size * ncounters + pad + names
				  + (8 - names % 8) % 8);
  uint64_t h[LATEPGO_RAW_HEADER_WORDS];
  memcpy (h, p->h, sizeof h);
  h[LP_H_VERSION] &= ~LP_VARIANT_DBG_CORRELATE;
  h[LP_H_DATA_SIZE] = total;
  h[LP_H_PAD_BEFORE] = 0;
  h[LP_H_PAD_AFTER] = pad;
  h[LP_H_NAMES_SIZE] = names;
  h[LP_H_COUNTERS_DELTA] = 48 * total;
  for (int k = 0; k < LATEPGO_RAW_HEADER_WORDS; k++)
    put64 (q + 8 * k, h[k]);
  q += 8 * LATEPGO_RAW_HEADER_WORDS;
  memcpy (q, buf + p->ids_off, ids);
  q += ids;

  uint64_t i = 0;
  for (size_t j = 0; j < m->num_records; j++)
    {
      const struct lean_map_record *r = &m->records[j];
      if (r->counters == 0)
	continue;
      unsigned char *w = q + 48 * i;
      put64 (w, r->name_ref);
      put64 (w + 8, r->func_hash);
      put64 (w + 16, 48 * total - 48 * i
		     + (r->counters - m->counters_start));
      uint32_t shape[2] = { r->num_counters,
			    r->num_value_sites[0]
			    | (uint32_t) r->num_value_sites[1] << 16 };
      memcpy (w + 40, shape, 8);
      i++;
    }
  /* The module's own records keep their counters.  */
  for (uint64_t k = 0; k < own; k++, i++)
    {
      const unsigned char *r = buf + p->data_off + 48 * k;
      uint64_t slot = le_read_u64 (r + 16)
		      - (p->h[LP_H_COUNTERS_DELTA] - 48 * k);
      unsigned char *w = q + 48 * i;
      memcpy (w, r, 48);
      put64 (w + 16, 48 * total - 48 * i + slot);
    }
  q += 48 * total;
  memcpy (q, buf + p->counters_off, size * ncounters);
  q += size * ncounters;
  memset (q, 0, pad);
  q += pad;
  memcpy (q, m->names, m->names_size);
  memcpy (q + m->names_size, buf + p->names_off, names_own);
  return 0;
}

int
map_join (struct lp_profile *prof, const struct map_set *set,
	  struct lp_err *err)
{
  const unsigned char *buf = prof->data;
  struct out o = { 0 };
  size_t off = 0;
  int index = 0;

  while (off < prof->size)
    {
      struct lean_prof p;
      if (le_read_u64 (buf + off) != LATEPGO_RAW_MAGIC_64)
	{
	  lp_seterr (err, "lean profile %d is not a 64-bit little-endian "
		     "profile, as lean builds write", index + 1);
	  free (o.buf);
	  return -1;
	}
      read_prof (buf, off, &p);
      if (p.h[LP_H_VERSION] & LP_VARIANT_DBG_CORRELATE)
	{
	  const struct map_entry *e = find_map (buf, &p, set, index, err);
	  if (!e || join_one (buf, &p, e, index, &o, err) < 0)
	    {
	      free (o.buf);
	      return -1;
	    }
	}
      else
	memcpy (out_reserve (&o, p.end - off), buf + off, p.end - off);
      /* Zeros may follow a profile (doc/raw-format.md section 1).  */
      off = p.end;
      while (off < prof->size && buf[off] == 0)
	off++;
      index++;
    }

  lp_profile_close (prof);
  prof->data = o.buf;
  prof->size = o.size;
  prof->mapped = 0;
  prof->lean_ok = 0;
  return lp_raw_read (prof, NULL, NULL, err);
}
