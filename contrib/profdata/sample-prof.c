/* sample-prof.c: LLVM's text sample profiles in latepgo-profdata
   (sample-prof.h): parse, merge, write.  The grammar is that of
   doc/sample-format.md, plus what llvm-profdata's text reader takes
   that latepgo-profgen does not write: line-based ids with
   discriminators ("3.1: N"), functions without !CFGChecksum, and CS
   context headers "[main:2 @ foo]:TOTAL:HEAD".  */

#define _GNU_SOURCE
#include "sample-prof.h"
#include "sample-ext.h"
#include "tool-util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void
sp_profile_init (struct sp_profile *p)
{
  memset (p, 0, sizeof *p);
}


/* Memory.  A profile read only to be merged into another and freed
   gets it from an arena (sp_profile_init_arena): big blocks, freed at
   once, rather than a malloc for every line and name.  The arena of
   the profile being read is per thread: sample-cmd.c reads inputs on
   several.  */

#define ARENA_BLOCK (64 * 1024)

struct sp_arena
{
  char **blocks;		/* The NUM_BIG big ones first.  */
  size_t num_blocks, cap_blocks, num_big;
  char *cur;
  size_t left;
};

static __thread struct sp_arena *cur_arena;

/* Freed blocks of ARENA_BLOCK bytes, for the next arena: a block
   allocated on a reading thread and freed on the merging one would
   otherwise go back to the system and come again, page by page.  */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static char **pool;
static size_t pool_num, pool_cap;

static char *
new_block (void)
{
  char *b = NULL;
  pthread_mutex_lock (&pool_mu);
  if (pool_num)
    b = pool[--pool_num];
  pthread_mutex_unlock (&pool_mu);
  return b ? b : xmalloc (ARENA_BLOCK);
}

static void
free_block (char *b)
{
  pthread_mutex_lock (&pool_mu);
  /* Enough for a few profiles in flight; the rest go.  */
  if (pool_num < 1024)
    {
      pool = lp_grow (pool, &pool_cap, pool_num, sizeof *pool, 64);
      pool[pool_num++] = b;
      b = NULL;
    }
  pthread_mutex_unlock (&pool_mu);
  free (b);
}

/* N bytes, not cleared.  */
static void *
a_raw (size_t n)
{
  struct sp_arena *a = cur_arena;
  if (!a)
    return xmalloc (n ? n : 1);
  n = (n + 15) & ~(size_t) 15;
  if (n > a->left)
    {
      /* A block of its own for a big request, kept out of the pool.  */
      if (n > ARENA_BLOCK)
	{
	  a->blocks = lp_grow (a->blocks, &a->cap_blocks, a->num_blocks,
			       sizeof *a->blocks, 16);
	  memmove (a->blocks + 1, a->blocks, a->num_blocks * sizeof *a->blocks);
	  a->num_blocks++;
	  a->num_big++;
	  return a->blocks[0] = xmalloc (n);
	}
      a->blocks = lp_grow (a->blocks, &a->cap_blocks, a->num_blocks,
			   sizeof *a->blocks, 16);
      a->blocks[a->num_blocks++] = a->cur = new_block ();
      a->left = ARENA_BLOCK;
    }
  void *v = a->cur;
  a->cur += n;
  a->left -= n;
  return v;
}

static void *
a_zalloc (size_t n)
{
  return memset (a_raw (n), 0, n);
}

static void
a_free (void *v)
{
  if (!cur_arena)
    free (v);
}

/* lp_grow, from the arena when there is one.  */
static void *
a_grow (void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
  if (!cur_arena)
    return lp_grow (arr, cap, n, size, first);
  if (n < *cap)
    return arr;
  size_t c = *cap ? 2 * *cap : first;
  /* The arena's last allocation grows where it is.  */
  size_t old = (*cap * size + 15) & ~(size_t) 15;
  size_t grown = (c * size + 15) & ~(size_t) 15;
  struct sp_arena *a = cur_arena;
  if (arr && (char *) arr + old == a->cur && grown - old <= a->left)
    {
      a->cur += grown - old;
      a->left -= grown - old;
      *cap = c;
      return arr;
    }
  void *v = a_raw (c * size);
  if (n)
    memcpy (v, arr, n * size);
  *cap = c;
  return v;
}

static char *
a_strndup (const char *s, size_t len)
{
  char *d = a_raw (len + 1);
  memcpy (d, s, len);
  d[len] = 0;
  return d;
}

void
sp_profile_init_arena (struct sp_profile *p)
{
  sp_profile_init (p);
  p->arena = xcalloc (1, sizeof *p->arena);
}

static void
free_func (struct sp_func *f)
{
  /* In an arena, everything goes at once (sp_profile_free).  */
  if (!f || cur_arena)
    return;
  for (size_t i = 0; i < f->num_recs; i++)
    {
      for (size_t t = 0; t < f->recs[i].num_targets; t++)
	free (f->recs[i].targets[t].name);
      free (f->recs[i].targets);
      free (f->recs[i].sizes);
    }
  for (size_t i = 0; i < f->num_calls; i++)
    free_func (f->calls[i].f);
  for (size_t i = 0; i < f->num_branches; i++)
    {
      free (f->branches[i].src);
      free (f->branches[i].to[0]);
      free (f->branches[i].to[1]);
    }
  free (f->recs);
  free (f->calls);
  free (f->branches);
  free (f->name);
  free (f);
}

void
sp_profile_free (struct sp_profile *p)
{
  if (p->arena)
    {
      for (size_t i = 0; i < p->arena->num_blocks; i++)
	if (i < p->arena->num_big)
	  free (p->arena->blocks[i]);
	else
	  free_block (p->arena->blocks[i]);
      free (p->arena->blocks);
      free (p->arena);
      sp_profile_init (p);
      return;
    }
  for (size_t i = 0; i < p->num_funcs; i++)
    free_func (p->funcs[i]);
  free (p->funcs);
  free (p->slots);
  sp_profile_init (p);
}

static struct sp_func *
new_func (const char *name, size_t len)
{
  struct sp_func *f = a_zalloc (sizeof *f);
  f->name = a_strndup (name, len);
  return f;
}

static uint64_t
hash_name (const char *s)
{
  uint64_t h = 14695981039346656037ull;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  return h;
}

/* The top-level function NAME of P, created if CREATE.  */
static struct sp_func *
lookup (struct sp_profile *p, const char *name, int create)
{
  if (p->num_slots == 0)
    {
      if (!create)
	return NULL;
      p->num_slots = 64;
      p->slots = a_zalloc (p->num_slots * sizeof *p->slots);
    }
  size_t mask = p->num_slots - 1, i = hash_name (name) & mask;
  for (; p->slots[i]; i = (i + 1) & mask)
    if (strcmp (p->funcs[p->slots[i] - 1]->name, name) == 0)
      return p->funcs[p->slots[i] - 1];
  if (!create)
    return NULL;
  p->funcs = a_grow (p->funcs, &p->cap_funcs, p->num_funcs,
		     sizeof *p->funcs, 64);
  struct sp_func *f = new_func (name, strlen (name));
  p->funcs[p->num_funcs++] = f;
  p->slots[i] = p->num_funcs;
  if (2 * p->num_funcs > p->num_slots)
    {
      a_free (p->slots);
      p->num_slots *= 2;
      p->slots = a_zalloc (p->num_slots * sizeof *p->slots);
      mask = p->num_slots - 1;
      for (size_t k = 0; k < p->num_funcs; k++)
	{
	  size_t j = hash_name (p->funcs[k]->name) & mask;
	  while (p->slots[j])
	    j = (j + 1) & mask;
	  p->slots[j] = k + 1;
	}
    }
  return f;
}

size_t
sp_index (const struct sp_profile *p, const char *name)
{
  if (p->num_slots == 0)
    return 0;
  size_t mask = p->num_slots - 1, i = hash_name (name) & mask;
  for (; p->slots[i]; i = (i + 1) & mask)
    if (strcmp (p->funcs[p->slots[i] - 1]->name, name) == 0)
      return p->slots[i];
  return 0;
}

/* The body line ID.DISC of F, created if CREATE.  F->recs is kept
   sorted by id and discriminator: a binary search, and lines read in
   order are appended.  */
static uint64_t
rec_key (const struct sp_rec *r)
{
  return (uint64_t) r->id << 32 | r->disc;
}

static inline __attribute__ ((always_inline)) struct sp_rec *
find_rec (struct sp_func *f, uint32_t id, uint32_t disc, int create)
{
  size_t lo = 0, hi = f->num_recs;
  uint64_t key = (uint64_t) id << 32 | disc;
  if (hi && rec_key (&f->recs[hi - 1]) < key)
    lo = hi;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      uint64_t k = rec_key (&f->recs[mid]);
      if (k == key)
	return &f->recs[mid];
      if (k < key)
	lo = mid + 1;
      else
	hi = mid;
    }
  if (!create)
    return NULL;
  /* The merge of many profiles does this for every line read.  */
  if (f->num_recs == f->cap_recs)
    f->recs = a_grow (f->recs, &f->cap_recs, f->num_recs, sizeof *f->recs,
		      8);
  if (lo < f->num_recs)
    memmove (&f->recs[lo + 1], &f->recs[lo],
	     (f->num_recs - lo) * sizeof *f->recs);
  f->num_recs++;
  struct sp_rec *r = &f->recs[lo];
  memset (r, 0, sizeof *r);
  r->id = id;
  r->disc = disc;
  return r;
}

static void
add_target (struct sp_rec *r, const char *name, size_t len, uint64_t n)
{
  for (size_t i = 0; i < r->num_targets; i++)
    if (strlen (r->targets[i].name) == len
	&& memcmp (r->targets[i].name, name, len) == 0)
      {
	r->targets[i].count = lp_sat_add (r->targets[i].count, n);
	return;
      }
  r->targets = a_grow (r->targets, &r->cap_targets, r->num_targets,
		       sizeof *r->targets, 2);
  struct sp_target *t = &r->targets[r->num_targets++];
  t->name = a_strndup (name, len);
  t->count = n;
}

static void
add_size (struct sp_rec *r, uint64_t size, uint64_t n)
{
  for (size_t i = 0; i < r->num_sizes; i++)
    if (r->sizes[i].size == size)
      {
	r->sizes[i].count = lp_sat_add (r->sizes[i].count, n);
	return;
      }
  r->sizes = a_grow (r->sizes, &r->cap_sizes, r->num_sizes,
		     sizeof *r->sizes, 2);
  r->sizes[r->num_sizes].size = size;
  r->sizes[r->num_sizes++].count = n;
}

/* C against the inlinee NAME (LEN bytes) at ID.DISC, in sp_write's
   order: id, discriminator, name.  */
static int
call_cmp (const struct sp_callsite *c, uint32_t id, uint32_t disc,
	  const char *name, size_t len)
{
  if (c->id != id)
    return c->id < id ? -1 : 1;
  if (c->disc != disc)
    return c->disc < disc ? -1 : 1;
  int r = strncmp (c->f->name, name, len);
  return r ? r : c->f->name[len] != 0;
}

/* The inlinee NAME at ID.DISC of F, created if CREATE (*CREATED then
   set when it was).  F->calls is kept sorted, as F->recs: a binary
   search, and inlinees read in order are appended.  */
static struct sp_func *
find_call (struct sp_func *f, uint32_t id, uint32_t disc, const char *name,
	   size_t len, int create, int *created)
{
  size_t lo = 0, hi = f->num_calls;
  if (hi && call_cmp (&f->calls[hi - 1], id, disc, name, len) < 0)
    lo = hi;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      int c = call_cmp (&f->calls[mid], id, disc, name, len);
      if (c == 0)
	return f->calls[mid].f;
      if (c < 0)
	lo = mid + 1;
      else
	hi = mid;
    }
  if (!create)
    return NULL;
  if (created)
    *created = 1;
  f->calls = a_grow (f->calls, &f->cap_calls, f->num_calls,
		     sizeof *f->calls, 4);
  memmove (&f->calls[lo + 1], &f->calls[lo],
	   (f->num_calls - lo) * sizeof *f->calls);
  f->num_calls++;
  struct sp_callsite *c = &f->calls[lo];
  c->id = id;
  c->disc = disc;
  c->f = new_func (name, len);
  return c->f;
}

static void
add_branch (struct sp_func *f, const char *src, const char *to0,
	    const char *to1, uint64_t n0, uint64_t n1)
{
  for (size_t i = 0; i < f->num_branches; i++)
    {
      struct sp_branch *b = &f->branches[i];
      if (strcmp (b->src, src) == 0 && strcmp (b->to[0], to0) == 0
	  && strcmp (b->to[1], to1) == 0)
	{
	  b->count[0] = lp_sat_add (b->count[0], n0);
	  b->count[1] = lp_sat_add (b->count[1], n1);
	  return;
	}
    }
  f->branches = a_grow (f->branches, &f->cap_branches, f->num_branches,
			sizeof *f->branches, 2);
  struct sp_branch *b = &f->branches[f->num_branches++];
  b->src = a_strndup (src, strlen (src));
  b->to[0] = a_strndup (to0, strlen (to0));
  b->to[1] = a_strndup (to1, strlen (to1));
  b->count[0] = n0;
  b->count[1] = n1;
}


/* Parsing.  */

struct parser
{
  char *err;
  size_t errlen;
  unsigned long lineno;
  uint64_t weight;
};

static int
fail (struct parser *ps, const char *fmt, ...)
{
  va_list ap;
  int n = snprintf (ps->err, ps->errlen, "line %lu: ", ps->lineno);
  if (n < 0 || (size_t) n >= ps->errlen)
    return -1;
  va_start (ap, fmt);
  vsnprintf (ps->err + n, ps->errlen - n, fmt, ap);
  va_end (ap);
  return -1;
}

/* A decimal number filling [S, E); -1 if not (or above 2^64-1).
   One pass: the merge of many profiles reads little else.  */
static int
num (const char *s, const char *e, uint64_t *v)
{
  uint64_t x = 0;
  if (s == e || e - s > 20)
    return -1;
  for (const char *c = s; c < e; c++)
    {
      unsigned d = (unsigned char) *c - '0';
      if (d > 9 || __builtin_mul_overflow (x, 10, &x)
	  || __builtin_add_overflow (x, d, &x))
	return -1;
    }
  *v = x;
  return 0;
}

/* Split "NAME:N" in [S, E) at its last ':'; the name is [S, *NAME_END).  */
static int
split_count (const char *s, const char *e, const char **name_end,
	     uint64_t *n)
{
  const char *c = e;
  while (c > s && c[-1] != ':')
    c--;
  if (c == s || c - 1 == s || num (c, e, n) < 0)
    return -1;
  *name_end = c - 1;
  return 0;
}

/* A list of ids "1,2,3" filling [S, E).  */
static int
id_list (const char *s, const char *e)
{
  const char *c = s;
  while (c < e)
    {
      const char *d = c;
      uint64_t v;
      while (d < e && *d != ',')
	d++;
      if (num (c, d, &v) < 0 || v == 0 || v > UINT32_MAX)
	return -1;
      c = d < e ? d + 1 : d;
      if (d < e && c == e)
	return -1;
    }
  return s < e ? 0 : -1;
}

static int
parse_branch (struct parser *ps, struct sp_func *f, const char *p,
	      const char *e)
{
  const char *src = p, *c = memchr (p, ':', e - p), *to[2], *to_end[2];
  uint64_t n[2];
  if (!c || id_list (src, c) < 0)
    return -1;
  const char *src_end = c++;
  for (int k = 0; k < 2; k++)
    {
      if (c >= e || *c++ != ' ')
	return -1;
      to[k] = c;
      const char *sp = memchr (c, ' ', e - c);
      const char *end = sp ? sp : e;
      const char *colon = memchr (c, ':', end - c);
      if (!colon || id_list (c, colon) < 0 || num (colon + 1, end, &n[k]) < 0)
	return -1;
      to_end[k] = colon;
      c = end;
    }
  if (c != e)
    return -1;
  char *s = strndup (src, src_end - src);
  char *t0 = strndup (to[0], to_end[0] - to[0]);
  char *t1 = strndup (to[1], to_end[1] - to[1]);
  if (!s || !t0 || !t1)
    lp_fatal (NULL, "out of memory");
  add_branch (f, s, t0, t1, lp_sat_mul (n[0], ps->weight),
	      lp_sat_mul (n[1], ps->weight));
  free (s);
  free (t0);
  free (t1);
  return 0;
}

static int
parse_sizes (struct parser *ps, struct sp_func *f, const char *p,
	     const char *e)
{
  const char *c = memchr (p, ':', e - p);
  uint64_t id;
  if (!c || num (p, c, &id) < 0 || id == 0 || id > UINT32_MAX)
    return -1;
  struct sp_rec *r = find_rec (f, id, 0, 0);
  if (!r)
    return fail (ps, "#sizes %" PRIu64 " without a body line of probe "
		 "%" PRIu64 " before it", id, id);
  c++;
  if (c == e)
    return -1;
  while (c < e)
    {
      uint64_t size, n;
      if (*c++ != ' ')
	return -1;
      const char *sp = memchr (c, ' ', e - c);
      const char *end = sp ? sp : e;
      const char *colon = memchr (c, ':', end - c);
      if (!colon || num (c, colon, &size) < 0
	  || num (colon + 1, end, &n) < 0)
	return -1;
      add_size (r, size, lp_sat_mul (n, ps->weight));
      c = end;
    }
  return 0;
}

#define MAX_DEPTH 256

static int
parse_text (struct sp_profile *prof, const char *buf, size_t len,
	    uint64_t weight, char *err, size_t errlen)
{
  struct parser ps = { err, errlen, 0, weight };
  /* The open bodies: STACK[D] is the function whose body lines are
     indented D + 1; DEPTH of them are open.  */
  struct sp_func *stack[MAX_DEPTH];
  int depth = 0;
  /* Whether the innermost function got a body or inlinee line yet.  */
  int top_has_lines = 0;
  const char *p = buf, *end = buf + len;
  /* Lines are searched for a tab only when the text has one.  */
  int has_tab = len && memchr (buf, '\t', len) != NULL;

  if (errlen)
    err[0] = 0;
  if (len && memchr (buf, 0, len))
    return fail (&ps, "a NUL byte: not a text sample profile, nor an "
		 "extensible binary one (convert others with llvm-profdata "
		 "merge --sample --text or --extbinary)");
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *e = nl ? nl : end, *next = nl ? nl + 1 : end;
      ps.lineno++;
      if (e > p && e[-1] == '\r')
	e--;
      int indent = 0;
      while (p + indent < e && p[indent] == ' ')
	indent++;
      const char *s = p + indent;

      if (indent == 0 && e - s > 1 && *s == '#')
	{
	  int bad = 0;
	  if (e - s >= 14 && memcmp (s, "#first-sample ", 14) == 0)
	    {
	      uint64_t rank;
	      if (depth != 1 || top_has_lines || num (s + 14, e, &rank) < 0
		  || rank == 0)
		return fail (&ps, "bad #first-sample line (expected "
			     "#first-sample RANK after a function's header "
			     "line)");
	      if (!stack[0]->first_sample || rank < stack[0]->first_sample)
		stack[0]->first_sample = rank;
	    }
	  else if (e - s >= 7 && memcmp (s, "#sizes ", 7) == 0)
	    {
	      if (depth == 0)
		bad = 1;
	      else
		{
		  int r = parse_sizes (&ps, stack[depth - 1], s + 7, e);
		  if (r < 0 && ps.err[0])
		    return -1;
		  bad = r < 0;
		}
	      if (bad)
		return fail (&ps, "bad #sizes line (expected #sizes ID: "
			     "SIZE:COUNT ... after a function's body line)");
	    }
	  else if (e - s >= 8 && memcmp (s, "#branch ", 8) == 0)
	    {
	      if (depth == 0 || parse_branch (&ps, stack[depth - 1], s + 8,
					       e) < 0)
		return fail (&ps, "bad #branch line (expected #branch "
			     "ID[,ID...]: ID[,ID...]:COUNT ID[,ID...]:COUNT "
			     "after a function's body lines)");
	    }
	  p = next;
	  continue;
	}
      if (s == e || *s == '#')
	{
	  p = next;
	  continue;
	}
      if (has_tab && memchr (p, '\t', e - p))
	return fail (&ps, "a tab (indentation is one space per level)");
      if (indent == 0)
	{
	  /* NAME:TOTAL:HEAD.  */
	  const char *name_end, *tot_end;
	  uint64_t total, head;
	  if (split_count (s, e, &tot_end, &head) < 0
	      || split_count (s, tot_end, &name_end, &total) < 0)
	    return fail (&ps, "bad function header (expected NAME:TOTAL:HEAD)");
	  struct sp_func *f = new_func (s, name_end - s);
	  struct sp_func *old = lookup (prof, f->name, 0);
	  if (old)
	    {
	      fail (&ps, "function '%s' appears twice", f->name);
	      free_func (f);
	      return -1;
	    }
	  old = lookup (prof, f->name, 1);
	  free_func (f);
	  old->total = lp_sat_mul (total, weight);
	  old->head = lp_sat_mul (head, weight);
	  stack[0] = old;
	  depth = 1;
	  top_has_lines = 0;
	  p = next;
	  continue;
	}
      if (depth == 0)
	return fail (&ps, "an indented line before any function header");
      if (indent > depth)
	return fail (&ps, "indented %d, deeper than the open body (%d)",
		     indent, depth);
      depth = indent;
      struct sp_func *f = stack[depth - 1];
      top_has_lines = 1;
      if (*s == '!')
	{
	  const char *c = memchr (s, ':', e - s);
	  uint64_t v;
	  if (!c || c + 1 >= e || c[1] != ' ' || num (c + 2, e, &v) < 0)
	    return fail (&ps, "bad metadata line (expected !KEY: N)");
	  if (c - s == 12 && memcmp (s, "!CFGChecksum", 12) == 0)
	    {
	      f->hash = v;
	      f->has_hash = 1;
	    }
	  else if (c - s == 11 && memcmp (s, "!Attributes", 11) == 0)
	    {
	      f->attrs = v;
	      f->has_attrs = 1;
	      if (depth == 1 && (v & 2) && f->name[0] == '[')
		prof->preinlined = 1;
	    }
	  else
	    return fail (&ps, "unknown metadata '%.*s'", (int) (c - s), s);
	  p = next;
	  continue;
	}
      /* ID[.DISC]: ...  */
      const char *c = s;
      uint64_t id, disc = 0;
      while (c < e && *c >= '0' && *c <= '9')
	c++;
      if (num (s, c, &id) < 0 || id > UINT32_MAX)
	return fail (&ps, "bad body line (expected ID: COUNT or ID: "
		     "NAME:TOTAL)");
      if (c < e && *c == '.')
	{
	  const char *d = ++c;
	  while (c < e && *c >= '0' && *c <= '9')
	    c++;
	  if (num (d, c, &disc) < 0 || disc > UINT32_MAX)
	    return fail (&ps, "bad discriminator");
	}
      if (c + 1 >= e || c[0] != ':' || c[1] != ' ' || c + 2 == e)
	return fail (&ps, "bad body line (expected ID: COUNT or ID: "
		     "NAME:TOTAL)");
      c += 2;
      if (*c >= '0' && *c <= '9')
	{
	  const char *sp = memchr (c, ' ', e - c);
	  const char *ce = sp ? sp : e;
	  uint64_t n;
	  if (num (c, ce, &n) < 0)
	    return fail (&ps, "bad count");
	  size_t before = f->num_recs;
	  struct sp_rec *r = find_rec (f, id, disc, 1);
	  if (f->num_recs == before)
	    return fail (&ps, "a second body line of %" PRIu64, id);
	  r->count = lp_sat_mul (n, weight);
	  c = ce;
	  while (c < e)
	    {
	      const char *name_end;
	      uint64_t tn;
	      while (c < e && *c == ' ')
		c++;
	      if (c == e)
		break;
	      sp = memchr (c, ' ', e - c);
	      ce = sp ? sp : e;
	      if (split_count (c, ce, &name_end, &tn) < 0)
		return fail (&ps, "bad call target (expected NAME:COUNT)");
	      add_target (r, c, name_end - c, lp_sat_mul (tn, weight));
	      c = ce;
	    }
	}
      else
	{
	  const char *name_end;
	  uint64_t total;
	  if (split_count (c, e, &name_end, &total) < 0)
	    return fail (&ps, "bad inlinee line (expected ID: NAME:TOTAL)");
	  int created = 0;
	  struct sp_func *k = find_call (f, id, disc, c, name_end - c, 1,
					 &created);
	  if (!created)
	    return fail (&ps, "a second inlinee %.*s at %" PRIu64,
			 (int) (name_end - c), c, id);
	  if (depth + 1 >= MAX_DEPTH)
	    return fail (&ps, "inlinees nested deeper than %d", MAX_DEPTH);
	  k->total = lp_sat_mul (total, weight);
	  stack[depth++] = k;
	}
      p = next;
    }
  return 0;
}

int
sp_parse (struct sp_profile *prof, const char *buf, size_t len,
	  uint64_t weight, char *err, size_t errlen)
{
  cur_arena = prof->arena;
  int r = parse_text (prof, buf, len, weight, err, errlen);
  cur_arena = NULL;
  return r;
}

struct sp_func *
sp_top (struct sp_profile *p, const char *name)
{
  return lookup (p, name, 1);
}

struct sp_rec *
sp_rec_at (struct sp_func *f, uint32_t id, uint32_t disc)
{
  return find_rec (f, id, disc, 1);
}

void
sp_add_target (struct sp_rec *r, const char *name, size_t len, uint64_t n)
{
  add_target (r, name, len, n);
}

struct sp_func *
sp_call_at (struct sp_func *f, uint32_t id, uint32_t disc, const char *name,
	    size_t len)
{
  return find_call (f, id, disc, name, len, 1, NULL);
}

void
sp_use_arena (struct sp_profile *p)
{
  cur_arena = p ? p->arena : NULL;
}


/* Merging.  */

static void
merge_body (struct sp_func *d, const struct sp_func *s, const char *path,
	    const char *top, size_t *conflicts);

/* Add S into D, unless their checksums differ.  D keeps the
   !Attributes of the first input that had the function (FRESH), as
   llvm-profdata 14 keeps its first context's.  */
static void
merge_func (struct sp_func *d, const struct sp_func *s, int fresh,
	    const char *path, const char *top, size_t *conflicts)
{
  if (fresh)
    {
      d->hash = s->hash;
      d->has_hash = s->has_hash;
      d->attrs = s->attrs;
      d->has_attrs = s->has_attrs;
    }
  else if (d->has_hash != s->has_hash || d->hash != s->hash)
    {
      if (d->name == top || strcmp (d->name, top) == 0)
	lp_warning (path, "%s: function hash mismatch (!CFGChecksum "
		    "%" PRIu64 ", merged so far %" PRIu64 "): its samples in "
		    "this input are left out", top, s->hash, d->hash);
      else
	lp_warning (path, "%s: inlinee %s: function hash mismatch "
		    "(!CFGChecksum %" PRIu64 ", merged so far %" PRIu64 "): "
		    "its samples in this input are left out", top, d->name,
		    s->hash, d->hash);
      ++*conflicts;
      return;
    }
  d->total = lp_sat_add (d->total, s->total);
  d->head = lp_sat_add (d->head, s->head);
  if (s->first_sample
      && (!d->first_sample || s->first_sample < d->first_sample))
    d->first_sample = s->first_sample;
  merge_body (d, s, path, top, conflicts);
}

/* Give D a body line for every one of S's it lacks, in one merge of
   the two sorted lists (rather than an insertion each).  */
static void
add_missing_recs (struct sp_func *d, const struct sp_func *s)
{
  size_t missing = 0, i = 0, j = 0;
  while (j < s->num_recs)
    if (i < d->num_recs && rec_key (&d->recs[i]) < rec_key (&s->recs[j]))
      i++;
    else
      {
	if (i == d->num_recs || rec_key (&d->recs[i]) != rec_key (&s->recs[j]))
	  missing++;
	else
	  i++;
	j++;
      }
  if (!missing)
    return;
  size_t n = d->num_recs + missing;
  struct sp_rec *v = xmalloc (n * sizeof *v);
  size_t k = 0;
  i = j = 0;
  while (i < d->num_recs || j < s->num_recs)
    {
      if (j == s->num_recs
	  || (i < d->num_recs && rec_key (&d->recs[i]) <= rec_key (&s->recs[j])))
	{
	  if (j < s->num_recs && rec_key (&d->recs[i]) == rec_key (&s->recs[j]))
	    j++;
	  v[k++] = d->recs[i++];
	}
      else
	{
	  memset (&v[k], 0, sizeof v[k]);
	  v[k].id = s->recs[j].id;
	  v[k++].disc = s->recs[j++].disc;
	}
    }
  free (d->recs);
  d->recs = v;
  d->num_recs = d->cap_recs = n;
}

static void
merge_body (struct sp_func *d, const struct sp_func *s, const char *path,
	    const char *top, size_t *conflicts)
{
  add_missing_recs (d, s);
  /* Every line of S is in D now, both sorted: walk them together.  */
  size_t at = 0;
  for (size_t i = 0; i < s->num_recs; i++)
    {
      const struct sp_rec *sr = &s->recs[i];
      while (rec_key (&d->recs[at]) != rec_key (sr))
	at++;
      struct sp_rec *dr = &d->recs[at];
      dr->count = lp_sat_add (dr->count, sr->count);
      for (size_t t = 0; t < sr->num_targets; t++)
	add_target (dr, sr->targets[t].name, strlen (sr->targets[t].name),
		    sr->targets[t].count);
      for (size_t z = 0; z < sr->num_sizes; z++)
	add_size (dr, sr->sizes[z].size, sr->sizes[z].count);
    }
  for (size_t i = 0; i < s->num_branches; i++)
    {
      const struct sp_branch *b = &s->branches[i];
      add_branch (d, b->src, b->to[0], b->to[1], b->count[0], b->count[1]);
    }
  for (size_t i = 0; i < s->num_calls; i++)
    {
      const struct sp_callsite *c = &s->calls[i];
      int fresh = 0;
      struct sp_func *k = find_call (d, c->id, c->disc, c->f->name,
				     strlen (c->f->name), 1, &fresh);
      merge_func (k, c->f, fresh, path, top, conflicts);
    }
}

size_t
sp_merge (struct sp_profile *dst, const struct sp_profile *src,
	  const char *path)
{
  size_t conflicts = 0;
  dst->md5_names |= src->md5_names;
  if (src->preinlined >= 0)
    dst->preinlined = src->preinlined;
  for (size_t i = 0; i < src->num_funcs; i++)
    {
      const struct sp_func *s = src->funcs[i];
      struct sp_func *d = lookup (dst, s->name, 0);
      int fresh = !d;
      if (!d)
	d = lookup (dst, s->name, 1);
      merge_func (d, s, fresh, path, s->name, &conflicts);
    }
  return conflicts;
}


/* Writing.  */

static int
cmp_func (const void *a, const void *b)
{
  const struct sp_func *x = *(struct sp_func *const *) a;
  const struct sp_func *y = *(struct sp_func *const *) b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp (x->name, y->name);
}

static int
cmp_rec (const void *a, const void *b)
{
  const struct sp_rec *x = a, *y = b;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return x->disc < y->disc ? -1 : x->disc > y->disc;
}

static int
cmp_call (const void *a, const void *b)
{
  const struct sp_callsite *x = a, *y = b;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  if (x->disc != y->disc)
    return x->disc < y->disc ? -1 : 1;
  return strcmp (x->f->name, y->f->name);
}

/* Call targets as LLVM writes them: most samples first, then name.  */
static int
cmp_target (const void *a, const void *b)
{
  const struct sp_target *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Sizes as latepgo-profgen writes them: most samples first, then
   smaller sizes.  */
static int
cmp_size (const void *a, const void *b)
{
  const struct sp_size *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->size < y->size ? -1 : x->size > y->size;
}

static int
cmp_branch (const void *a, const void *b)
{
  const struct sp_branch *x = a, *y = b;
  int c = strcmp (x->src, y->src);
  if (!c)
    c = strcmp (x->to[0], y->to[0]);
  if (!c)
    c = strcmp (x->to[1], y->to[1]);
  return c;
}

/* qsort, which must not be given a null array even of 0 elements.  */
static void
sort (void *v, size_t n, size_t size, int (*cmp) (const void *, const void *))
{
  if (n > 1)
    qsort (v, n, size, cmp);
}

static void
sort_func (struct sp_func *f)
{
  sort (f->recs, f->num_recs, sizeof *f->recs, cmp_rec);
  for (size_t i = 0; i < f->num_recs; i++)
    {
      sort (f->recs[i].targets, f->recs[i].num_targets,
	     sizeof *f->recs[i].targets, cmp_target);
      sort (f->recs[i].sizes, f->recs[i].num_sizes,
	     sizeof *f->recs[i].sizes, cmp_size);
    }
  sort (f->calls, f->num_calls, sizeof *f->calls, cmp_call);
  sort (f->branches, f->num_branches, sizeof *f->branches, cmp_branch);
  for (size_t i = 0; i < f->num_calls; i++)
    sort_func (f->calls[i].f);
}

static void
write_loc (FILE *out, int depth, uint32_t id, uint32_t disc)
{
  fprintf (out, "%*s%" PRIu32, depth, "", id);
  if (disc)
    fprintf (out, ".%" PRIu32, disc);
  fputs (": ", out);
}

static void
write_body (FILE *out, const struct sp_func *f, int depth)
{
  for (size_t i = 0; i < f->num_recs; i++)
    {
      const struct sp_rec *r = &f->recs[i];
      write_loc (out, depth, r->id, r->disc);
      fprintf (out, "%" PRIu64, r->count);
      for (size_t t = 0; t < r->num_targets; t++)
	fprintf (out, " %s:%" PRIu64, r->targets[t].name,
		 r->targets[t].count);
      fputc ('\n', out);
      if (r->num_sizes)
	{
	  fprintf (out, "#sizes %" PRIu32 ":", r->id);
	  for (size_t z = 0; z < r->num_sizes; z++)
	    fprintf (out, " %" PRIu64 ":%" PRIu64, r->sizes[z].size,
		     r->sizes[z].count);
	  fputc ('\n', out);
	}
    }
  for (size_t i = 0; i < f->num_branches; i++)
    {
      const struct sp_branch *b = &f->branches[i];
      fprintf (out, "#branch %s: %s:%" PRIu64 " %s:%" PRIu64 "\n", b->src,
	       b->to[0], b->count[0], b->to[1], b->count[1]);
    }
  for (size_t i = 0; i < f->num_calls; i++)
    {
      const struct sp_func *k = f->calls[i].f;
      write_loc (out, depth, f->calls[i].id, f->calls[i].disc);
      fprintf (out, "%s:%" PRIu64 "\n", k->name, k->total);
      write_body (out, k, depth + 1);
    }
  if (f->has_hash)
    fprintf (out, "%*s!CFGChecksum: %" PRIu64 "\n", depth, "", f->hash);
  if (f->has_attrs)
    fprintf (out, "%*s!Attributes: %" PRIu64 "\n", depth, "", f->attrs);
}

void
sp_sort_bodies (struct sp_profile *p)
{
  for (size_t i = 0; i < p->num_funcs; i++)
    sort_func (p->funcs[i]);
}

int
sp_write (struct sp_profile *p, FILE *out)
{
  sort (p->funcs, p->num_funcs, sizeof *p->funcs, cmp_func);
  /* The hash table's indices are stale now: rebuild it.  */
  if (p->num_slots)
    {
      memset (p->slots, 0, p->num_slots * sizeof *p->slots);
      for (size_t k = 0; k < p->num_funcs; k++)
	{
	  size_t j = hash_name (p->funcs[k]->name) & (p->num_slots - 1);
	  while (p->slots[j])
	    j = (j + 1) & (p->num_slots - 1);
	  p->slots[j] = k + 1;
	}
    }
  for (size_t i = 0; i < p->num_funcs; i++)
    {
      struct sp_func *f = p->funcs[i];
      sort_func (f);
      fprintf (out, "%s:%" PRIu64 ":%" PRIu64 "\n", f->name, f->total,
	       f->head);
      if (f->first_sample)
	fprintf (out, "#first-sample %" PRIu64 "\n", f->first_sample);
      write_body (out, f, 1);
    }
  return ferror (out) ? -1 : 0;
}
