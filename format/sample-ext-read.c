/* sample-ext-read.c: decode LLVM's extensible binary sample profile
   (sample-ext.h) as LLVM 14's SampleProfileReaderExtBinary reads it:
   the section header table, then the name tables, the profiles and
   the function metadata (checksums, attributes) wherever the table
   puts them.  Every count and index is checked against what is left
   of its section, so that a truncated or corrupt file gets a message
   naming the section, never a read out of bounds or a huge
   allocation.  */

#define _GNU_SOURCE
#include "sample-ext.h"
#include "le.h"
#include "leb128.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Deeper inlinee nesting is taken for corruption (and would exhaust
   the stack).  */
#define MAX_DEPTH 1000

/* A section being read.  */
struct rd
{
  const unsigned char *p;
  size_t size, off;
  const char *what;		/* The section, for messages.  */
  struct lp_err *err;
  struct lp_sx_profile *prof;
};

static int
rd_fail (struct rd *r, const char *why)
{
  lp_seterr (r->err, "%s section: %s at byte %zu of its %zu", r->what, why,
	     r->off, r->size);
  return -1;
}

static int
rd_u (struct rd *r, uint64_t *v)
{
  switch (leb_read_u (r->p, r->size, &r->off, v))
    {
    case LEB_OK:
      return 0;
    case LEB_TRUNCATED:
      return rd_fail (r, "truncated");
    default:
      return rd_fail (r, "a number too big for 64 bits");
    }
}

/* A number that must fit in 32 bits.  */
static int
rd_u32 (struct rd *r, uint32_t *v)
{
  uint64_t x;
  if (rd_u (r, &x) < 0)
    return -1;
  if (x > UINT32_MAX)
    return rd_fail (r, "a number too big for 32 bits");
  *v = (uint32_t) x;
  return 0;
}

/* A count of items of at least MIN_BYTES each: no more than what is
   left of the section can hold.  */
static int
rd_count (struct rd *r, size_t min_bytes, size_t *n)
{
  uint64_t x;
  if (rd_u (r, &x) < 0)
    return -1;
  if (x > (r->size - r->off) / min_bytes)
    return rd_fail (r, "a count larger than the rest of the section holds "
		    "(truncated?)");
  *n = (size_t) x;
  return 0;
}

/* An index below LIMIT into the table WHAT.  */
static int
rd_index (struct rd *r, size_t limit, const char *what, uint32_t *v)
{
  uint64_t x;
  if (rd_u (r, &x) < 0)
    return -1;
  if (x >= limit)
    {
      lp_seterr (r->err, "%s section: %s index %" PRIu64 " at byte %zu, "
		 "but the table has %zu entries", r->what, what, x, r->off,
		 limit);
      return -1;
    }
  *v = (uint32_t) x;
  return 0;
}

static int
oom (struct lp_err *err)
{
  lp_seterr (err, "out of memory");
  return -1;
}

/* Make room for N more elements in *ARR (*NUM used, *CAP allocated).  */
static int
reserve (void **arr, size_t *cap, size_t num, size_t n, size_t size)
{
  if (num + n <= *cap)
    return 0;
  size_t c = *cap ? *cap : 16;
  while (c < num + n)
    c *= 2;
  void *a = realloc (*arr, c * size);
  if (!a)
    return -1;
  *arr = a;
  *cap = c;
  return 0;
}

#define RESERVE(arr, cap, num, n) \
  reserve ((void **) &(arr), &(cap), (num), (n), sizeof *(arr))


/* The name tables.  */

static int
read_names (struct rd *r, uint64_t flags)
{
  struct lp_sx_profile *prof = r->prof;
  size_t n;
  int md5 = (flags & LP_SX_FLAG_MD5) != 0;
  int fixed = md5 && (flags & LP_SX_FLAG_FIXED_MD5);
  if (rd_count (r, fixed ? 8 : 1, &n) < 0)
    return -1;
  prof->md5 = md5;
  free (prof->names);
  free (prof->name_len);
  free (prof->md5_text);
  prof->md5_text = NULL;
  prof->names = malloc ((n + 1) * sizeof *prof->names);
  prof->name_len = malloc ((n + 1) * sizeof *prof->name_len);
  if (md5)
    prof->md5_text = malloc (n * 21 + 1);
  if (!prof->names || !prof->name_len || (md5 && !prof->md5_text))
    return oom (r->err);
  prof->num_names = n;
  char *t = prof->md5_text;
  for (size_t i = 0; i < n; i++)
    {
      if (md5)
	{
	  uint64_t h;
	  if (fixed)
	    {
	      h = le_read_u64 (r->p + r->off);
	      r->off += 8;
	    }
	  else if (rd_u (r, &h) < 0)
	    return -1;
	  prof->names[i] = t;
	  prof->name_len[i] = sprintf (t, "%" PRIu64, h);
	  t += prof->name_len[i] + 1;
	  continue;
	}
      const unsigned char *z = memchr (r->p + r->off, 0, r->size - r->off);
      if (!z)
	return rd_fail (r, "a name without its terminating NUL (truncated?)");
      prof->names[i] = (const char *) r->p + r->off;
      prof->name_len[i] = z - (r->p + r->off);
      r->off += prof->name_len[i] + 1;
    }
  return 0;
}

static int
read_contexts (struct rd *r)
{
  struct lp_sx_profile *prof = r->prof;
  size_t n, cap = 0, num = 0;
  if (rd_count (r, 1, &n) < 0)
    return -1;
  free (prof->ctx_first);
  free (prof->frames);
  prof->frames = NULL;
  prof->ctx_first = malloc ((n + 1) * sizeof *prof->ctx_first);
  if (!prof->ctx_first)
    return oom (r->err);
  prof->num_contexts = n;
  for (size_t i = 0; i < n; i++)
    {
      size_t k;
      prof->ctx_first[i] = num;
      if (rd_count (r, 3, &k) < 0)
	return -1;
      if (k == 0)
	return rd_fail (r, "a context of no frames");
      if (RESERVE (prof->frames, cap, num, k) < 0)
	return oom (r->err);
      for (size_t j = 0; j < k; j++)
	{
	  struct lp_sx_frame *f = &prof->frames[num++];
	  if (rd_index (r, prof->num_names, "name", &f->name) < 0
	      || rd_u32 (r, &f->line) < 0 || rd_u32 (r, &f->disc) < 0)
	    return -1;
	}
    }
  prof->ctx_first[n] = num;
  return 0;
}


/* The profiles.  */

struct caps
{
  size_t funcs, recs, targets;
};

/* Read the body of function FI (its head, if top-level, already
   read).  TOP: its index is a context one when the profile has
   contexts.  */
static int
read_body (struct rd *r, struct caps *caps, size_t fi, int top, int depth)
{
  struct lp_sx_profile *prof = r->prof;
  size_t nrecs, ncalls;
  uint32_t ctx;
  uint64_t total;

  if (depth > MAX_DEPTH)
    return rd_fail (r, "inlinees nested too deep");
  if (top && prof->cs)
    {
      if (rd_index (r, prof->num_contexts, "context", &ctx) < 0)
	return -1;
    }
  else if (rd_index (r, prof->num_names, "name", &ctx) < 0)
    return -1;
  if (rd_u (r, &total) < 0 || rd_count (r, 4, &nrecs) < 0)
    return -1;
  if (RESERVE (prof->recs, caps->recs, prof->num_recs, nrecs) < 0)
    return oom (r->err);
  prof->funcs[fi].ctx = ctx;
  prof->funcs[fi].total = total;
  prof->funcs[fi].first_rec = prof->num_recs;
  prof->funcs[fi].num_recs = nrecs;
  size_t first = prof->num_recs;
  prof->num_recs += nrecs;
  for (size_t i = 0; i < nrecs; i++)
    {
      struct lp_sx_rec *rec = &prof->recs[first + i];
      size_t nt;
      if (rd_u32 (r, &rec->line) < 0 || rd_u32 (r, &rec->disc) < 0
	  || rd_u (r, &rec->count) < 0 || rd_count (r, 2, &nt) < 0)
	return -1;
      if (RESERVE (prof->targets, caps->targets, prof->num_targets, nt) < 0)
	return oom (r->err);
      rec->first_target = prof->num_targets;
      rec->num_targets = nt;
      for (size_t t = 0; t < nt; t++)
	{
	  struct lp_sx_target *tg = &prof->targets[prof->num_targets++];
	  if (rd_index (r, prof->num_names, "name", &tg->name) < 0
	      || rd_u (r, &tg->count) < 0)
	    return -1;
	}
    }
  if (rd_count (r, 5, &ncalls) < 0)
    return -1;
  /* The inlinees take consecutive slots; theirs come after.  */
  if (RESERVE (prof->funcs, caps->funcs, prof->num_funcs, ncalls) < 0)
    return oom (r->err);
  size_t fc = prof->num_funcs;
  prof->funcs[fi].first_call = fc;
  prof->funcs[fi].num_calls = ncalls;
  memset (&prof->funcs[fc], 0, ncalls * sizeof *prof->funcs);
  prof->num_funcs += ncalls;
  for (size_t i = 0; i < ncalls; i++)
    {
      uint32_t line, disc;
      if (rd_u32 (r, &line) < 0 || rd_u32 (r, &disc) < 0)
	return -1;
      prof->funcs[fc + i].line = line;
      prof->funcs[fc + i].disc = disc;
      if (read_body (r, caps, fc + i, 0, depth + 1) < 0)
	return -1;
    }
  return 0;
}

/* Read the top-level profiles in file order.  The inlinees of each
   follow it in FUNCS, so *TOP_AT says where each one is (top_first
   then moves them to the front).  */
static int
read_profiles (struct rd *r, size_t **top_at)
{
  struct lp_sx_profile *prof = r->prof;
  struct caps caps = { 0, 0, 0 };
  size_t cap_top = 0, num_top = 0;
  size_t *at = NULL;
  while (r->off < r->size)
    {
      uint64_t head;
      if (rd_u (r, &head) < 0)
	goto fail;
      if (RESERVE (prof->funcs, caps.funcs, prof->num_funcs, 1) < 0
	  || RESERVE (at, cap_top, num_top, 1) < 0)
	{
	  oom (r->err);
	  goto fail;
	}
      size_t fi = prof->num_funcs++;
      memset (&prof->funcs[fi], 0, sizeof *prof->funcs);
      prof->funcs[fi].head = head;
      at[num_top++] = fi;
      if (read_body (r, &caps, fi, 1, 0) < 0)
	goto fail;
    }
  *top_at = at;
  prof->num_top = num_top;
  return 0;
 fail:
  free (at);
  return -1;
}

/* Put the top-level profiles at FUNCS[0, NUM_TOP): a new array with
   them first, and every first_call renumbered.  A profile given twice
   is the last one, as in LLVM's reader (the others stay behind, out of
   the top-level ones).  */
static int
top_first (struct lp_sx_profile *prof, const size_t *top_at, struct lp_err *err)
{
  size_t n = prof->num_funcs, k = 0;
  size_t limit = prof->cs ? prof->num_contexts : prof->num_names;
  size_t *map = malloc ((n + 1) * sizeof *map);
  struct lp_sx_func *f = malloc ((n + 1) * sizeof *f);
  char *is_top = calloc (n + 1, 1);
  size_t *last = malloc ((limit + 1) * sizeof *last);
  if (!map || !f || !is_top || !last)
    {
      free (map);
      free (f);
      free (is_top);
      free (last);
      return oom (err);
    }
  for (size_t i = 0; i < prof->num_top; i++)
    last[prof->funcs[top_at[i]].ctx] = i;
  size_t num_top = 0;
  for (size_t i = 0; i < prof->num_top; i++)
    if (last[prof->funcs[top_at[i]].ctx] == i)
      {
	map[top_at[i]] = k++;
	is_top[top_at[i]] = 1;
	num_top++;
      }
  free (last);
  prof->num_top = num_top;
  for (size_t i = 0; i < n; i++)
    if (!is_top[i])
      map[i] = k++;
  for (size_t i = 0; i < n; i++)
    {
      f[map[i]] = prof->funcs[i];
      /* Inlinees of one function stay consecutive: none is top.  */
      if (prof->funcs[i].num_calls)
	f[map[i]].first_call = map[prof->funcs[i].first_call];
    }
  free (prof->funcs);
  prof->funcs = f;
  free (map);
  free (is_top);
  return 0;
}


/* The function metadata: checksums and attributes, of the top-level
   profiles by context and of their inlinees by call site and name.  */

static int
read_meta (struct rd *r, struct lp_sx_func *f, int depth)
{
  struct lp_sx_profile *prof = r->prof;
  if (depth > MAX_DEPTH)
    return rd_fail (r, "inlinees nested too deep");
  if (prof->probes)
    {
      uint64_t sum;
      if (rd_u (r, &sum) < 0)
	return -1;
      if (f)
	f->checksum = sum;
    }
  if (prof->attributes)
    {
      uint32_t a;
      if (rd_u32 (r, &a) < 0)
	return -1;
      if (f)
	f->attrs = a;
    }
  if (prof->cs)
    return 0;
  size_t n;
  if (rd_count (r, 3, &n) < 0)
    return -1;
  for (size_t i = 0; i < n; i++)
    {
      uint32_t line, disc, name;
      struct lp_sx_func *k = NULL;
      if (rd_u32 (r, &line) < 0 || rd_u32 (r, &disc) < 0
	  || rd_index (r, prof->num_names, "name", &name) < 0)
	return -1;
      for (size_t c = 0; f && c < f->num_calls; c++)
	{
	  struct lp_sx_func *g = &prof->funcs[f->first_call + c];
	  if (g->line == line && g->disc == disc && g->ctx == name)
	    k = g;
	}
      if (read_meta (r, k, depth + 1) < 0)
	return -1;
    }
  return 0;
}

static int
read_metadata (struct rd *r)
{
  struct lp_sx_profile *prof = r->prof;
  size_t limit = prof->cs ? prof->num_contexts : prof->num_names;
  size_t *by_ctx = calloc (limit + 1, sizeof *by_ctx);
  if (!by_ctx)
    return oom (r->err);
  for (size_t i = 0; i < prof->num_top; i++)
    by_ctx[prof->funcs[i].ctx] = i + 1;
  while (r->off < r->size)
    {
      uint32_t ctx;
      if (rd_index (r, limit, prof->cs ? "context" : "name", &ctx) < 0
	  || read_meta (r, by_ctx[ctx] ? &prof->funcs[by_ctx[ctx] - 1] : NULL,
			0) < 0)
	{
	  free (by_ctx);
	  return -1;
	}
    }
  free (by_ctx);
  return 0;
}


/* The file.  */

static const char *
section_name (uint64_t type)
{
  switch (type)
    {
    case LP_SX_SUMMARY: return "profile summary";
    case LP_SX_NAME_TABLE: return "name table";
    case LP_SX_SYMBOL_LIST: return "profile symbol list";
    case LP_SX_FUNC_OFFSETS: return "function offset table";
    case LP_SX_FUNC_METADATA: return "function metadata";
    case LP_SX_CS_NAME_TABLE: return "context name table";
    case LP_SX_PROFILES: return "function profiles";
    default: return "unknown";
    }
}

/* The magic number as its 9-byte ULEB128.  */
static const unsigned char magic_bytes[9] = {
  0x84, 0xe4, 0xd0, 0xb1, 0xf4, 0xc9, 0x94, 0xa8, 0x53
};

/* A file cut inside its magic number is one too: it gets the message
   of a truncated profile, not that of a bad text one.  */
int
lp_sx_is_ext (const unsigned char *p, size_t size)
{
  size_t n = size < sizeof magic_bytes ? size : sizeof magic_bytes;
  return n > 0 && memcmp (p, magic_bytes, n) == 0;
}

void
lp_sx_free (struct lp_sx_profile *prof)
{
  free (prof->names);
  free (prof->name_len);
  free (prof->frames);
  free (prof->ctx_first);
  free (prof->funcs);
  free (prof->recs);
  free (prof->targets);
  free (prof->md5_text);
  for (size_t i = 0; i < prof->num_inflated; i++)
    free (prof->inflated[i]);
  free (prof->inflated);
  memset (prof, 0, sizeof *prof);
}

struct sec
{
  uint64_t type, flags;
  const unsigned char *p;
  size_t size;
};

/* Inflate the compressed section S (ULEB128 sizes, then zlib data).  */
static int
inflate_section (struct lp_sx_profile *prof, struct sec *s,
		 struct lp_err *err)
{
  struct rd r = { s->p, s->size, 0, section_name (s->type), err, prof };
  uint64_t full, packed;
  if (rd_u (&r, &full) < 0 || rd_u (&r, &packed) < 0)
    return -1;
  if (packed > r.size - r.off)
    return rd_fail (&r, "compressed data runs past the end (truncated?)");
  /* zlib compresses at most about 1032:1.  */
  if (full > (packed + 1) * 1100)
    return rd_fail (&r, "an uncompressed size zlib cannot reach");
  unsigned char *out = malloc (full + 1);
  unsigned char **list = realloc (prof->inflated, (prof->num_inflated + 1)
				  * sizeof *list);
  if (!out || !list)
    {
      free (out);
      if (list)
	prof->inflated = list;
      return oom (err);
    }
  prof->inflated = list;
  list[prof->num_inflated++] = out;
  uLongf n = full;
  if (uncompress (out, &n, r.p + r.off, packed) != Z_OK || n != full)
    return rd_fail (&r, "compressed data that does not inflate");
  s->p = out;
  s->size = full;
  return 0;
}

int
lp_sx_decode (const unsigned char *p, size_t size,
	      struct lp_sx_profile *prof, struct lp_err *err)
{
  size_t off = 0, n;
  uint64_t magic, version, count;
  struct sec secs[8];
  size_t *top_at = NULL;

  memset (prof, 0, sizeof *prof);
  memset (secs, 0, sizeof secs);
  if (lp_sx_is_ext (p, size) && size < sizeof magic_bytes)
    {
      lp_seterr (err, "truncated extensible binary sample profile: it ends "
		 "in its magic number (%zu bytes)", size);
      return -1;
    }
  if (leb_read_u (p, size, &off, &magic) != LEB_OK || magic != LP_SX_MAGIC)
    {
      lp_seterr (err, "not an extensible binary sample profile");
      return -1;
    }
  if (leb_read_u (p, size, &off, &version) != LEB_OK)
    {
      lp_seterr (err, "truncated extensible binary sample profile: it ends "
		 "in its header (%zu bytes)", size);
      return -1;
    }
  if (version != LP_SX_VERSION)
    {
      lp_seterr (err, "extensible binary sample profile of version %" PRIu64
		 ": latepgo reads version %d (LLVM 12 to 14)", version,
		 LP_SX_VERSION);
      return -1;
    }
  if (size - off < 8)
    {
      lp_seterr (err, "truncated extensible binary sample profile: it ends "
		 "in its header (%zu bytes)", size);
      return -1;
    }
  count = le_read_u64 (p + off);
  off += 8;
  if (count > (size - off) / 32)
    {
      lp_seterr (err, "truncated extensible binary sample profile: its "
		 "section header table of %" PRIu64 " entries needs %" PRIu64
		 " bytes, the file has %zu", count,
		 (uint64_t) off + (count > UINT64_MAX / 64 ? 0 : count * 32),
		 size);
      return -1;
    }
  n = (size_t) count;
  for (size_t i = 0; i < n; i++, off += 32)
    {
      uint64_t type = le_read_u64 (p + off), flags = le_read_u64 (p + off + 8);
      uint64_t soff = le_read_u64 (p + off + 16), ssize = le_read_u64 (p + off + 24);
      if (ssize == 0)
	continue;
      if (soff > size || ssize > size - soff)
	{
	  lp_seterr (err, "truncated extensible binary sample profile: "
		     "its %s section (%" PRIu64 " bytes at offset %" PRIu64
		     ") runs past the end of the file (%zu bytes)",
		     section_name (type), ssize, soff, size);
	  return -1;
	}
      size_t slot;
      switch (type)
	{
	case LP_SX_SUMMARY: slot = 0; break;
	case LP_SX_NAME_TABLE: slot = 1; break;
	case LP_SX_CS_NAME_TABLE: slot = 2; break;
	case LP_SX_PROFILES: slot = 3; break;
	case LP_SX_FUNC_METADATA: slot = 4; break;
	default: continue;	/* Offsets, symbol list: not needed.  */
	}
      secs[slot].type = type;
      secs[slot].flags = flags;
      secs[slot].p = p + soff;
      secs[slot].size = ssize;
    }
  /* The summary's flags say whether there are contexts; the metadata's
     what each entry holds.  */
  prof->cs = (secs[0].flags & LP_SX_FLAG_FULL_CONTEXT) != 0;
  prof->preinlined = (secs[0].flags & LP_SX_FLAG_PREINLINED) != 0;
  prof->probes = (secs[4].flags & LP_SX_FLAG_PROBES) != 0;
  prof->attributes = (secs[4].flags & LP_SX_FLAG_ATTRIBUTES) != 0;
  for (int i = 1; i < 5; i++)
    {
      struct sec *s = &secs[i];
      if (!s->p)
	continue;
      if ((s->flags & LP_SX_FLAG_COMPRESS)
	  && inflate_section (prof, s, err) < 0)
	goto fail;
      struct rd r = { s->p, s->size, 0, section_name (s->type), err, prof };
      int bad;
      switch (i)
	{
	case 1: bad = read_names (&r, s->flags); break;
	case 2: bad = read_contexts (&r); break;
	case 3:
	  bad = read_profiles (&r, &top_at);
	  if (!bad)
	    bad = top_first (prof, top_at, err);
	  break;
	default: bad = read_metadata (&r); break;
	}
      if (bad)
	goto fail;
      if (i < 3 && r.off != r.size)
	{
	  rd_fail (&r, "bytes after the table");
	  goto fail;
	}
    }
  if (prof->cs && prof->num_top && !secs[2].p)
    {
      lp_seterr (err, "context profiles without a context name table");
      goto fail;
    }
  free (top_at);
  return 0;
 fail:
  free (top_at);
  lp_sx_free (prof);
  return -1;
}
