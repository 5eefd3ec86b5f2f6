/* preinline.c: the pre-inliner of latepgo-profgen --csprof, as
   llvm-profgen 14's CSPreInliner (CSPreInliner.cpp, with
   SampleContextTracker.cpp's context trie and ProfiledCallGraph.h's
   top-down order).  See preinline.h.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "index-table.h"
#include "md5.h"
#include "preinline.h"
#include "tool-util.h"

/* llvm-profgen 14's defaults: CSPreInliner's hot and cold call-site
   thresholds (it sets them, SampleProfile.cpp has 3000 and 45), and
   SampleProfile.cpp's inline growth limit and its bounds.  */
#define HOT_CALLSITE_THRESHOLD 1500
#define COLD_CALLSITE_THRESHOLD 0
#define GROWTH_LIMIT 12
#define LIMIT_MIN 100
#define LIMIT_MAX 10000

/* A node of the context trie: a function at a call site of its parent
   (site 0 under the root), with its profile if any.  */
struct pnode
{
  const char *name;
  uint32_t site;
  struct pnode *parent;
  struct pnode **kids;
  size_t num_kids, cap_kids;
  long prof;			/* Index into the profiles, or -1.  */
  int inlined;			/* Marked by the pre-inliner.  */
};

struct pstate
{
  struct cs_func *funcs;
  size_t num_funcs;
  struct pnode root;
  /* Every node, for freeing.  */
  struct pnode **all;
  size_t num_all, cap_all;
  /* Per profile, its node (kept up to date when profiles move).  */
  struct pnode **node_of;
  /* Context sizes from the binary: "leaf" or "caller:site @ leaf"
     contexts of instructions, and their bytes.  */
  char **size_keys;
  uint64_t *size_bytes;
  size_t num_sizes, cap_sizes;
  struct index_table size_index;	/* Of size_keys.  */
  uint64_t hot, cold;
  FILE *debug;
};

static struct pnode *
new_node (struct pstate *st, struct pnode *parent, const char *name,
	  uint32_t site)
{
  struct pnode *n = xmalloc (sizeof *n);
  memset (n, 0, sizeof *n);
  n->name = name;
  n->site = site;
  n->parent = parent;
  n->prof = -1;
  st->all = lp_grow (st->all, &st->cap_all, st->num_all, sizeof *st->all, 64);
  st->all[st->num_all++] = n;
  if (parent)
    {
      parent->kids = lp_grow (parent->kids, &parent->cap_kids,
			      parent->num_kids, sizeof *parent->kids, 4);
      parent->kids[parent->num_kids++] = n;
    }
  return n;
}

static struct pnode *
find_kid (struct pnode *n, const char *name, uint32_t site)
{
  for (size_t i = 0; i < n->num_kids; i++)
    if (n->kids[i]->site == site && strcmp (n->kids[i]->name, name) == 0)
      return n->kids[i];
  return NULL;
}

static void
remove_kid (struct pnode *parent, struct pnode *kid)
{
  for (size_t i = 0; i < parent->num_kids; i++)
    if (parent->kids[i] == kid)
      {
	memmove (&parent->kids[i], &parent->kids[i + 1],
		 (parent->num_kids - i - 1) * sizeof *parent->kids);
	parent->num_kids--;
	return;
      }
}

/* The frames of context CTX: names (newly allocated) and, for each
   frame but the last, its call site.  Returns the number of frames.  */
static size_t
split_context (const char *ctx, char ***names, uint32_t **sites)
{
  size_t n = 1;
  for (const char *q = ctx; (q = strstr (q, " @ ")) != NULL; q += 3)
    n++;
  *names = xmalloc (n * sizeof **names);
  *sites = xmalloc (n * sizeof **sites);
  const char *p = ctx;
  for (size_t i = 0; i < n; i++)
    {
      const char *end = i + 1 < n ? strstr (p, " @ ") : p + strlen (p);
      const char *colon = end;
      (*sites)[i] = 0;
      if (i + 1 < n)
	{
	  while (colon > p && colon[-1] != ':')
	    colon--;
	  if (colon > p)
	    {
	      (*sites)[i] = (uint32_t) strtoul (colon, NULL, 10);
	      colon--;
	    }
	  else
	    colon = end;
	}
      size_t len = colon - p;
      char *s = xmalloc (len + 1);
      memcpy (s, p, len);
      s[len] = 0;
      (*names)[i] = s;
      p = end + (i + 1 < n ? 3 : 0);
    }
  return n;
}

/* The context string of node N: its path from the root, each frame
   but the last with the call site of the next.  */
static char *
context_of (const struct pnode *n)
{
  size_t depth = 0, len = 1;
  for (const struct pnode *m = n; m->parent; m = m->parent)
    {
      depth++;
      len += strlen (m->name) + 16;
    }
  const struct pnode **path = xmalloc ((depth ? depth : 1) * sizeof *path);
  size_t i = depth;
  for (const struct pnode *m = n; m->parent; m = m->parent)
    path[--i] = m;
  char *s = xmalloc (len);
  char *q = s;
  *q = 0;
  for (i = 0; i < depth; i++)
    {
      if (i)
	q += sprintf (q, ":%" PRIu32 " @ ", path[i]->site);
      q += sprintf (q, "%s", path[i]->name);
    }
  free (path);
  return s;
}

/* LLVM's FunctionSamples::getEntrySamples for a flat CS profile.  */
static uint64_t
entry_samples (const struct cs_func *f)
{
  if (f->head)
    return f->head;
  uint32_t lowest = UINT32_MAX;
  uint64_t count = 0;
  for (size_t k = 0; k < f->num_bodies; k++)
    if (f->bodies[k].index < lowest)
      {
	lowest = f->bodies[k].index;
	count = f->bodies[k].count;
      }
  return count ? count : f->total > 0;
}

/* FunctionSamples::merge: FROM's counts into TO (the hash is kept).  */
static void
merge_profile (struct cs_func *to, const struct cs_func *from)
{
  to->total = lp_sat_add (to->total, from->total);
  to->head = lp_sat_add (to->head, from->head);
  for (size_t k = 0; k < from->num_bodies; k++)
    cs_add_body (to, from->bodies[k].index, from->bodies[k].count);
  for (size_t k = 0; k < from->num_targets; k++)
    cs_add_target (to, from->targets[k].index, from->targets[k].name,
		from->targets[k].count);
  if (!to->hash)
    to->hash = from->hash;
}

/* SampleContextTracker::promoteMergeContextSamplesTree: move FROM (and
   its subtree) under TO_PARENT, merging into a node that is there
   already.  */
static struct pnode *
promote_merge (struct pstate *st, struct pnode *from, struct pnode *to_parent)
{
  int to_root = to_parent == &st->root;
  uint32_t site = to_root ? 0 : from->site;
  struct pnode *old_parent = from->parent;
  struct pnode *to = find_kid (to_parent, from->name, site);
  if (!to)
    {
      remove_kid (old_parent, from);
      from->parent = to_parent;
      from->site = site;
      to_parent->kids = lp_grow (to_parent->kids, &to_parent->cap_kids,
				 to_parent->num_kids,
				 sizeof *to_parent->kids, 4);
      to_parent->kids[to_parent->num_kids++] = from;
      return from;
    }
  if (from->prof >= 0 && to->prof >= 0)
    {
      struct cs_func *tf = &st->funcs[to->prof];
      const struct cs_func *ff = &st->funcs[from->prof];
      merge_profile (tf, ff);
      if (ff->attr & CS_CONTEXT_SHOULD_BE_INLINED)
	tf->attr |= CS_CONTEXT_SHOULD_BE_INLINED;
      st->node_of[from->prof] = NULL;	/* Merged away.  */
    }
  else if (from->prof >= 0)
    {
      to->prof = from->prof;
      st->node_of[from->prof] = to;
    }
  from->prof = -1;
  /* The children: FROM's list changes as they move.  */
  while (from->num_kids)
    promote_merge (st, from->kids[0], to);
  remove_kid (old_parent, from);
  return to;
}

/* SampleContextTracker::getBaseSamplesFor (NAME, merge): the top-level
   node of NAME, after every context of NAME that was not inlined is
   promoted and merged into it.  NULL if it has no profile.  */
static struct pnode *
base_for (struct pstate *st, const char *name)
{
  struct pnode *node = find_kid (&st->root, name, 0);
  for (size_t i = 0; i < st->num_funcs; i++)
    {
      struct pnode *n = st->node_of[i];
      if (!n || n->inlined || n->parent == &st->root
	  || strcmp (n->name, name) != 0)
	continue;
      node = promote_merge (st, n, &st->root);
    }
  return node && node->prof >= 0 ? node : NULL;
}

/* The index of size key KEY, or -1; *SLOT where a lookup stopped.  */
static long
find_size (const struct pstate *st, const char *key, uint64_t *hash,
	   size_t *slot)
{
  *hash = lp_md5low64 (key, strlen (key));
  size_t s;
  for (s = index_table_start (&st->size_index, *hash);
       st->size_index.slots[s];
       s = index_table_next (&st->size_index, s))
    {
      uint32_t i = st->size_index.slots[s] - 1;
      if (st->size_index.hashes[s] == *hash
	  && strcmp (st->size_keys[i], key) == 0)
	return (long) i;
    }
  *slot = s;
  return -1;
}

/* ProfiledBinary::getFuncSizeForContext, from the instruction
   contexts' bytes: the longest suffix of N's context (leaf first) that
   some instruction has, else a context that ends with N's function.  */
static uint32_t
func_size (struct pstate *st, const struct pnode *n)
{
  char *ctx = context_of (n);
  const char *suffix = ctx;
  uint64_t best = 0;
  int found = 0;
  /* Suffixes from the whole context to the leaf: the longest found.  */
  for (;;)
    {
      uint64_t h;
      size_t slot;
      long i = find_size (st, suffix, &h, &slot);
      if (i >= 0)
	{
	  best = st->size_bytes[i];
	  found = 1;
	  break;
	}
      const char *at = strstr (suffix, " @ ");
      if (!at)
	break;
      suffix = at + 3;
    }
  if (!found)
    {
      size_t ln = strlen (n->name);
      for (size_t i = 0; i < st->num_sizes && !found; i++)
	{
	  size_t kl = strlen (st->size_keys[i]);
	  if (kl >= ln && strcmp (st->size_keys[i] + kl - ln, n->name) == 0
	      && (kl == ln || st->size_keys[i][kl - ln - 1] == ' '))
	    {
	      best = st->size_bytes[i];
	      found = 1;
	    }
	}
    }
  free (ctx);
  return best > UINT32_MAX ? UINT32_MAX : (uint32_t) best;
}

static void
add_size (struct pstate *st, const char *key, uint64_t bytes)
{
  uint64_t h;
  size_t slot;
  long i = find_size (st, key, &h, &slot);
  if (i >= 0)
    {
      st->size_bytes[i] += bytes;
      return;
    }
  size_t cap = st->cap_sizes;
  st->size_keys = lp_grow (st->size_keys, &cap, st->num_sizes,
			   sizeof *st->size_keys, 64);
  st->size_bytes = lp_grow (st->size_bytes, &st->cap_sizes, st->num_sizes,
			    sizeof *st->size_bytes, 64);
  st->size_keys[st->num_sizes] = xstrdup (key);
  st->size_bytes[st->num_sizes] = bytes;
  index_table_add (&st->size_index, slot, h, (uint32_t) st->num_sizes);
  st->num_sizes++;
}

/* The context of probe node ND of SET: "root:site @ ... @ function",
   NULL when a function has no descriptor.  */
static char *
node_context (const struct probe_set *set, uint32_t nd)
{
  size_t depth = 0, len = 1;
  for (uint32_t m = nd; m != PROBE_NO_NODE; m = set->nodes[m].parent)
    {
      const struct probe_desc *d = probe_find_desc (set, set->nodes[m].guid);
      if (!d)
	return NULL;
      depth++;
      len += strlen (d->name) + 16;
    }
  uint32_t *path = xmalloc (depth * sizeof *path);
  size_t i = depth;
  for (uint32_t m = nd; m != PROBE_NO_NODE; m = set->nodes[m].parent)
    path[--i] = m;
  char *s = xmalloc (len);
  char *q = s;
  for (i = 0; i < depth; i++)
    {
      if (i)
	q += sprintf (q, ":%" PRIu32 " @ ", set->nodes[path[i]].call_index);
      q += sprintf (q, "%s", probe_find_desc (set, set->nodes[path[i]].guid)
			     ->name);
    }
  *q = 0;
  free (path);
  return s;
}

/* Each region's bytes for the inline context of its first probe; every
   inline context with probes known, at 0 bytes when none of its probes
   owns code (BinarySizeContextTracker, trackInlineesOptimizedAway).  */
static void
collect_sizes (struct pstate *st, const struct cs_profile *cs)
{
  for (size_t b = 0; b < cs->num_bins; b++)
    {
      const struct probe_set *set = cs->sets[b];
      const struct probe_regions *regs = cs->regs[b];
      for (uint32_t nd = 0; nd < set->num_nodes; nd++)
	{
	  char *key = node_context (set, nd);
	  if (key)
	    add_size (st, key, 0);
	  free (key);
	}
      for (size_t r = 0; r < regs->num_regions; r++)
	{
	  const struct probe_region *rg = &regs->regions[r];
	  if (!rg->num_probes)
	    continue;
	  size_t p = regs->sorted_probes[rg->first_probe];
	  char *key = node_context (set, set->probes[p].node);
	  if (key)
	    add_size (st, key, rg->end - rg->start);
	  free (key);
	}
    }
}

/* ProfileSummaryBuilder's thresholds over the context-less profiles
   (every context of a function merged, as SampleProfileSummaryBuilder
   does for a CS profile): the smallest count of the largest counts
   that reach 99% (hot) and 99.9999% (cold) of the total.  */

struct name_index_count
{
  const char *name;
  uint32_t index;
  uint64_t count;
};

static int
cmp_nic (const void *a, const void *b)
{
  const struct name_index_count *x = a, *y = b;
  int c = strcmp (x->name, y->name);
  if (c)
    return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

static int
cmp_desc_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x > y ? -1 : x < y;
}

static uint64_t
min_count_at (const uint64_t *sorted, size_t n, uint64_t total,
	      uint32_t cutoff)
{
  uint64_t desired = (uint64_t) ((unsigned __int128) total * cutoff
				 / 1000000);
  uint64_t sum = 0, count = 0;
  for (size_t i = 0; i < n && sum < desired; i++)
    {
      count = sorted[i];
      sum += count;
    }
  return count;
}

static void
compute_thresholds (struct pstate *st)
{
  size_t n = 0;
  for (size_t i = 0; i < st->num_funcs; i++)
    n += st->funcs[i].num_bodies;
  struct name_index_count *all = xmalloc ((n ? n : 1) * sizeof *all);
  n = 0;
  for (size_t i = 0; i < st->num_funcs; i++)
    {
      const struct cs_func *f = &st->funcs[i];
      const char *leaf = f->ctx;
      for (const char *q = leaf; (q = strstr (q, " @ ")) != NULL; q += 3)
	leaf = q + 3;
      for (size_t k = 0; k < f->num_bodies; k++)
	{
	  all[n].name = leaf;
	  all[n].index = f->bodies[k].index;
	  all[n].count = f->bodies[k].count;
	  n++;
	}
    }
  qsort (all, n, sizeof *all, cmp_nic);
  uint64_t *counts = xmalloc ((n ? n : 1) * sizeof *counts);
  size_t m = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < n; )
    {
      uint64_t c = 0;
      size_t j = i;
      for (; j < n && cmp_nic (&all[i], &all[j]) == 0; j++)
	c = lp_sat_add (c, all[j].count);
      counts[m++] = c;
      total = lp_sat_add (total, c);
      i = j;
    }
  qsort (counts, m, sizeof *counts, cmp_desc_u64);
  st->hot = min_count_at (counts, m, total, 990000);
  st->cold = min_count_at (counts, m, total, 999999);
  free (counts);
  free (all);
}

/* The profiled call graph (ProfiledCallGraph.h, from the context trie)
   and its top-down order: Tarjan's SCCs from a root that calls every
   function, each node's edges in name order, reversed.  */

struct cg_node
{
  const char *name;
  size_t *edges;		/* Callee nodes, sorted by name.  */
  uint64_t *weights;		/* Of each edge: its largest call count.  */
  size_t num_edges, cap_edges;
  long index, low;
  int on_stack;
};

struct call_graph
{
  struct cg_node *nodes;	/* Sorted by name.  */
  size_t num_nodes, cap_nodes;
  size_t *stack;
  size_t depth;
  long next_index;
  size_t *scc;			/* The SCC being popped.  */
  const char **order;		/* Post order of SCCs.  */
  size_t num_order;
};

static int
cmp_name_ptr (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static size_t
cg_find (const struct call_graph *cg, const char *name)
{
  size_t lo = 0, hi = cg->num_nodes;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      int c = strcmp (cg->nodes[mid].name, name);
      if (c == 0)
	return mid;
      if (c < 0)
	lo = mid + 1;
      else
	hi = mid;
    }
  return SIZE_MAX;
}

static void
collect_names (const struct pnode *n, const char ***names, size_t *num,
	       size_t *cap)
{
  for (size_t i = 0; i < n->num_kids; i++)
    {
      *names = lp_grow (*names, cap, *num, sizeof **names, 64);
      (*names)[(*num)++] = n->kids[i]->name;
      collect_names (n->kids[i], names, num, cap);
    }
}

/* The edges of the calls in the trie below N, each with the largest
   of its contexts' call counts (the call site's target count or the
   callee's entry count; 0 when either has no profile).  */
static void
add_edges (struct pstate *st, struct call_graph *cg, const struct pnode *n)
{
  for (size_t i = 0; i < n->num_kids; i++)
    {
      const struct pnode *k = n->kids[i];
      if (n->parent)
	{
	  struct cg_node *caller = &cg->nodes[cg_find (cg, n->name)];
	  size_t callee = cg_find (cg, k->name);
	  uint64_t weight = 0;
	  if (n->prof >= 0 && k->prof >= 0)
	    {
	      const struct cs_func *cf = &st->funcs[n->prof];
	      uint64_t site_count = 0;
	      for (size_t t = 0; t < cf->num_targets; t++)
		if (cf->targets[t].index == k->site
		    && strcmp (cf->targets[t].name, k->name) == 0)
		  site_count = cf->targets[t].count;
	      uint64_t entry = entry_samples (&st->funcs[k->prof]);
	      weight = site_count > entry ? site_count : entry;
	    }
	  size_t e = 0;
	  while (e < caller->num_edges && caller->edges[e] != callee)
	    e++;
	  if (e == caller->num_edges)
	    {
	      size_t cap = caller->cap_edges;
	      caller->edges = lp_grow (caller->edges, &cap, caller->num_edges,
				       sizeof *caller->edges, 4);
	      caller->weights = lp_grow (caller->weights, &caller->cap_edges,
					 caller->num_edges,
					 sizeof *caller->weights, 4);
	      caller->edges[e] = callee;
	      caller->weights[e] = weight;
	      caller->num_edges++;
	    }
	  else if (caller->weights[e] < weight)
	    caller->weights[e] = weight;
	}
      add_edges (st, cg, k);
    }
}

/* Sort node N's edges by callee (name order), with their weights.  */
static void
sort_edges (struct cg_node *n)
{
  for (size_t i = 1; i < n->num_edges; i++)
    for (size_t j = i; j > 0 && n->edges[j - 1] > n->edges[j]; j--)
      {
	size_t e = n->edges[j];
	n->edges[j] = n->edges[j - 1];
	n->edges[j - 1] = e;
	uint64_t w = n->weights[j];
	n->weights[j] = n->weights[j - 1];
	n->weights[j - 1] = w;
      }
}

/* scc_member_iterator: the members MEMBERS[0..N) of one SCC (in the
   order Tarjan's popped them) reordered as LLVM sorts them: a maximum
   spanning forest of the edges inside the SCC (heaviest first, ties in
   member then edge order), then breadth first from the members no
   forest edge enters, along forest edges; reversed.  */
static void
sort_scc_members (struct call_graph *cg, size_t *members, size_t n)
{
  if (n <= 1)
    return;
  size_t *group = xmalloc (n * sizeof *group);
  int *visited = xmalloc (n * sizeof *visited);
  for (size_t i = 0; i < n; i++)
    {
      group[i] = i;
      visited[i] = 1;
    }
  /* The edges inside: (member, edge index), stable by weight.  */
  size_t num = 0;
  for (size_t i = 0; i < n; i++)
    num += cg->nodes[members[i]].num_edges;
  size_t (*edges)[2] = xmalloc ((num ? num : 1) * sizeof *edges);
  num = 0;
  for (size_t i = 0; i < n; i++)
    {
      const struct cg_node *m = &cg->nodes[members[i]];
      for (size_t e = 0; e < m->num_edges; e++)
	for (size_t j = 0; j < n; j++)
	  if (members[j] == m->edges[e])
	    {
	      edges[num][0] = i;
	      edges[num][1] = e;
	      num++;
	    }
    }
  for (size_t i = 1; i < num; i++)
    for (size_t j = i; j > 0; j--)
      {
	uint64_t wa = cg->nodes[members[edges[j - 1][0]]].weights[edges[j - 1][1]];
	uint64_t wb = cg->nodes[members[edges[j][0]]].weights[edges[j][1]];
	if (wa >= wb)
	  break;
	size_t t0 = edges[j][0], t1 = edges[j][1];
	edges[j][0] = edges[j - 1][0];
	edges[j][1] = edges[j - 1][1];
	edges[j - 1][0] = t0;
	edges[j - 1][1] = t1;
      }
  /* Kruskal; a forest edge's target is entered.  */
  char *in_forest = xcalloc (num ? num : 1, 1);
  for (size_t k = 0; k < num; k++)
    {
      size_t a = edges[k][0];
      size_t tgt = cg->nodes[members[a]].edges[edges[k][1]];
      size_t b = 0;
      while (members[b] != tgt)
	b++;
      size_t ga = a, gb = b;
      while (group[ga] != ga)
	ga = group[ga];
      while (group[gb] != gb)
	gb = group[gb];
      if (ga == gb)
	continue;
      group[gb] = ga;
      in_forest[k] = 1;
      visited[b] = 0;
    }
  size_t *out = xmalloc (n * sizeof *out);
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < n; i++)
    if (visited[i])
      out[tail++] = i;
  while (head < tail)
    {
      size_t i = out[head++];
      for (size_t k = 0; k < num; k++)
	if (in_forest[k] && edges[k][0] == i)
	  {
	    size_t tgt = cg->nodes[members[i]].edges[edges[k][1]];
	    size_t b = 0;
	    while (members[b] != tgt)
	      b++;
	    if (!visited[b])
	      {
		visited[b] = 1;
		out[tail++] = b;
	      }
	  }
    }
  size_t *sorted = xmalloc (n * sizeof *sorted);
  for (size_t i = 0; i < tail; i++)
    sorted[tail - 1 - i] = members[out[i]];
  memcpy (members, sorted, tail * sizeof *members);
  free (sorted);
  free (out);
  free (in_forest);
  free (edges);
  free (visited);
  free (group);
}

static void
tarjan (struct call_graph *cg, size_t v)
{
  struct cg_node *n = &cg->nodes[v];
  n->index = n->low = cg->next_index++;
  cg->stack[cg->depth++] = v;
  n->on_stack = 1;
  for (size_t k = 0; k < n->num_edges; k++)
    {
      size_t w = n->edges[k];
      if (cg->nodes[w].index < 0)
	{
	  tarjan (cg, w);
	  if (cg->nodes[w].low < cg->nodes[v].low)
	    cg->nodes[v].low = cg->nodes[w].low;
	}
      else if (cg->nodes[w].on_stack && cg->nodes[w].index < cg->nodes[v].low)
	cg->nodes[v].low = cg->nodes[w].index;
    }
  if (cg->nodes[v].low == cg->nodes[v].index)
    {
      size_t w, n_scc = 0;
      do
	{
	  w = cg->stack[--cg->depth];
	  cg->nodes[w].on_stack = 0;
	  cg->scc[n_scc++] = w;
	}
      while (w != v);
      sort_scc_members (cg, cg->scc, n_scc);
      for (size_t i = 0; i < n_scc; i++)
	cg->order[cg->num_order++] = cg->nodes[cg->scc[i]].name;
    }
}

/* The functions of the trie in top-down order, into *ORDER.  */
static size_t
top_down_order (struct pstate *st, const char ***order)
{
  struct call_graph cg;
  memset (&cg, 0, sizeof cg);
  const char **names = NULL;
  size_t num = 0, cap = 0;
  collect_names (&st->root, &names, &num, &cap);
  qsort (names, num, sizeof *names, cmp_name_ptr);
  cg.nodes = xmalloc ((num ? num : 1) * sizeof *cg.nodes);
  for (size_t i = 0; i < num; i++)
    if (i == 0 || strcmp (names[i], names[i - 1]) != 0)
      {
	struct cg_node *n = &cg.nodes[cg.num_nodes++];
	memset (n, 0, sizeof *n);
	n->name = names[i];
	n->index = n->low = -1;
      }
  free (names);
  add_edges (st, &cg, &st->root);
  for (size_t i = 0; i < cg.num_nodes; i++)
    sort_edges (&cg.nodes[i]);
  cg.stack = xmalloc ((cg.num_nodes ? cg.num_nodes : 1) * sizeof *cg.stack);
  cg.scc = xmalloc ((cg.num_nodes ? cg.num_nodes : 1) * sizeof *cg.scc);
  cg.order = xmalloc ((cg.num_nodes ? cg.num_nodes : 1) * sizeof *cg.order);
  /* The root calls every function, in name order.  */
  for (size_t i = 0; i < cg.num_nodes; i++)
    if (cg.nodes[i].index < 0)
      tarjan (&cg, i);
  /* Reversed: callers first.  */
  for (size_t i = 0; i < cg.num_order / 2; i++)
    {
      const char *t = cg.order[i];
      cg.order[i] = cg.order[cg.num_order - 1 - i];
      cg.order[cg.num_order - 1 - i] = t;
    }
  for (size_t i = 0; i < cg.num_nodes; i++)
    {
      free (cg.nodes[i].edges);
      free (cg.nodes[i].weights);
    }
  free (cg.nodes);
  free (cg.stack);
  free (cg.scc);
  *order = cg.order;
  return cg.num_order;
}

/* An inline candidate (ProfiledInlineCandidate).  */
struct candidate
{
  struct pnode *node;
  uint64_t count;
  uint32_t size;
  uint64_t guid;
};

/* Whether candidate A goes before B (ProfiledCandidateComparer: the
   larger call count, then the smaller size, then the larger GUID).  */
static int
before (const struct candidate *a, const struct candidate *b)
{
  if (a->count != b->count)
    return a->count > b->count;
  if (a->size != b->size)
    return a->size < b->size;
  return a->guid > b->guid;
}

/* The candidates of CALLER's children with profiles into *Q
   (getInlineCandidates).  */
static void
add_candidates (struct pstate *st, struct pnode *caller,
		struct candidate **q, size_t *n, size_t *cap)
{
  const struct cs_func *cf = &st->funcs[caller->prof];
  for (size_t i = 0; i < caller->num_kids; i++)
    {
      struct pnode *k = caller->kids[i];
      if (k->prof < 0)
	continue;
      const struct cs_func *kf = &st->funcs[k->prof];
      uint64_t site_count = 0;
      for (size_t t = 0; t < cf->num_targets; t++)
	if (cf->targets[t].index == k->site
	    && strcmp (cf->targets[t].name, k->name) == 0)
	  site_count = cf->targets[t].count;
      uint64_t entry = entry_samples (kf);
      *q = lp_grow (*q, cap, *n, sizeof **q, 16);
      (*q)[*n].node = k;
      (*q)[*n].count = site_count > entry ? site_count : entry;
      (*q)[*n].size = func_size (st, k);
      (*q)[*n].guid = lp_md5low64 (k->name, strlen (k->name));
      ++*n;
    }
}

/* CSPreInliner::processFunction.  */
static void
process_function (struct pstate *st, const char *name)
{
  struct pnode *base = base_for (st, name);
  if (!base)
    return;
  uint32_t size = func_size (st, base);
  uint64_t limit = (uint64_t) size * GROWTH_LIMIT;
  if (limit > LIMIT_MAX)
    limit = LIMIT_MAX;
  if (limit < LIMIT_MIN)
    limit = LIMIT_MIN;
  uint64_t final_size = size;
  if (st->debug)
    fprintf (st->debug, "Process %s for context-sensitive pre-inlining "
	     "(pre-inline size: %" PRIu32 ", size limit: %" PRIu64 ")\n",
	     name, size, limit);
  struct candidate *q = NULL;
  size_t n = 0, cap = 0;
  add_candidates (st, base, &q, &n, &cap);
  while (n && final_size < limit)
    {
      size_t top = 0;
      for (size_t i = 1; i < n; i++)
	if (before (&q[i], &q[top]))
	  top = i;
      struct candidate c = q[top];
      q[top] = q[--n];
      uint64_t threshold = COLD_CALLSITE_THRESHOLD;
      if (c.count > st->hot)
	threshold = HOT_CALLSITE_THRESHOLD;
      if (c.count < st->cold)
	threshold = COLD_CALLSITE_THRESHOLD;
      int inline_it = c.size < threshold;
      if (inline_it)
	{
	  c.node->inlined = 1;
	  st->funcs[c.node->prof].attr |= CS_CONTEXT_SHOULD_BE_INLINED;
	  final_size += c.size;
	  add_candidates (st, c.node, &q, &n, &cap);
	}
      if (st->debug)
	{
	  char *ctx = context_of (c.node);
	  fprintf (st->debug, "  %s context profile for: %s (callee size: %"
		   PRIu32 ", call count:%" PRIu64 ")\n",
		   inline_it ? "Inlined" : "Outlined", ctx, c.size, c.count);
	  free (ctx);
	}
    }
  free (q);
}

size_t
cs_preinline (const struct cs_profile *cs, struct cs_func **funcs,
	      size_t num_funcs, FILE *debug)
{
  struct pstate st;
  memset (&st, 0, sizeof st);
  st.funcs = *funcs;
  st.num_funcs = num_funcs;
  st.debug = debug;
  st.node_of = xmalloc ((num_funcs ? num_funcs : 1) * sizeof *st.node_of);
  char **names = NULL;
  size_t num_names = 0, cap_names = 0;
  for (size_t i = 0; i < num_funcs; i++)
    {
      char **fn;
      uint32_t *sites;
      size_t nf = split_context (st.funcs[i].ctx, &fn, &sites);
      struct pnode *n = &st.root;
      for (size_t k = 0; k < nf; k++)
	{
	  uint32_t site = k ? sites[k - 1] : 0;
	  struct pnode *kid = find_kid (n, fn[k], site);
	  if (!kid)
	    {
	      names = lp_grow (names, &cap_names, num_names, sizeof *names,
			       64);
	      names[num_names++] = fn[k];
	      kid = new_node (&st, n, fn[k], site);
	    }
	  else
	    free (fn[k]);
	  n = kid;
	}
      free (fn);
      free (sites);
      if (n->prof >= 0)
	{
	  /* The same context twice: merge.  */
	  merge_profile (&st.funcs[n->prof], &st.funcs[i]);
	  st.node_of[i] = NULL;
	}
      else
	{
	  n->prof = (long) i;
	  st.node_of[i] = n;
	}
    }
  compute_thresholds (&st);
  index_table_init (&st.size_index);
  collect_sizes (&st, cs);
  if (debug)
    fprintf (debug, "preinliner: hot count %" PRIu64 ", cold count %"
	     PRIu64 "\n", st.hot, st.cold);
  const char **order;
  size_t num_order = top_down_order (&st, &order);
  for (size_t i = 0; i < num_order; i++)
    process_function (&st, order[i]);
  free (order);

  /* Not inlined contexts were merged into their bases: keep the bases
     and the inlined contexts, named by their place in the trie.  */
  size_t out = 0;
  for (size_t i = 0; i < num_funcs; i++)
    {
      struct cs_func *f = &st.funcs[i];
      struct pnode *n = st.node_of[i];
      if (!n || (n->parent != &st.root && !n->inlined))
	{
	  free (f->ctx);
	  free (f->bodies);
	  free (f->targets);
	  continue;
	}
      free (f->ctx);
      f->ctx = context_of (n);
      st.funcs[out++] = *f;
    }
  for (size_t i = 0; i < st.num_all; i++)
    {
      free (st.all[i]->kids);
      free (st.all[i]);
    }
  free (st.root.kids);
  free (st.all);
  free (st.node_of);
  for (size_t i = 0; i < st.num_sizes; i++)
    free (st.size_keys[i]);
  free (st.size_keys);
  free (st.size_bytes);
  index_table_free (&st.size_index);
  for (size_t i = 0; i < num_names; i++)
    free (names[i]);
  free (names);
  return out;
}
