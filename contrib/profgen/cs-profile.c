/* cs-profile.c: context-sensitive probe-based profiles (cs-profile.h).  */

#include "cs-profile.h"
#include "preinline.h"
#include "lower-bound.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "index-table.h"
#include "tool-util.h"

/* A range or a branch seen in a context, COUNT times.  */
struct cs_pair
{
  uint64_t a, b, count;
};

/* A sample context: binary BIN, call probes KEY[0..LEN) (probe
   indices of the set, outermost first), and what ran in it.  */
struct cs_context
{
  size_t bin;
  size_t *key;
  size_t len;
  struct cs_pair *ranges, *branches;
  size_t num_ranges, cap_ranges, num_branches, cap_branches;
  /* IP samples: (region, 0) and their count.  */
  struct cs_pair *ips;
  size_t num_ips, cap_ips;
};

/* A frame of a profile's context: a function name and a probe index
   (0 for the leaf).  */
struct cs_frame
{
  uint64_t name;		/* A const char * from a descriptor.  */
  uint64_t index;
};

struct cs_state
{
  struct cs_context *ctxs;
  size_t num_ctxs, cap_ctxs;
  struct index_table ctx_index;
  /* The current stack of the unwinder (frame addresses, outermost
     first) and a scratch key.  */
  uint64_t *stack;
  size_t cap_stack;
  size_t *key;
  size_t cap_key;
  /* Output profiles.  */
  struct cs_func *funcs;
  size_t num_funcs, cap_funcs;
  struct index_table func_index;
};

static uint64_t
hash_bytes (const void *p, size_t n, uint64_t h)
{
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ s[i]) * 1099511628211ULL;
  return h;
}

static size_t
rank_u64 (const uint64_t *a, size_t n, uint64_t key)
{
  return lp_lower_bound_u64 (a, n, sizeof *a, key);
}

/* The call instruction at ADDR, or NULL.  */
static const struct call_insn *
call_insn_at (const struct probe_regions *regs, uint64_t addr)
{
  size_t lo = lp_lower_bound_u64 (regs->call_insns, regs->num_call_insns,
				  sizeof *regs->call_insns, addr);
  if (lo < regs->num_call_insns && regs->call_insns[lo].addr == addr)
    return &regs->call_insns[lo];
  return NULL;
}

/* The call probe of the call (or tail jump) at ADDR, or SIZE_MAX
   (llvm-profgen's getCallProbeForAddr).  */
static size_t
call_probe_at (const struct probe_regions *regs, uint64_t addr)
{
  const struct call_insn *c = call_insn_at (regs, addr);
  return c ? c->probe : SIZE_MAX;
}

/* True if ADDR is a call instruction (not a jump).  */
static int
is_call (const struct probe_regions *regs, uint64_t addr)
{
  const struct call_insn *c = call_insn_at (regs, addr);
  return c && c->is_call;
}

static int
is_return (const struct probe_regions *regs, uint64_t addr)
{
  size_t i = rank_u64 (regs->rets, regs->num_rets, addr);
  return i < regs->num_rets && regs->rets[i] == addr;
}

/* The call instruction right before return address RET, or 0
   (llvm-profgen's getCallAddrFromFrameAddr).  */
static uint64_t
call_before (const struct probe_regions *regs, uint64_t ret)
{
  size_t i = rank_u64 (regs->insn_addrs, regs->num_insn_addrs, ret);
  if (i == 0)
    return 0;
  uint64_t prev = regs->insn_addrs[i - 1];
  return is_call (regs, prev) ? prev : 0;
}

/* llvm-profgen's compressRecursionContext with no size limit: keep
   one copy of adjacent repeated sequences of the N elements of SIZE
   bytes at BASE, shortest first.  Returns the new length.  */
static size_t
compress_recursion (void *base, size_t n, size_t size)
{
  unsigned char *c = base;
#define EL(i) (c + (size_t) (i) * size)
  size_t max_dedup = n / 2;
  for (size_t i = 1; i <= max_dedup; i++)
    {
      long right = (long) i - 1;
      size_t end = i;
      long left_boundary = 0;
      long I = (long) i;
      while ((size_t) (right + I) < n)
	{
	  long left = right;
	  while (left >= left_boundary
		 && memcmp (EL (left), EL (left + I), size) == 0)
	    left--;
	  int dup = left < left_boundary;
	  left_boundary = right + 1;
	  if (dup)
	    right += I;
	  else
	    {
	      size_t cnt = (size_t) (left + I - right);
	      memmove (EL (end), EL (right + 1), cnt * size);
	      end += cnt;
	      right = left + I;
	    }
	}
      size_t rest = n - (size_t) right - 1;
      memmove (EL (end), EL (right + 1), rest * size);
      end += rest;
      n = end;
      if (n / 2 < max_dedup)
	max_dedup = n / 2;
    }
#undef EL
  return n;
}

void
cs_init (struct cs_profile *cs, size_t num,
	 const struct elf_file *const *elfs,
	 const struct probe_set *const *sets,
	 const struct probe_regions *const *regs)
{
  memset (cs, 0, sizeof *cs);
  cs->num_bins = num;
  cs->sets = sets;
  cs->regs = regs;
  cs->elfs = elfs;
  cs->state = xcalloc (1, sizeof *cs->state);
  index_table_init (&cs->state->ctx_index);
  index_table_init (&cs->state->func_index);
}

/* The context of binary BIN for the stack frames STACK[0..D): their
   call probes after the last frame without one, compressed.  */
static struct cs_context *
find_context (struct cs_profile *cs, size_t bin, const uint64_t *stack,
	      size_t d)
{
  struct cs_state *st = cs->state;
  const struct probe_regions *regs = cs->regs[bin];
  if (st->cap_key < d + 1)
    {
      st->cap_key = 2 * (d + 1);
      st->key = xrealloc (st->key, st->cap_key * sizeof *st->key);
    }
  size_t len = 0;
  for (size_t i = 0; i < d; i++)
    {
      size_t p = call_probe_at (regs, stack[i]);
      if (p == SIZE_MAX)
	len = 0;
      else
	st->key[len++] = p;
    }
  len = compress_recursion (st->key, len, sizeof *st->key);
  uint64_t h = hash_bytes (st->key, len * sizeof *st->key,
			   14695981039346656037ULL ^ bin);
  size_t s;
  for (s = index_table_start (&st->ctx_index, h); st->ctx_index.slots[s];
       s = index_table_next (&st->ctx_index, s))
    {
      struct cs_context *c = &st->ctxs[st->ctx_index.slots[s] - 1];
      if (st->ctx_index.hashes[s] == h && c->bin == bin && c->len == len
	  && memcmp (c->key, st->key, len * sizeof *st->key) == 0)
	return c;
    }
  st->ctxs = lp_grow (st->ctxs, &st->cap_ctxs, st->num_ctxs,
		      sizeof *st->ctxs, 64);
  struct cs_context *c = &st->ctxs[st->num_ctxs];
  memset (c, 0, sizeof *c);
  c->bin = bin;
  c->len = len;
  c->key = xmalloc ((len + 1) * sizeof *c->key);
  memcpy (c->key, st->key, len * sizeof *c->key);
  index_table_add (&st->ctx_index, s, h, (uint32_t) st->num_ctxs);
  st->num_ctxs++;
  return c;
}

static int cmp_pair (const void *a, const void *b);

/* Sort the N pairs of ARR and sum equal ones; return how many are
   left.  */
static size_t
merge_pairs (struct cs_pair *arr, size_t n)
{
  if (n == 0)
    return 0;
  qsort (arr, n, sizeof *arr, cmp_pair);
  size_t m = 0;
  for (size_t i = 1; i < n; i++)
    if (arr[i].a == arr[m].a && arr[i].b == arr[m].b)
      arr[m].count = lp_sat_add (arr[m].count, arr[i].count);
    else
      arr[++m] = arr[i];
  return m + 1;
}

static void
add_pair (struct cs_pair **arr, size_t *num, size_t *cap, uint64_t a,
	  uint64_t b, uint64_t count)
{
  /* A full array of many pairs is merged before it grows: a long run
     repeats the same ranges.  */
  if (*num == *cap && *num >= 1024)
    *num = merge_pairs (*arr, *num);
  *arr = lp_grow (*arr, cap, *num, sizeof **arr, 16);
  (*arr)[*num].a = a;
  (*arr)[*num].b = b;
  (*arr)[*num].count = count;
  ++*num;
}

void
cs_add_sample (struct cs_profile *cs, const struct branch_sample *s,
	       const struct lbr_entry *e, size_t n)
{
  struct cs_state *st = cs->state;
  cs->samples = lp_sat_add (cs->samples, s->count);
  if (!s->has_stack || s->num_frames == 0)
    {
      cs->no_stack = lp_sat_add (cs->no_stack, s->count);
      return;
    }
  int bin = s->frame_bins[0];
  if (bin < 0 || n == 0)
    {
      cs->outside = lp_sat_add (cs->outside, s->count);
      return;
    }
  const struct probe_regions *regs = cs->regs[bin];
  if (regions_in_prologue (regs, s->frames[0]))
    {
      cs->prologue = lp_sat_add (cs->prologue, s->count);
      return;
    }
  /* The frames, leaf first, into the stack, outermost first.  */
  size_t d = 1;
  for (size_t i = 1; i < s->num_frames; i++, d++)
    if (s->frame_bins[i] != bin || call_before (regs, s->frames[i]) == 0)
      break;
  if (st->cap_stack < d + n + 1)
    {
      st->cap_stack = 2 * (d + n + 1);
      st->stack = xrealloc (st->stack, st->cap_stack * sizeof *st->stack);
    }
  for (size_t i = 1; i < d; i++)
    st->stack[d - 1 - i] = call_before (regs, s->frames[i]);
  /* llvm-profgen puts the leaf at the newest record's target.  */
  st->stack[d - 1] = e[0].to;
  uint64_t ip = e[0].to;
  cs->unwound = lp_sat_add (cs->unwound, s->count);

  for (size_t i = 0; i < n; i++)
    {
      const struct lbr_entry *r = &e[i];
      if (r->from_bin != bin)
	break;
      if (i > 0 && r->to_bin == bin && r->to <= ip)
	{
	  struct cs_context *c = find_context (cs, bin, st->stack, d - 1);
	  add_pair (&c->ranges, &c->num_ranges, &c->cap_ranges, r->to, ip,
		    s->count);
	}
      uint64_t call;
      if (is_call (regs, r->from))
	{
	  /* A call: back in the caller's frame.  */
	  if (d < 2 || st->stack[d - 2] != r->from)
	    st->stack[d - 1] = r->from;
	  else
	    d--;
	}
      else if (is_return (regs, r->from) && r->to_bin == bin
	       && (call = call_before (regs, r->to)) != 0)
	{
	  /* A return: the callee's frame, called from before the
	     return's target.  */
	  st->stack[d - 1] = call;
	  st->stack[d++] = r->from;
	}
      else
	st->stack[d - 1] = r->from;
      ip = r->from;
      if (!r->artificial && r->to_bin == bin)
	{
	  struct cs_context *c = find_context (cs, bin, st->stack, d - 1);
	  add_pair (&c->branches, &c->num_branches, &c->cap_branches,
		    r->from, r->to, s->count);
	}
    }
}

/* The call instruction holding ADDR, or 0.  */
static uint64_t
call_holding (const struct probe_regions *regs, uint64_t addr)
{
  size_t i = rank_u64 (regs->insn_addrs, regs->num_insn_addrs, addr + 1);
  if (i == 0)
    return 0;
  uint64_t insn = regs->insn_addrs[i - 1];
  return is_call (regs, insn) ? insn : 0;
}

void
cs_add_ip_sample (struct cs_profile *cs, uint64_t count, size_t n,
		  const int *bins, const uint64_t *frames)
{
  struct cs_state *st = cs->state;
  cs->ip_samples = lp_sat_add (cs->ip_samples, count);
  if (n == 0 || bins[0] < 0)
    {
      cs->ip_outside = lp_sat_add (cs->ip_outside, count);
      return;
    }
  int bin = bins[0];
  const struct probe_regions *regs = cs->regs[bin];
  size_t r = regions_region_at (regs, frames[0]);
  if (r == SIZE_MAX)
    {
      cs->ip_outside = lp_sat_add (cs->ip_outside, count);
      return;
    }
  /* The frames after the leaf, each a call, until one is not.  */
  size_t d = 0;
  for (size_t i = 1; i < n; i++, d++)
    if (bins[i] != bin || frames[i] == 0
	|| call_holding (regs, frames[i] - 1) == 0)
      break;
  if (st->cap_stack < d + 1)
    {
      st->cap_stack = 2 * (d + 1);
      st->stack = xrealloc (st->stack, st->cap_stack * sizeof *st->stack);
    }
  for (size_t i = 1; i <= d; i++)
    st->stack[d - i] = call_holding (regs, frames[i] - 1);
  struct cs_context *c = find_context (cs, (size_t) bin, st->stack, d);
  add_pair (&c->ips, &c->num_ips, &c->cap_ips, r, 0, count);
  cs->ip_counted = lp_sat_add (cs->ip_counted, count);
}

/* The inline context of probe P of SET: the frames of its callers
   inlined in the binary, outermost first (each a caller and the
   call-site probe), appended to OUT at *N (room for them is made);
   then, if WITH_LEAF, P's function and index.  Returns 0 when a
   function has no descriptor.  */
static int
inline_context (const struct probe_set *set, size_t p, int with_leaf,
		struct cs_frame **out, size_t *n, size_t *cap)
{
  size_t depth = 0;
  for (uint32_t nd = set->probes[p].node;
       set->nodes[nd].parent != PROBE_NO_NODE; nd = set->nodes[nd].parent)
    depth++;
  if (*cap < *n + depth + 2)
    {
      *cap = 2 * (*n + depth + 2);
      *out = xrealloc (*out, *cap * sizeof **out);
    }
  size_t i = *n + depth;
  for (uint32_t nd = set->probes[p].node;
       set->nodes[nd].parent != PROBE_NO_NODE; nd = set->nodes[nd].parent)
    {
      const struct probe_desc *pd
	= probe_find_desc (set, set->nodes[set->nodes[nd].parent].guid);
      if (!pd)
	return 0;
      i--;
      (*out)[i].name = (uint64_t) (uintptr_t) pd->name;
      (*out)[i].index = set->nodes[nd].call_index;
    }
  *n += depth;
  if (with_leaf)
    {
      const struct probe_desc *d
	= probe_find_desc (set, set->nodes[set->probes[p].node].guid);
      if (!d)
	return 0;
      (*out)[*n].name = (uint64_t) (uintptr_t) d->name;
      (*out)[*n].index = set->probes[p].index;
      ++*n;
    }
  return 1;
}

/* The profile of context FRAMES[0..N) (their indices) and leaf
   function LEAF, created when new.  */
static struct cs_func *
get_func (struct cs_state *st, const struct cs_frame *frames, size_t n,
	  const char *leaf)
{
  size_t len = strlen (leaf) + 1;
  for (size_t i = 0; i < n; i++)
    len += strlen ((const char *) (uintptr_t) frames[i].name) + 24;
  char *s = xmalloc (len);
  char *q = s;
  for (size_t i = 0; i < n; i++)
    q += sprintf (q, "%s:%" PRIu64 " @ ",
		  (const char *) (uintptr_t) frames[i].name, frames[i].index);
  strcpy (q, leaf);
  uint64_t h = hash_bytes (s, strlen (s), 14695981039346656037ULL);
  size_t slot;
  for (slot = index_table_start (&st->func_index, h);
       st->func_index.slots[slot];
       slot = index_table_next (&st->func_index, slot))
    {
      struct cs_func *f = &st->funcs[st->func_index.slots[slot] - 1];
      if (st->func_index.hashes[slot] == h && strcmp (f->ctx, s) == 0)
	{
	  free (s);
	  return f;
	}
    }
  st->funcs = lp_grow (st->funcs, &st->cap_funcs, st->num_funcs,
		       sizeof *st->funcs, 64);
  struct cs_func *f = &st->funcs[st->num_funcs];
  memset (f, 0, sizeof *f);
  f->ctx = s;
  index_table_add (&st->func_index, slot, h, (uint32_t) st->num_funcs);
  st->num_funcs++;
  return f;
}


static int
cmp_size (const void *a, const void *b)
{
  size_t x = *(const size_t *) a, y = *(const size_t *) b;
  return x < y ? -1 : x > y;
}

static int
cmp_pair (const void *a, const void *b)
{
  const struct cs_pair *x = a, *y = b;
  if (x->a != y->a)
    return x->a < y->a ? -1 : 1;
  if (x->b != y->b)
    return x->b < y->b ? -1 : 1;
  return 0;
}

/* Per binary: the probes of each inline node (CSR arrays).  */
struct node_probes
{
  size_t *first;		/* num_nodes + 1.  */
  size_t *probes;
};

static void
build_node_probes (const struct probe_set *set, struct node_probes *np)
{
  np->first = xcalloc (set->num_nodes + 1, sizeof *np->first);
  np->probes = xmalloc ((set->num_probes + 1) * sizeof *np->probes);
  for (size_t p = 0; p < set->num_probes; p++)
    np->first[set->probes[p].node + 1]++;
  for (size_t i = 0; i < set->num_nodes; i++)
    np->first[i + 1] += np->first[i];
  size_t *fill = xmalloc ((set->num_nodes + 1) * sizeof *fill);
  memcpy (fill, np->first, (set->num_nodes + 1) * sizeof *fill);
  for (size_t p = 0; p < set->num_probes; p++)
    np->probes[fill[set->probes[p].node]++] = p;
  free (fill);
}

/* The profile of probe P of SET in the context whose frames are
   PREFIX[0..NP) (llvm-profgen's getFunctionProfileForLeafProbe).  */
static struct cs_func *
leaf_profile (struct cs_state *st, const struct probe_set *set, size_t p,
	      const struct cs_frame *prefix, size_t np,
	      struct cs_frame **buf, size_t *cap)
{
  if (*cap < np + 1)
    {
      *cap = 2 * (np + 1);
      *buf = xrealloc (*buf, *cap * sizeof **buf);
    }
  memcpy (*buf, prefix, np * sizeof *prefix);
  size_t n = np;
  if (!inline_context (set, p, 0, buf, &n, cap))
    return NULL;
  const struct probe_desc *d
    = probe_find_desc (set, set->nodes[set->probes[p].node].guid);
  if (!d)
    return NULL;
  n = compress_recursion (*buf, n, sizeof **buf);
  struct cs_func *f = get_func (st, *buf, n, d->name);
  f->hash = d->hash;
  if (set->nodes[set->probes[p].node].parent != PROBE_NO_NODE)
    f->attr |= 1;
  return f;
}

/* The profile name of the function starting at ADDR (a bound of ELF
   there, and the probes up to the next bound), or NULL.  */
static const char *
function_starting_at (const struct elf_file *elf,
		      const struct probe_regions *regs,
		      const struct probe_set *set, uint64_t addr)
{
  size_t bi = rank_u64 (elf->bounds, elf->num_bounds, addr);
  if (bi == elf->num_bounds || elf->bounds[bi] != addr)
    return NULL;
  uint64_t next = elf_next_bound (elf, addr);
  size_t lo = lp_lower_bound_u64 (regs->regions, regs->num_regions,
				  sizeof *regs->regions, addr);
  if (lo == regs->num_regions || regs->regions[lo].start >= next)
    return NULL;
  return regions_function_at (regs, set, regs->regions[lo].start);
}

/* Add COUNT to ROW[P]; the first time P gets a count, append P to
   *TOUCHED (*NUM of *CAP used).  */
static void
add_count (uint64_t *row, size_t p, uint64_t count, size_t **touched,
	   size_t *num, size_t *cap)
{
  if (row[p] == 0)
    {
      if (*cap <= *num)
	{
	  *cap = 2 * *num + 16;
	  *touched = xrealloc (*touched, *cap * sizeof **touched);
	}
      (*touched)[(*num)++] = p;
    }
  row[p] = lp_sat_add (row[p], count);
}

/* Turn the contexts into profiles.  */
static void
generate (struct cs_profile *cs)
{
  struct cs_state *st = cs->state;
  struct node_probes *np = xcalloc (cs->num_bins, sizeof *np);
  uint64_t **counts = xcalloc (cs->num_bins, sizeof *counts);
  size_t **node_mark = xcalloc (cs->num_bins, sizeof *node_mark);
  struct cs_frame *prefix = NULL, *buf = NULL, *caller = NULL;
  size_t cap_prefix = 0, cap_buf = 0, cap_caller = 0;
  size_t *touched = NULL, cap_touched = 0;

  for (size_t ci = 0; ci < st->num_ctxs; ci++)
    {
      struct cs_context *c = &st->ctxs[ci];
      size_t b = c->bin;
      const struct probe_set *set = cs->sets[b];
      const struct probe_regions *regs = cs->regs[b];
      if (!np[b].first)
	{
	  build_node_probes (set, &np[b]);
	  counts[b] = xcalloc (set->num_probes + 1, sizeof **counts);
	  node_mark[b] = xcalloc (set->num_nodes + 1, sizeof **node_mark);
	}
      /* The frames of the sample context.  */
      size_t n_prefix = 0;
      int ok = 1;
      for (size_t k = 0; k < c->len && ok; k++)
	ok = inline_context (set, c->key[k], 1, &prefix, &n_prefix,
			     &cap_prefix);
      if (!ok)
	continue;

      /* Block probes: the ranges covering their addresses.  */
      c->num_ranges = merge_pairs (c->ranges, c->num_ranges);
      size_t num_touched = 0;
      for (size_t i = 0; i < c->num_ranges; i++)
	{
	  uint64_t start = c->ranges[i].a, end = c->ranges[i].b;
	  uint64_t count = c->ranges[i].count;
	  /* The first region starting at or after START.  */
	  size_t lo = lp_lower_bound_u64 (regs->regions, regs->num_regions,
					  sizeof *regs->regions, start);
	  for (size_t r = lo; r < regs->num_regions
		 && regs->regions[r].start <= end; r++)
	    {
	      const struct probe_region *rg = &regs->regions[r];
	      for (size_t k = 0; k < rg->num_probes; k++)
		{
		  size_t p = regs->sorted_probes[rg->first_probe + k];
		  if (set->probes[p].type != PROBE_BLOCK
		      || set->probes[p].addr != rg->start)
		    continue;
		  add_count (counts[b], p, count, &touched, &num_touched,
			     &cap_touched);
		}
	    }
	}
      /* IP samples: each probe of their region gets the flat estimate
	 of the context's samples there.  */
      c->num_ips = merge_pairs (c->ips, c->num_ips);
      for (size_t i = 0; i < c->num_ips; i++)
	{
	  const struct probe_region *rg = &regs->regions[c->ips[i].a];
	  uint64_t s = c->ips[i].count;
	  uint64_t ni = rg->insns ? rg->insns : 1;
	  uint64_t est = s > (UINT64_MAX - ni / 2) / 100
	    ? lp_sat_mul (s / ni, 100) : (100 * s + ni / 2) / ni;
	  if (est == 0)
	    continue;
	  for (size_t k = 0; k < rg->num_probes; k++)
	    {
	      size_t p = regs->sorted_probes[rg->first_probe + k];
	      if (set->probes[p].attr & PROBE_ATTR_DANGLING)
		continue;
	      add_count (counts[b], p, est, &touched, &num_touched,
			 &cap_touched);
	    }
	}
      /* In probe order, for a deterministic output.  */
      qsort (touched, num_touched, sizeof *touched, cmp_size);
      for (size_t t = 0; t < num_touched; t++)
	{
	  size_t p = touched[t];
	  uint64_t count = counts[b][p];
	  counts[b][p] = 0;
	  struct cs_func *f = leaf_profile (st, set, p, prefix, n_prefix,
					    &buf, &cap_buf);
	  if (!f)
	    continue;
	  const struct probe *pr = &set->probes[p];
	  cs_add_body (f, pr->index, count);
	  f->total = lp_sat_add (f->total, count);
	  /* Every probe of its inline context gets a line.  */
	  if (node_mark[b][pr->node] != ci + 1)
	    {
	      node_mark[b][pr->node] = ci + 1;
	      for (size_t k = np[b].first[pr->node];
		   k < np[b].first[pr->node + 1]; k++)
		cs_add_body (f, set->probes[np[b].probes[k]].index, 0);
	    }
	  if (pr->index != 1)
	    continue;
	  f->head = lp_sat_add (f->head, count);
	  uint32_t parent = set->nodes[pr->node].parent;
	  if (parent == PROBE_NO_NODE)
	    continue;
	  const struct probe_desc *inliner
	    = probe_find_desc (set, set->nodes[parent].guid);
	  if (!inliner)
	    continue;
	  /* The caller's context: the callee's without its leaf, the
	     call site now the leaf; buf holds the callee's compressed
	     frames (leaf_profile), as many as " @ " in its context.  */
	  size_t nf = 0;
	  for (const char *q = f->ctx; (q = strstr (q, " @ ")) != NULL; q += 3)
	    nf++;
	  if (nf == 0)
	    continue;
	  const char *callee
	    = probe_find_desc (set, set->nodes[pr->node].guid)->name;
	  if (cap_caller < nf)
	    {
	      cap_caller = 2 * nf;
	      caller = xrealloc (caller, cap_caller * sizeof *caller);
	    }
	  memcpy (caller, buf, nf * sizeof *caller);
	  uint32_t call_index = (uint32_t) caller[nf - 1].index;
	  /* get_func may move the profiles: F is not used after it.  */
	  struct cs_func *cf
	    = get_func (st, caller, nf - 1,
			(const char *) (uintptr_t) caller[nf - 1].name);
	  cf->hash = inliner->hash;
	  cs_add_body (cf, call_index, count);
	  cf->total = lp_sat_add (cf->total, count);
	  cs_add_target (cf, call_index, callee, count);
	}

      /* Branches leaving a call probe's call.  */
      c->num_branches = merge_pairs (c->branches, c->num_branches);
      for (size_t i = 0; i < c->num_branches; i++)
	{
	  uint64_t from = c->branches[i].a, to = c->branches[i].b;
	  uint64_t count = c->branches[i].count;
	  size_t p = call_probe_at (regs, from);
	  if (p == SIZE_MAX)
	    continue;
	  struct cs_func *f = leaf_profile (st, set, p, prefix, n_prefix,
					    &buf, &cap_buf);
	  if (!f)
	    continue;
	  cs_add_body (f, set->probes[p].index, count);
	  f->total = lp_sat_add (f->total, count);
	  const char *callee = function_starting_at (cs->elfs[b], regs, set, to);
	  if (callee)
	    cs_add_target (f, set->probes[p].index, callee, count);
	}
    }
  for (size_t b = 0; b < cs->num_bins; b++)
    {
      free (np[b].first);
      free (np[b].probes);
      free (counts[b]);
      free (node_mark[b]);
    }
  free (np);
  free (counts);
  free (node_mark);
  free (prefix);
  free (buf);
  free (caller);
  free (touched);
}

static int
cmp_func (const void *a, const void *b)
{
  const struct cs_func *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp (x->ctx, y->ctx);
}

static int
cmp_body (const void *a, const void *b)
{
  const struct cs_body *x = a, *y = b;
  return x->index < y->index ? -1 : x->index > y->index;
}

static int
cmp_target (const void *a, const void *b)
{
  const struct cs_target *x = a, *y = b;
  if (x->index != y->index)
    return x->index < y->index ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The descriptor named NAME in any of CS's binaries, or NULL.  */
static const struct probe_desc *
desc_named (const struct cs_profile *cs, const char *name, size_t len)
{
  for (size_t b = 0; b < cs->num_bins; b++)
    for (size_t i = 0; i < cs->sets[b]->num_descs; i++)
      {
	const struct probe_desc *d = &cs->sets[b]->descs[i];
	if (strlen (d->name) == len && memcmp (d->name, name, len) == 0)
	  return d;
      }
  return NULL;
}

/* IP samples: a context's caller gets a profile when it has none, with
   the context's entries on the call-site line, the call's callee as
   its target; a caller that has one gets the callee as a target of
   that line when it lacks it, and the line a count of at least the
   entries.  With branch stacks the call site counts where the
   callee's probe 1 or the call's records do (generate, as
   llvm-profgen); an IP sample gives no count to a probe that owns no
   instruction, which probe 1 of an inlined copy often is, and a caller
   whose own code got no sample would have no profile, so that
   sample-use could not annotate the calls there at all.  A context's
   entries are the count of its lowest probe with a count above 0
   (LLVM's head estimate, but for probes no sample can reach): the
   pre-inliner takes a call's count from its target there.  */
static void
add_missing_callers (struct cs_profile *cs)
{
  struct cs_state *st = cs->state;
  size_t n = st->num_funcs;
  for (size_t i = 0; i < n; i++)
    {
      const char *ctx = st->funcs[i].ctx;
      const char *at = NULL;
      for (const char *q = ctx; (q = strstr (q, " @ ")) != NULL; q += 3)
	at = q;
      if (!at)
	continue;
      /* The caller's context "... @ NAME", and the call site.  */
      const char *colon = at;
      while (colon > ctx && colon[-1] != ':')
	colon--;
      if (colon == ctx)
	continue;
      const char *start = colon - 1;
      while (start > ctx && !(start - ctx >= 3 && memcmp (start - 3, " @ ", 3)
			      == 0))
	start--;
      const struct probe_desc *d = desc_named (cs, start, colon - 1 - start);
      if (!d)
	continue;
      uint32_t site = (uint32_t) strtoul (colon, NULL, 10);
      uint64_t head = 0;
      uint32_t lowest = UINT32_MAX;
      int has_entry = 0;
      uint64_t entry = 0;
      for (size_t k = 0; k < st->funcs[i].num_bodies; k++)
	{
	  if (st->funcs[i].bodies[k].index == 1)
	    {
	      has_entry = 1;
	      entry = st->funcs[i].bodies[k].count;
	    }
	  if (st->funcs[i].bodies[k].count
	      && st->funcs[i].bodies[k].index < lowest)
	    {
	      lowest = st->funcs[i].bodies[k].index;
	      head = st->funcs[i].bodies[k].count;
	    }
	}
      if (!head)
	continue;
      /* The callee's calls from there, for its target count: its probe
	 1, whose code runs once a call, when that owns code, even if
	 no sample fell there (at least 1: it ran); a later probe may
	 run many times a call (a loop), which would make a callee
	 with a short entry look called far more often than it was.  */
      uint64_t calls = has_entry ? (entry ? entry : 1) : head;
      char *caller = xmalloc (colon - ctx);
      memcpy (caller, ctx, colon - 1 - ctx);
      caller[colon - 1 - ctx] = 0;
      const char *callee = at + 3;
      uint64_t h = hash_bytes (caller, strlen (caller),
			       14695981039346656037ULL);
      size_t slot;
      struct cs_func *cf = NULL;
      for (slot = index_table_start (&st->func_index, h);
	   st->func_index.slots[slot];
	   slot = index_table_next (&st->func_index, slot))
	if (st->func_index.hashes[slot] == h
	    && strcmp (st->funcs[st->func_index.slots[slot] - 1].ctx,
		       caller) == 0)
	  cf = &st->funcs[st->func_index.slots[slot] - 1];
      if (cf)
	{
	  /* An existing caller: the call site's line gets the callee as
	     a target when it lacks it, and a count of at least the
	     context's entries.  */
	  free (caller);
	  int has_target = 0;
	  for (size_t k = 0; k < cf->num_targets; k++)
	    has_target |= (cf->targets[k].index == site
			   && strcmp (cf->targets[k].name, callee) == 0);
	  if (has_target && !cf->made_for_contexts)
	    continue;
	  uint64_t line = 0;
	  for (size_t k = 0; k < cf->num_bodies; k++)
	    if (cf->bodies[k].index == site)
	      line = cf->bodies[k].count;
	  if (!cf->made_for_contexts)
	    {
	      if (line < head)
		{
		  cs_add_body (cf, site, head - line);
		  cf->total = lp_sat_add (cf->total, head - line);
		}
	      cs_add_target (cf, site, callee, calls);
	      continue;
	    }
	}
      else
	{
	  st->funcs = lp_grow (st->funcs, &st->cap_funcs, st->num_funcs,
			       sizeof *st->funcs, 64);
	  cf = &st->funcs[st->num_funcs];
	  memset (cf, 0, sizeof *cf);
	  cf->ctx = caller;
	  cf->hash = d->hash;
	  cf->made_for_contexts = 1;
	  index_table_add (&st->func_index, slot, h,
			   (uint32_t) st->num_funcs);
	  st->num_funcs++;
	}
      cs_add_body (cf, site, head);
      cf->total = lp_sat_add (cf->total, head);
      cs_add_target (cf, site, callee, calls);
    }
}

/* The function of context CTX, its last frame.  */
static const char *
ctx_leaf (const char *ctx)
{
  const char *leaf = ctx;
  for (const char *q = ctx; (q = strstr (q, " @ ")) != NULL; q += 3)
    leaf = q + 3;
  return leaf;
}

/* Whether FN is the first record written of its function (same leaf
   name and checksum) that is not to be inlined: the one that carries
   the flat profile's value lines.  SEEN indexes the records (of
   FUNCS) already chosen.  */
static int
first_of_function (struct index_table *seen, const struct cs_func *funcs,
		   size_t i)
{
  const struct cs_func *fn = &funcs[i];
  if (fn->attr & CS_CONTEXT_SHOULD_BE_INLINED)
    return 0;
  const char *leaf = ctx_leaf (fn->ctx);
  uint64_t h = hash_bytes (leaf, strlen (leaf), fn->hash);
  size_t s;
  for (s = index_table_start (seen, h); seen->slots[s];
       s = index_table_next (seen, s))
    {
      const struct cs_func *o = &funcs[seen->slots[s] - 1];
      if (seen->hashes[s] == h && o->hash == fn->hash
	  && strcmp (ctx_leaf (o->ctx), leaf) == 0)
	return 0;
    }
  index_table_add (seen, s, h, (uint32_t) i);
  return 1;
}

size_t
cs_write (struct cs_profile *cs, FILE *f, struct sample_profile *flat)
{
  struct cs_state *st = cs->state;
  generate (cs);
  if (cs->ip_counted)
    add_missing_callers (cs);
  /* By default with branch stacks only: the pre-inliner's thresholds
     are llvm-profgen's, made for counts of executions; IP samples give
     estimates on another scale (preinline.h).  */
  int preinline = cs->preinline < 0 ? cs->ip_counted == 0 : cs->preinline;
  if (preinline)
    st->num_funcs = cs_preinline (cs, &st->funcs, st->num_funcs,
				  cs->preinline_debug);
  qsort (st->funcs, st->num_funcs, sizeof *st->funcs, cmp_func);
  struct index_table seen;
  index_table_init (&seen);
  for (size_t i = 0; i < st->num_funcs; i++)
    {
      struct cs_func *fn = &st->funcs[i];
      qsort (fn->bodies, fn->num_bodies, sizeof *fn->bodies, cmp_body);
      qsort (fn->targets, fn->num_targets, sizeof *fn->targets, cmp_target);
      fprintf (f, "[%s]:%" PRIu64 ":%" PRIu64 "\n", fn->ctx, fn->total,
	       fn->head);
      int values = flat && first_of_function (&seen, st->funcs, i);
      uint64_t rank = (values ? profile_first_sample (flat, ctx_leaf (fn->ctx),
						      fn->hash) : 0);
      if (rank)
	fprintf (f, "#first-sample %" PRIu64 "\n", rank);
      size_t t = 0;
      for (size_t k = 0; k < fn->num_bodies; k++)
	{
	  uint32_t idx = fn->bodies[k].index;
	  fprintf (f, " %" PRIu32 ": %" PRIu64, idx, fn->bodies[k].count);
	  while (t < fn->num_targets && fn->targets[t].index < idx)
	    t++;
	  for (; t < fn->num_targets && fn->targets[t].index == idx; t++)
	    fprintf (f, " %s:%" PRIu64, fn->targets[t].name,
		     fn->targets[t].count);
	  fputc ('\n', f);
	}
      if (values)
	{
	  uint32_t *ids = xmalloc ((fn->num_bodies + 1) * sizeof *ids);
	  for (size_t k = 0; k < fn->num_bodies; k++)
	    ids[k] = fn->bodies[k].index;
	  profile_write_values (flat, ctx_leaf (fn->ctx), fn->hash, ids,
				fn->num_bodies, f);
	  free (ids);
	}
      fprintf (f, " !CFGChecksum: %" PRIu64 "\n", fn->hash);
      if (fn->attr)
	fprintf (f, " !Attributes: %d\n", fn->attr);
    }
  index_table_free (&seen);
  return st->num_funcs;
}
