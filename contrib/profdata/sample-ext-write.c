/* sample-ext-write.c: write latepgo-profdata's sample profile
   (sample-prof.h) in LLVM's extensible binary format (format/sample-ext.h)
   as llvm-profdata 14's SampleProfileWriterExtBinary does: its seven
   sections in its layout, names and contexts sorted, profiles by total
   then context, the summary computed as LLVM's (for contexts, over the
   profiles merged by function).  The one difference: LLVM writes the
   function metadata in the order of its hash table; we write it in
   the profiles' order (doc/sample-format.md, "Extensible binary").  */

#define _GNU_SOURCE
#include "sample-prof.h"
#include "sample-ext.h"
#include "md5.h"
#include "profile.h"
#include "tool-util.h"

#include <stdlib.h>
#include <string.h>

/* A growing byte buffer.  */
struct buf
{
  unsigned char *p;
  size_t len, cap;
};

static void
put (struct buf *b, const void *s, size_t n)
{
  if (b->len + n > b->cap)
    {
      size_t c = b->cap ? b->cap : 4096;
      while (c < b->len + n)
	c *= 2;
      b->p = xrealloc (b->p, c);
      b->cap = c;
    }
  memcpy (b->p + b->len, s, n);
  b->len += n;
}

static void
uleb (struct buf *b, uint64_t v)
{
  unsigned char t[10];
  size_t n = 0;
  do
    {
      t[n] = v & 0x7f;
      v >>= 7;
      if (v)
	t[n] |= 0x80;
      n++;
    }
  while (v);
  put (b, t, n);
}

static void
u64 (struct buf *b, uint64_t v)
{
  unsigned char t[8];
  for (int i = 0; i < 8; i++)
    t[i] = (unsigned char) (v >> (8 * i));
  put (b, t, 8);
}


/* The name table: every name once, sorted, each name's index found
   by hashing.  */

struct names
{
  const char **v;
  size_t num, cap;
  size_t *slots;		/* Index + 1 into V.  */
  size_t num_slots;
};

static uint64_t
hash_str (const char *s, size_t len)
{
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) s[i]) * 1099511628211ull;
  return h;
}

static size_t *
slot_of (struct names *t, const char *s, size_t len)
{
  size_t mask = t->num_slots - 1, i = hash_str (s, len) & mask;
  for (; t->slots[i]; i = (i + 1) & mask)
    {
      const char *u = t->v[t->slots[i] - 1];
      if (strncmp (u, s, len) == 0 && u[len] == 0)
	break;
    }
  return &t->slots[i];
}

static void
rehash (struct names *t, size_t n)
{
  free (t->slots);
  t->num_slots = n;
  t->slots = xcalloc (n, sizeof *t->slots);
  for (size_t k = 0; k < t->num; k++)
    *slot_of (t, t->v[k], strlen (t->v[k])) = k + 1;
}

/* Add S (pointing into the profile, which outlives T).  */
static void
add_name (struct names *t, const char *s)
{
  if (!t->num_slots)
    rehash (t, 256);
  size_t *slot = slot_of (t, s, strlen (s));
  if (*slot)
    return;
  t->v = lp_grow (t->v, &t->cap, t->num, sizeof *t->v, 256);
  t->v[t->num++] = s;
  *slot = t->num;
  if (2 * t->num > t->num_slots)
    rehash (t, 2 * t->num_slots);
}

static size_t
name_index (struct names *t, const char *s, size_t len)
{
  return *slot_of (t, s, len) - 1;
}

static int
cmp_str (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}


/* Contexts: "[a:1 @ b:2.3 @ c]" split into frames.  A caller's call
   site is what follows its last ':' (LINE or LINE.DISC); the leaf has
   none.  LLVM's SampleContext::decodeContextString ends every frame's
   name at its first ':', which cuts latepgo's names of static
   functions ("file.c:f"); the two agree on names without ':'.  */

struct frame
{
  const char *name;		/* Into the context's copy.  */
  uint32_t line, disc;
};

struct ctx
{
  struct sp_func *f;
  char *copy;			/* The names, NUL-terminated.  */
  struct frame *frames;
  size_t num_frames;
  size_t index;			/* In the context name table.  */
};

static void
split_context (struct ctx *c)
{
  const char *name = c->f->name;
  size_t len = strlen (name);
  c->copy = xmalloc (len);
  memcpy (c->copy, name + 1, len - 2);
  c->copy[len - 2] = 0;
  size_t cap = 0;
  c->frames = NULL;
  c->num_frames = 0;
  for (char *s = c->copy;;)
    {
      char *at = strstr (s, " @ ");
      if (at)
	*at = 0;
      c->frames = lp_grow (c->frames, &cap, c->num_frames, sizeof *c->frames,
			   4);
      struct frame *fr = &c->frames[c->num_frames++];
      char *colon = at ? strrchr (s, ':') : NULL;
      fr->name = s;
      fr->line = fr->disc = 0;
      if (colon && colon[1] >= '0' && colon[1] <= '9')
	{
	  char *end;
	  unsigned long line = strtoul (colon + 1, &end, 10), disc = 0;
	  if (*end == '.' && end[1] >= '0' && end[1] <= '9')
	    disc = strtoul (end + 1, &end, 10);
	  if (!*end && line <= UINT32_MAX && disc <= UINT32_MAX)
	    {
	      *colon = 0;
	      fr->line = (uint32_t) line;
	      fr->disc = (uint32_t) disc;
	    }
	}
      if (!at)
	break;
      s = at + 3;
    }
}

/* SampleContext's operator<: frame by frame, name then call site;
   then the shorter first.  */
static int
cmp_ctx (const struct ctx *x, const struct ctx *y)
{
  size_t n = x->num_frames < y->num_frames ? x->num_frames : y->num_frames;
  for (size_t i = 0; i < n; i++)
    {
      const struct frame *a = &x->frames[i], *b = &y->frames[i];
      int c = strcmp (a->name, b->name);
      if (c)
	return c;
      if (a->line != b->line)
	return a->line < b->line ? -1 : 1;
      if (a->disc != b->disc)
	return a->disc < b->disc ? -1 : 1;
    }
  return x->num_frames < y->num_frames ? -1 : x->num_frames > y->num_frames;
}

static int
cmp_ctx_q (const void *a, const void *b)
{
  return cmp_ctx (*(const struct ctx *const *) a,
		  *(const struct ctx *const *) b);
}

/* The profiles' order: total samples, largest first, then context (or
   name).  */
static int
cmp_profile_q (const void *a, const void *b)
{
  const struct ctx *x = *(const struct ctx *const *) a;
  const struct ctx *y = *(const struct ctx *const *) b;
  if (x->f->total != y->f->total)
    return x->f->total > y->f->total ? -1 : 1;
  if (x->frames)
    return cmp_ctx (x, y);
  return strcmp (x->f->name, y->f->name);
}


/* The writer.  */

struct writer
{
  struct names names;
  int md5, cs, probes;
  struct buf out;
};

static void
collect_names (struct names *t, const struct sp_func *f)
{
  for (size_t i = 0; i < f->num_recs; i++)
    for (size_t k = 0; k < f->recs[i].num_targets; k++)
      add_name (t, f->recs[i].targets[k].name);
  for (size_t i = 0; i < f->num_calls; i++)
    {
      add_name (t, f->calls[i].f->name);
      collect_names (t, f->calls[i].f);
    }
}

static void
name_idx (struct writer *w, const char *s)
{
  uleb (&w->out, name_index (&w->names, s, strlen (s)));
}

/* SampleProfileWriterBinary::writeBody.  */
static void
write_body (struct writer *w, const struct sp_func *f, size_t ctx_index)
{
  uleb (&w->out, ctx_index);
  uleb (&w->out, f->total);
  uleb (&w->out, f->num_recs);
  for (size_t i = 0; i < f->num_recs; i++)
    {
      const struct sp_rec *r = &f->recs[i];
      uleb (&w->out, r->id);
      uleb (&w->out, r->disc);
      uleb (&w->out, r->count);
      uleb (&w->out, r->num_targets);
      for (size_t k = 0; k < r->num_targets; k++)
	{
	  name_idx (w, r->targets[k].name);
	  uleb (&w->out, r->targets[k].count);
	}
    }
  uleb (&w->out, f->num_calls);
  for (size_t i = 0; i < f->num_calls; i++)
    {
      const struct sp_func *k = f->calls[i].f;
      uleb (&w->out, f->calls[i].id);
      uleb (&w->out, f->calls[i].disc);
      write_body (w, k, name_index (&w->names, k->name, strlen (k->name)));
    }
}

/* writeFuncMetadata: the checksum, the attributes, and without
   contexts those of the inlinees.  */
static void
write_meta (struct writer *w, const struct sp_func *f)
{
  if (w->probes)
    uleb (&w->out, f->has_hash ? f->hash : 0);
  if (w->cs)
    uleb (&w->out, f->has_attrs ? (uint32_t) f->attrs : 0);
  if (w->cs)
    return;
  uleb (&w->out, f->num_calls);
  for (size_t i = 0; i < f->num_calls; i++)
    {
      uleb (&w->out, f->calls[i].id);
      uleb (&w->out, f->calls[i].disc);
      name_idx (w, f->calls[i].f->name);
      write_meta (w, f->calls[i].f);
    }
}

static int
any_hash (const struct sp_func *f)
{
  if (f->has_hash)
    return 1;
  for (size_t i = 0; i < f->num_calls; i++)
    if (any_hash (f->calls[i].f))
      return 1;
  return 0;
}


/* The summary (SampleProfileSummaryBuilder).  */

struct counts
{
  uint64_t *v;
  size_t num, cap;
};

static void
add_counts (struct counts *c, struct lp_summary *sum, const struct sp_func *f,
	    int probes)
{
  for (size_t i = 0; i < f->num_recs; i++)
    {
      uint64_t n = f->recs[i].count;
      if (probes && n == UINT64_MAX)
	continue;		/* InvalidProbeCount.  */
      c->v = lp_grow (c->v, &c->cap, c->num, sizeof *c->v, 1024);
      c->v[c->num++] = n;
      sum->total_count += n;
      if (n > sum->max_block_count)
	sum->max_block_count = n;
      sum->num_blocks++;
    }
  for (size_t i = 0; i < f->num_calls; i++)
    add_counts (c, sum, f->calls[i].f, probes);
}

static const char *
leaf_name (const struct ctx *c)
{
  return c->frames[c->num_frames - 1].name;
}

static int
cmp_leaf_q (const void *a, const void *b)
{
  const struct ctx *x = *(const struct ctx *const *) a;
  const struct ctx *y = *(const struct ctx *const *) b;
  int c = strcmp (leaf_name (x), leaf_name (y));
  if (c)
    return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

struct keyed
{
  uint64_t key, count;
};

static int
cmp_keyed (const void *a, const void *b)
{
  const struct keyed *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* With contexts, LLVM 14 merges the profiles of each function (its
   contexts' leaf) before counting, and a context whose checksum
   differs from the function's first is left out of the merge.  */
static void
summarize_cs (struct counts *c, struct lp_summary *sum, struct ctx **by,
	      size_t n, int probes)
{
  struct ctx **v = xmalloc ((n + 1) * sizeof *v);
  memcpy (v, by, n * sizeof *v);
  qsort (v, n, sizeof *v, cmp_leaf_q);
  struct keyed *recs = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < n;)
    {
      size_t j = i, num = 0;
      uint64_t head = 0;
      const struct sp_func *first = v[i]->f;
      for (; j < n && strcmp (leaf_name (v[j]), leaf_name (v[i])) == 0; j++)
	{
	  const struct sp_func *f = v[j]->f;
	  if (f->hash != first->hash)
	    continue;
	  head = lp_sat_add (head, f->head);
	  for (size_t r = 0; r < f->num_recs; r++)
	    {
	      recs = lp_grow (recs, &cap, num, sizeof *recs, 64);
	      recs[num].key = (uint64_t) f->recs[r].id << 32 | f->recs[r].disc;
	      recs[num++].count = f->recs[r].count;
	    }
	}
      sum->num_functions++;
      if (head > sum->max_function_count)
	sum->max_function_count = head;
      if (num > 1)
	qsort (recs, num, sizeof *recs, cmp_keyed);
      for (size_t r = 0; r < num;)
	{
	  uint64_t total = 0;
	  size_t s = r;
	  for (; s < num && recs[s].key == recs[r].key; s++)
	    total = lp_sat_add (total, recs[s].count);
	  struct sp_rec one = { 0 };
	  struct sp_func g = { 0 };
	  one.count = total;
	  g.recs = &one;
	  g.num_recs = 1;
	  add_counts (c, sum, &g, probes);
	  r = s;
	}
      i = j;
    }
  free (recs);
  free (v);
}

static void
write_summary (struct writer *w, struct ctx **by, size_t n)
{
  struct lp_summary sum;
  struct counts c = { NULL, 0, 0 };
  memset (&sum, 0, sizeof sum);
  if (w->cs)
    summarize_cs (&c, &sum, by, n, w->probes);
  else
    for (size_t i = 0; i < n; i++)
      {
	sum.num_functions++;
	if (by[i]->f->head > sum.max_function_count)
	  sum.max_function_count = by[i]->f->head;
	add_counts (&c, &sum, by[i]->f, w->probes);
      }
  lp_summary_entries (&sum, c.v, c.num, lp_default_cutoffs, LP_NUM_CUTOFFS);
  free (c.v);
  uleb (&w->out, sum.total_count);
  uleb (&w->out, sum.max_block_count);
  uleb (&w->out, sum.max_function_count);
  uleb (&w->out, sum.num_blocks);
  uleb (&w->out, sum.num_functions);
  uleb (&w->out, sum.num_entries);
  for (size_t i = 0; i < sum.num_entries; i++)
    {
      uleb (&w->out, sum.entries[i].cutoff);
      uleb (&w->out, sum.entries[i].min_count);
      uleb (&w->out, sum.entries[i].num_blocks);
    }
}

/* A name table entry of an MD5 profile: the hash, or the name itself
   when it is one (read from an MD5 profile; llvm-profdata 14 hashes
   those again, a bug).  */
static uint64_t
md5_of (const struct writer *w, const char *s, int names_md5)
{
  if (names_md5 && *s)
    {
      char *end;
      unsigned long long v = strtoull (s, &end, 10);
      if (!*end && *s >= '0' && *s <= '9')
	return v;
    }
  (void) w;
  return lp_md5low64 (s, strlen (s));
}

/* The section header table's order, LLVM 14's DefaultLayout.  */
static const uint64_t layout[7] = {
  LP_SX_SUMMARY, LP_SX_NAME_TABLE, LP_SX_CS_NAME_TABLE, LP_SX_FUNC_OFFSETS,
  LP_SX_PROFILES, LP_SX_SYMBOL_LIST, LP_SX_FUNC_METADATA
};

int
sp_write_ext (struct sp_profile *p, FILE *out, int md5, char *err,
	      size_t errlen)
{
  struct writer w;
  size_t n = p->num_funcs, num_cs = 0;
  memset (&w, 0, sizeof w);
  w.md5 = md5;
  for (size_t i = 0; i < n; i++)
    {
      const char *name = p->funcs[i]->name;
      size_t len = strlen (name);
      if (len >= 2 && name[0] == '[' && name[len - 1] == ']')
	num_cs++;
      w.probes |= any_hash (p->funcs[i]);
    }
  if (num_cs && num_cs != n)
    {
      snprintf (err, errlen, "the profile mixes contexts ([a:1 @ b]) and "
		"plain functions: the extensible binary format holds one or "
		"the other (llvm-profdata 14 writes a file its reader rejects)");
      return -1;
    }
  w.cs = num_cs > 0;
  sp_sort_bodies (p);

  struct ctx *ctxs = xcalloc (n + 1, sizeof *ctxs);
  struct ctx **by = xmalloc ((n + 1) * sizeof *by);
  for (size_t i = 0; i < n; i++)
    {
      ctxs[i].f = p->funcs[i];
      by[i] = &ctxs[i];
      if (w.cs)
	{
	  split_context (&ctxs[i]);
	  for (size_t k = 0; k < ctxs[i].num_frames; k++)
	    add_name (&w.names, ctxs[i].frames[k].name);
	}
      else
	add_name (&w.names, p->funcs[i]->name);
      collect_names (&w.names, p->funcs[i]);
    }
  /* Names and contexts sorted (stablizeNameTable, the ordered
     contexts); the hash table then maps each name to its index.  */
  if (w.names.num > 1)
    qsort (w.names.v, w.names.num, sizeof *w.names.v, cmp_str);
  if (w.names.num_slots)
    rehash (&w.names, w.names.num_slots);
  if (w.cs)
    {
      if (n > 1)
	qsort (by, n, sizeof *by, cmp_ctx_q);
      for (size_t i = 0; i < n; i++)
	by[i]->index = i;
    }

  size_t off[7], size[7];
  uint64_t flags[7] = { 0 };
  /* The header: magic, version, the table, written last.  */
  uleb (&w.out, LP_SX_MAGIC);
  uleb (&w.out, LP_SX_VERSION);
  u64 (&w.out, 7);
  size_t table = w.out.len;
  for (int i = 0; i < 7 * 4; i++)
    u64 (&w.out, 0);

  /* SecProfSummary.  */
  off[0] = w.out.len;
  write_summary (&w, by, n);
  size[0] = w.out.len - off[0];
  if (w.cs)
    flags[0] |= LP_SX_FLAG_FULL_CONTEXT;
  if (w.cs && p->preinlined > 0)
    flags[0] |= LP_SX_FLAG_PREINLINED;

  /* SecNameTable.  */
  off[1] = w.out.len;
  uleb (&w.out, w.names.num);
  for (size_t i = 0; i < w.names.num; i++)
    {
      const char *s = w.names.v[i];
      if (md5)
	u64 (&w.out, md5_of (&w, s, p->md5_names));
      else
	put (&w.out, s, strlen (s) + 1);
      if (strstr (s, ".__uniq."))
	flags[1] |= LP_SX_FLAG_UNIQ_SUFFIX;
    }
  size[1] = w.out.len - off[1];
  if (md5)
    flags[1] |= LP_SX_FLAG_MD5 | LP_SX_FLAG_FIXED_MD5;

  /* SecCSNameTable.  */
  off[2] = w.out.len;
  uleb (&w.out, w.cs ? n : 0);
  for (size_t i = 0; w.cs && i < n; i++)
    {
      uleb (&w.out, by[i]->num_frames);
      for (size_t k = 0; k < by[i]->num_frames; k++)
	{
	  name_idx (&w, by[i]->frames[k].name);
	  uleb (&w.out, by[i]->frames[k].line);
	  uleb (&w.out, by[i]->frames[k].disc);
	}
    }
  size[2] = w.out.len - off[2];

  /* SecLBRProfile, in the profiles' order; each one's offset kept for
     the offset table.  */
  struct ctx **order = xmalloc ((n + 1) * sizeof *order);
  uint64_t *at = xmalloc ((n + 1) * sizeof *at);
  memcpy (order, by, n * sizeof *order);
  if (n > 1)
    qsort (order, n, sizeof *order, cmp_profile_q);
  off[4] = w.out.len;
  for (size_t i = 0; i < n; i++)
    {
      const struct sp_func *f = order[i]->f;
      at[i] = w.out.len - off[4];
      uleb (&w.out, f->head);
      write_body (&w, f, w.cs ? order[i]->index
				: name_index (&w.names, f->name,
					      strlen (f->name)));
    }
  size[4] = w.out.len - off[4];

  /* SecProfileSymbolList: none.  */
  off[5] = w.out.len;
  size[5] = 0;

  /* SecFuncOffsetTable: in context order with contexts (each context's
     offset found through its profile's rank), else the profiles'.  */
  off[3] = w.out.len;
  uleb (&w.out, n);
  if (w.cs)
    {
      uint64_t *by_index = xmalloc ((n + 1) * sizeof *by_index);
      for (size_t i = 0; i < n; i++)
	by_index[order[i]->index] = at[i];
      for (size_t i = 0; i < n; i++)
	{
	  uleb (&w.out, i);
	  uleb (&w.out, by_index[i]);
	}
      free (by_index);
      flags[3] |= LP_SX_FLAG_ORDERED;
    }
  else
    for (size_t i = 0; i < n; i++)
      {
	name_idx (&w, order[i]->f->name);
	uleb (&w.out, at[i]);
      }
  size[3] = w.out.len - off[3];

  /* SecFuncMetadata.  */
  off[6] = w.out.len;
  if (w.probes || w.cs)
    for (size_t i = 0; i < n; i++)
      {
	const struct sp_func *f = order[i]->f;
	if (w.cs)
	  uleb (&w.out, order[i]->index);
	else
	  name_idx (&w, f->name);
	write_meta (&w, f);
      }
  size[6] = w.out.len - off[6];
  if (w.probes)
    flags[6] |= LP_SX_FLAG_PROBES;
  if (w.cs)
    flags[6] |= LP_SX_FLAG_ATTRIBUTES;

  /* The table, in the layout's order.  */
  for (int i = 0; i < 7; i++)
    {
      unsigned char *e = w.out.p + table + 32 * i;
      uint64_t v[4] = { layout[i], flags[i], off[i], size[i] };
      for (int k = 0; k < 4; k++)
	for (int b = 0; b < 8; b++)
	  e[8 * k + b] = (unsigned char) (v[k] >> (8 * b));
    }

  int r = fwrite (w.out.p, 1, w.out.len, out) == w.out.len ? 0 : -2;
  for (size_t i = 0; i < n; i++)
    {
      free (ctxs[i].copy);
      free (ctxs[i].frames);
    }
  free (ctxs);
  free (by);
  free (order);
  free (at);
  free (w.out.p);
  free (w.names.v);
  free (w.names.slots);
  return r;
}
