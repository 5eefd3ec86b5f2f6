/* sample-write.c: build the inline trees of the sample profile from
   the probes of each binary and write them as text (sample-write.h).

   Building only appends: a function's body entries and inlinees are
   collected per binary as the decoder found them; merging equal
   functions, contexts and probe indexes happens once, when writing, by
   sorting.  */

#include "sample-write.h"
#include "tool-util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One body line: a probe index, its count and, for an indirect call
   probe, the functions it called (malloc'd; merged and sorted when
   writing).  */
struct out_body
{
  uint32_t index;
  uint64_t count;
  struct call_target *targets;
  size_t num_targets;
  struct size_count *sizes;	/* For a memop call: the sizes seen.  */
  size_t num_sizes;
};

/* The most probes one side of a branch record may name: those of one
   inline context at one address (blocks whose code is empty share
   their successor's address).  */
#define BRANCH_MAX_PROBES 4

/* Where the conditional jumps in the regions of the probes SRC went,
   by samples with the flags register (probe-regions.h): COUNT[0]
   times to code of the probes TO[0], COUNT[1] times to that of TO[1]
   (a call probe stands for the code inlined at that call).  */
struct out_branch
{
  uint32_t src[BRANCH_MAX_PROBES], to[2][BRANCH_MAX_PROBES];
  unsigned char num_src, num_to[2];
  uint64_t count[2];
};

/* A function at one inline context.  */
struct out_func
{
  uint64_t guid, hash;
  const char *name;
  const char *bin;		/* First binary it came from, for warnings.  */
  uint32_t call_index;		/* In the caller; 0 at top level.  */
  struct out_body *body;
  size_t num_body, cap_body;
  struct out_func **kids;
  size_t num_kids, cap_kids;
  struct out_branch *branches;
  size_t num_branches, cap_branches;
  uint64_t samples;		/* Samples in its regions and inlinees',
				   and call-stack samples in the callees
				   of its indirect calls.  */
  /* The ordinal of the first of those samples (0: none), then at the
     top level its rank among the functions written.  */
  uint64_t first_sample;
  uint64_t total;
  /* At the top level: call-stack samples whose leaf was in its code,
     inlinees included (calls_from_samples).  */
  uint64_t leaf_samples;
};

/* The earlier of the sample ordinals A and B, where 0 is none.  */
static uint64_t
earlier (uint64_t a, uint64_t b)
{
  return !a || (b && b < a) ? b : a;
}

void
profile_init (struct sample_profile *prof)
{
  memset (prof, 0, sizeof *prof);
}

static void
push_func (struct out_func ***arr, size_t *num, size_t *cap,
	   struct out_func *f)
{
  *arr = lp_grow (*arr, cap, *num, sizeof **arr, 8);
  (*arr)[(*num)++] = f;
}

/* Append a body entry; it takes over TARGETS and SIZES.  */
static void
push_body (struct out_func *f, uint32_t index, uint64_t count,
	   struct call_target *targets, size_t num_targets,
	   struct size_count *sizes, size_t num_sizes)
{
  f->body = lp_grow (f->body, &f->cap_body, f->num_body, sizeof *f->body,
		     8);
  f->body[f->num_body].index = index;
  f->body[f->num_body].count = count;
  f->body[f->num_body].targets = targets;
  f->body[f->num_body].num_targets = num_targets;
  f->body[f->num_body].sizes = sizes;
  f->body[f->num_body].num_sizes = num_sizes;
  f->num_body++;
}

/* ARR (malloc'd, NULL when NUM is 0) of NUM elements of SIZE bytes
   with the N elements at FROM appended: the array, grown, or ARR when
   N is 0.  */
static void *
append_array (void *arr, size_t num, const void *from, size_t n,
	      size_t size)
{
  if (n == 0)
    return arr;
  arr = xrealloc (arr, (num + n) * size);
  memcpy ((char *) arr + num * size, from, n * size);
  return arr;
}

/* A copy of the call targets of probe P in REGS, or NULL.  */
static struct call_target *
copy_targets (const struct probe_regions *regs, size_t p, size_t *num)
{
  *num = regs->targets ? regs->targets[p].num : 0;
  return append_array (NULL, 0, *num ? regs->targets[p].targets : NULL,
		       *num, sizeof (struct call_target));
}

/* A copy of the memop sizes of probe P in REGS, or NULL.  */
static struct size_count *
copy_sizes (const struct probe_regions *regs, size_t p, size_t *num)
{
  *num = regs->sizes ? regs->sizes[p].num : 0;
  return append_array (NULL, 0, *num ? regs->sizes[p].sizes : NULL, *num,
		       sizeof (struct size_count));
}

/* Warn once per GUID about a missing descriptor.  */
static void
warn_no_desc (struct sample_profile *prof, const char *bin, uint64_t guid)
{
  for (size_t i = 0; i < prof->num_warned; i++)
    if (prof->warned[i] == guid)
      return;
  prof->warned = xrealloc (prof->warned,
			   (prof->num_warned + 1) * sizeof *prof->warned);
  prof->warned[prof->num_warned++] = guid;
  lp_warning (bin, "no descriptor for function GUID %" PRIu64
	      "; its probes are skipped", guid);
}

/* Give each function of OF (output function per node of SET) the
   branch records of the conditional jumps in its code that samples saw
   with the flags register: for each inline context with block probes
   in the jump's region, if its code (or code inlined into it) is where
   the jump goes and where it falls through.  */
static void
add_branches (const struct probe_set *set, const struct probe_regions *regs,
	      struct out_func **of)
{
  for (size_t j = 0; j < regs->num_jumps; j++)
    {
      const struct cond_jump *cj = &regs->jumps[j];
      if (!cj->taken && !cj->not_taken)
	continue;
      uint32_t nodes[BRANCH_MAX_PROBES];
      size_t n = regions_block_contexts_at (regs, set, cj->addr, nodes,
					    BRANCH_MAX_PROBES);
      for (size_t i = 0; i < n && i < BRANCH_MAX_PROBES; i++)
	{
	  struct out_func *f = of[nodes[i]];
	  if (!f)
	    continue;
	  struct out_branch b;
	  memset (&b, 0, sizeof b);
	  size_t ns = regions_context_probes_at (regs, set, cj->addr,
						 nodes[i], b.src,
						 BRANCH_MAX_PROBES);
	  size_t nt = regions_context_probes_at (regs, set, cj->target,
						 nodes[i], b.to[0],
						 BRANCH_MAX_PROBES);
	  size_t nf = regions_context_probes_at (regs, set, cj->next,
						 nodes[i], b.to[1],
						 BRANCH_MAX_PROBES);
	  if (!nt || !nf || ns > BRANCH_MAX_PROBES || nt > BRANCH_MAX_PROBES
	      || nf > BRANCH_MAX_PROBES)
	    continue;
	  b.num_src = ns;
	  b.num_to[0] = nt;
	  b.num_to[1] = nf;
	  /* Both ways into the same code say nothing.  */
	  if (nt == nf && !memcmp (b.to[0], b.to[1], nt * sizeof *b.to[0]))
	    continue;
	  b.count[0] = cj->taken;
	  b.count[1] = cj->not_taken;
	  f->branches = lp_grow (f->branches, &f->cap_branches,
				 f->num_branches, sizeof *f->branches, 8);
	  f->branches[f->num_branches++] = b;
	}
    }
}

/* With branch stacks, as llvm-profgen does: the call probe of a call
   inlined in the profiled build counts as often as the inlined copy
   was entered (the count of its probe 1), unless the caller has a
   probe of that index of its own.  */
static void
add_inlined_calls (const struct probe_set *set,
		   const struct probe_regions *regs, struct out_func **of)
{
  if (!regs->branch_units)
    return;
  uint64_t *entry = xcalloc (set->num_nodes + 1, sizeof *entry);
  unsigned char *has_entry = xcalloc (set->num_nodes + 1, 1);
  for (size_t p = 0; p < set->num_probes; p++)
    {
      const struct probe *pr = &set->probes[p];
      if (pr->index == 1 && pr->type == PROBE_BLOCK
	  && !(pr->attr & PROBE_ATTR_DANGLING))
	{
	  entry[pr->node] = lp_sat_add (entry[pr->node],
					regions_probe_count (regs, p));
	  has_entry[pr->node] = 1;
	}
    }
  for (size_t n = 0; n < set->num_nodes; n++)
    {
      const struct probe_node *node = &set->nodes[n];
      if (node->parent == PROBE_NO_NODE || !of[n] || !of[node->parent]
	  || !has_entry[n])
	continue;
      struct out_func *caller = of[node->parent];
      int own = 0;
      for (size_t i = 0; i < caller->num_body && !own; i++)
	own = caller->body[i].index == node->call_index;
      if (!own)
	push_body (caller, node->call_index, entry[n], NULL, 0, NULL, 0);
    }
  free (entry);
  free (has_entry);
}

void
profile_add_binary (struct sample_profile *prof, const char *bin,
		    const struct probe_set *set,
		    const struct probe_regions *regs)
{
  /* The output function of each node, NULL when skipped.  The decoder
     creates a parent before its children, so one pass in index order
     sees every parent first.  */
  struct out_func **of = xcalloc (set->num_nodes + 1, sizeof *of);

  for (size_t n = 0; n < set->num_nodes; n++)
    {
      const struct probe_node *node = &set->nodes[n];
      const struct probe_desc *desc = probe_find_desc (set, node->guid);
      if (node->parent != PROBE_NO_NODE && !of[node->parent])
	continue;
      if (!desc)
	{
	  warn_no_desc (prof, bin, node->guid);
	  continue;
	}
      struct out_func *f = xcalloc (1, sizeof *f);
      f->guid = node->guid;
      f->hash = desc->hash;
      f->name = desc->name;
      f->bin = bin;
      f->call_index = node->call_index;
      of[n] = f;
      if (node->parent == PROBE_NO_NODE)
	push_func (&prof->tops, &prof->num_tops, &prof->cap_tops, f);
      else
	push_func (&of[node->parent]->kids, &of[node->parent]->num_kids,
		   &of[node->parent]->cap_kids, f);
    }

  for (size_t p = 0; p < set->num_probes; p++)
    {
      const struct probe *pr = &set->probes[p];
      struct out_func *f = of[pr->node];
      if (!f || (pr->attr & PROBE_ATTR_DANGLING))
	continue;
      size_t nt, ns;
      struct call_target *t = copy_targets (regs, p, &nt);
      struct size_count *sz = copy_sizes (regs, p, &ns);
      push_body (f, pr->index, regions_probe_count (regs, p), t, nt, sz, ns);
      f->samples = lp_sat_add (f->samples, regions_probe_samples (regs, p));
      /* A call-stack sample in a callee of this probe's indirect call
	 says the function ran, even when none of its own IP samples
	 did (a dispatcher that only jumps on): it is written, with its
	 call targets.  */
      for (size_t k = 0; k < nt; k++)
	f->samples = lp_sat_add (f->samples, t[k].samples);
      f->first_sample = earlier (f->first_sample,
				 regions_probe_first_sample (regs, p));
    }
  /* Each region's code is one top-level function's.  */
  for (size_t r = 0; r < regs->num_regions; r++)
    {
      const struct probe_region *reg = &regs->regions[r];
      if (!reg->leaf_samples || !reg->num_probes)
	continue;
      uint32_t n = set->probes[regs->sorted_probes[reg->first_probe]].node;
      while (set->nodes[n].parent != PROBE_NO_NODE)
	n = set->nodes[n].parent;
      if (of[n])
	of[n]->leaf_samples = lp_sat_add (of[n]->leaf_samples,
					  reg->leaf_samples);
    }
  add_inlined_calls (set, regs, of);
  add_branches (set, regs, of);
  free (of);
}

/* The qsort comparators below are alike in shape only: one per
   order.  */
static int
cmp_body (const void *a, const void *b)
{
  const struct out_body *x = a, *y = b;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Order of functions: call-site probe, name, GUID.  */
static int
cmp_func (const void *a, const void *b)
{
  const struct out_func *x = *(struct out_func *const *) a;
  const struct out_func *y = *(struct out_func *const *) b;
  if (x->call_index != y->call_index)
    return x->call_index < y->call_index ? -1 : 1;
  int c = strcmp (x->name, y->name);
  if (c)
    return c;
  return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* Move FROM's body entries and inlinees into INTO (same function at
   the same context).  */
static void
absorb (struct out_func *into, struct out_func *from)
{
  if (into->hash != from->hash)
    lp_warning (NULL, "%s has checksum %" PRIu64 " in %s and %" PRIu64
		" in %s; using the first", into->name, into->hash,
		into->bin, from->hash, from->bin);
  for (size_t i = 0; i < from->num_body; i++)
    push_body (into, from->body[i].index, from->body[i].count,
	       from->body[i].targets, from->body[i].num_targets,
	       from->body[i].sizes, from->body[i].num_sizes);
  for (size_t i = 0; i < from->num_kids; i++)
    push_func (&into->kids, &into->num_kids, &into->cap_kids,
	       from->kids[i]);
  if (from->num_branches)
    {
      into->branches = lp_grow (into->branches, &into->cap_branches,
				into->num_branches + from->num_branches,
				sizeof *into->branches, 8);
      memcpy (into->branches + into->num_branches, from->branches,
	      from->num_branches * sizeof *from->branches);
      into->num_branches += from->num_branches;
    }
  free (from->branches);
  into->samples = lp_sat_add (into->samples, from->samples);
  into->leaf_samples = lp_sat_add (into->leaf_samples, from->leaf_samples);
  into->first_sample = earlier (into->first_sample, from->first_sample);
  free (from->body);
  free (from->kids);
  free (from);
}

/* Sort ARR and merge the equal functions in it; return the new
   number.  */
static size_t
merge_funcs (struct out_func **arr, size_t num)
{
  size_t n = 0;
  if (num > 1)
    qsort (arr, num, sizeof *arr, cmp_func);
  for (size_t i = 0; i < num; i++)
    if (n > 0 && arr[n - 1]->guid == arr[i]->guid
	&& arr[n - 1]->call_index == arr[i]->call_index)
      absorb (arr[n - 1], arr[i]);
    else
      arr[n++] = arr[i];
  return n;
}

static int
cmp_target_name (const void *a, const void *b)
{
  const struct call_target *x = a, *y = b;
  return strcmp (x->name, y->name);
}

/* Output order of targets: most samples first, then by name.  */
static int
cmp_target_out (const void *a, const void *b)
{
  const struct call_target *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Sum the targets of B's equal callees (from copies of the probe) and
   put them in output order.  */
static void
normalize_targets (struct out_body *b)
{
  size_t n = 0;
  if (b->num_targets < 2)
    return;
  qsort (b->targets, b->num_targets, sizeof *b->targets, cmp_target_name);
  for (size_t i = 0; i < b->num_targets; i++)
    if (n > 0 && strcmp (b->targets[n - 1].name, b->targets[i].name) == 0)
      b->targets[n - 1].samples = lp_sat_add (b->targets[n - 1].samples,
					      b->targets[i].samples);
    else
      b->targets[n++] = b->targets[i];
  b->num_targets = n;
  qsort (b->targets, n, sizeof *b->targets, cmp_target_out);
}

static int
cmp_size_value (const void *a, const void *b)
{
  const struct size_count *x = a, *y = b;
  return x->size < y->size ? -1 : x->size > y->size;
}

/* Output order of sizes: most samples first, then smaller first.  */
static int
cmp_size_out (const void *a, const void *b)
{
  const struct size_count *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  return cmp_size_value (a, b);
}

/* Sum the samples of B's equal sizes (from copies of the call) and put
   them in output order.  */
static void
normalize_sizes (struct out_body *b)
{
  size_t n = 0;
  if (b->num_sizes > 1)
    qsort (b->sizes, b->num_sizes, sizeof *b->sizes, cmp_size_value);
  for (size_t i = 0; i < b->num_sizes; i++)
    if (n > 0 && b->sizes[n - 1].size == b->sizes[i].size)
      b->sizes[n - 1].samples = lp_sat_add (b->sizes[n - 1].samples,
					    b->sizes[i].samples);
    else
      b->sizes[n++] = b->sizes[i];
  b->num_sizes = n;
  if (n > 1)
    qsort (b->sizes, n, sizeof *b->sizes, cmp_size_out);
}

/* Add FROM's count, targets and sizes to INTO (copies of one probe).  */
static void
merge_body (struct out_body *into, struct out_body *from)
{
  into->count = lp_sat_add (into->count, from->count);
  into->sizes = append_array (into->sizes, into->num_sizes, from->sizes,
			      from->num_sizes, sizeof *into->sizes);
  into->num_sizes += from->num_sizes;
  free (from->sizes);
  into->targets = append_array (into->targets, into->num_targets,
				from->targets, from->num_targets,
				sizeof *into->targets);
  into->num_targets += from->num_targets;
  free (from->targets);
}

/* Compare the probe lists A (NA long) and B (NB long).  */
static int
cmp_probe_list (const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
  for (size_t i = 0; i < na && i < nb; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

static int
cmp_branch (const void *a, const void *b)
{
  const struct out_branch *x = a, *y = b;
  int c = cmp_probe_list (x->src, x->num_src, y->src, y->num_src);
  for (int k = 0; k < 2 && !c; k++)
    c = cmp_probe_list (x->to[k], x->num_to[k], y->to[k], y->num_to[k]);
  return c;
}

/* Put F's branch records in a canonical form (the side with the lower
   probes first: copies of one branch may jump either way), sort them
   and sum the equal ones.  */
static void
normalize_branches (struct out_func *f)
{
  for (size_t i = 0; i < f->num_branches; i++)
    {
      struct out_branch *b = &f->branches[i];
      if (cmp_probe_list (b->to[0], b->num_to[0], b->to[1], b->num_to[1]) > 0)
	{
	  uint32_t t[BRANCH_MAX_PROBES];
	  memcpy (t, b->to[0], sizeof t);
	  memcpy (b->to[0], b->to[1], sizeof t);
	  memcpy (b->to[1], t, sizeof t);
	  unsigned char n = b->num_to[0];
	  b->num_to[0] = b->num_to[1];
	  b->num_to[1] = n;
	  uint64_t c = b->count[0];
	  b->count[0] = b->count[1];
	  b->count[1] = c;
	}
    }
  if (f->num_branches > 1)
    qsort (f->branches, f->num_branches, sizeof *f->branches, cmp_branch);
  size_t n = 0;
  for (size_t i = 0; i < f->num_branches; i++)
    if (n > 0 && cmp_branch (&f->branches[n - 1], &f->branches[i]) == 0)
      for (int k = 0; k < 2; k++)
	f->branches[n - 1].count[k] = lp_sat_add (f->branches[n - 1].count[k],
						  f->branches[i].count[k]);
    else
      f->branches[n++] = f->branches[i];
  f->num_branches = n;
}

/* Merge F's copies of probes and of inlinees, recursively, and compute
   its total and sample count.  */
static void
normalize (struct out_func *f)
{
  size_t n = 0;
  if (f->num_body > 1)
    qsort (f->body, f->num_body, sizeof *f->body, cmp_body);
  for (size_t i = 0; i < f->num_body; i++)
    if (n > 0 && f->body[n - 1].index == f->body[i].index)
      merge_body (&f->body[n - 1], &f->body[i]);
    else
      f->body[n++] = f->body[i];
  f->num_body = n;
  for (size_t i = 0; i < f->num_body; i++)
    {
      normalize_targets (&f->body[i]);
      normalize_sizes (&f->body[i]);
    }
  normalize_branches (f);

  f->num_kids = merge_funcs (f->kids, f->num_kids);
  f->total = 0;
  for (size_t i = 0; i < f->num_body; i++)
    f->total = lp_sat_add (f->total, f->body[i].count);
  for (size_t i = 0; i < f->num_kids; i++)
    {
      normalize (f->kids[i]);
      f->total = lp_sat_add (f->total, f->kids[i]->total);
      f->samples = lp_sat_add (f->samples, f->kids[i]->samples);
      f->first_sample = earlier (f->first_sample, f->kids[i]->first_sample);
    }
}

static int
cmp_first_sample (const void *a, const void *b)
{
  const struct out_func *x = *(struct out_func *const *) a;
  const struct out_func *y = *(struct out_func *const *) b;
  if (x->first_sample != y->first_sample)
    return x->first_sample < y->first_sample ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Replace the first-sample ordinal of each of the NUM functions TOPS
   that has samples by its rank, from 1, in the order of those
   ordinals.  */
static void
rank_first_samples (struct out_func **tops, size_t num)
{
  struct out_func **order = xmalloc ((num + 1) * sizeof *order);
  size_t n = 0;
  for (size_t i = 0; i < num; i++)
    if (tops[i]->samples > 0 && tops[i]->first_sample > 0)
      order[n++] = tops[i];
  qsort (order, n, sizeof *order, cmp_first_sample);
  for (size_t i = 0; i < n; i++)
    order[i]->first_sample = i + 1;
  free (order);
}

/* Write N probe indices P, comma-separated.  */
static void
write_probe_list (FILE *out, const uint32_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    fprintf (out, "%s%" PRIu32, i ? "," : "", p[i]);
}

/* Write the branch record B as a comment line to LLVM's reader,
   "#branch SRC: TO:COUNT TO:COUNT" (probe-regions.h, sample-write.h),
   which latepgo's sample-use reads as belonging to the function whose
   body was just written.  */
static void
write_branch (FILE *out, const struct out_branch *b)
{
  fputs ("#branch ", out);
  write_probe_list (out, b->src, b->num_src);
  fputc (':', out);
  for (int k = 0; k < 2; k++)
    {
      fputc (' ', out);
      write_probe_list (out, b->to[k], b->num_to[k]);
      fprintf (out, ":%" PRIu64, b->count[k]);
    }
  fputc ('\n', out);
}

/* Write F's body, inlinees and checksum at DEPTH spaces.  */
static void
write_body (FILE *out, const struct out_func *f, int depth)
{
  for (size_t i = 0; i < f->num_body; i++)
    {
      const struct out_body *b = &f->body[i];
      fprintf (out, "%*s%" PRIu32 ": %" PRIu64, depth, "", b->index,
	       b->count);
      for (size_t t = 0; t < b->num_targets; t++)
	fprintf (out, " %s:%" PRIu64, b->targets[t].name,
		 b->targets[t].samples);
      fputc ('\n', out);
      /* A comment line for LLVM's reader (only '#' in column 1 is
	 one), which has no place for value profiles; latepgo's
	 sample-use reads it as belonging to the probe just written.  */
      if (b->num_sizes)
	{
	  fprintf (out, "#sizes %" PRIu32 ":", b->index);
	  for (size_t k = 0; k < b->num_sizes; k++)
	    fprintf (out, " %" PRIu64 ":%" PRIu64, b->sizes[k].size,
		     b->sizes[k].samples);
	  fputc ('\n', out);
	}
    }
  for (size_t i = 0; i < f->num_branches; i++)
    write_branch (out, &f->branches[i]);
  for (size_t i = 0; i < f->num_kids; i++)
    {
      const struct out_func *k = f->kids[i];
      fprintf (out, "%*s%" PRIu32 ": %s:%" PRIu64 "\n", depth, "",
	       k->call_index, k->name, k->total);
      write_body (out, k, depth + 1);
    }
  fprintf (out, "%*s!CFGChecksum: %" PRIu64 "\n", depth, "", f->hash);
}

static void
free_func (struct out_func *f)
{
  for (size_t i = 0; i < f->num_kids; i++)
    free_func (f->kids[i]);
  for (size_t i = 0; i < f->num_body; i++)
    {
      free (f->body[i].targets);
      free (f->body[i].sizes);
    }
  free (f->body);
  free (f->kids);
  free (f->branches);
  free (f);
}

/* The top-level function named NAME among the NUM of TOPS (sorted by
   name), or NULL when there is none or several (one name, several
   GUIDs).  */
static const struct out_func *
top_named (struct out_func *const *tops, size_t num, const char *name)
{
  size_t lo = 0, hi = num;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (strcmp (tops[mid]->name, name) < 0)
	lo = mid + 1;
      else
	hi = mid;
    }
  if (lo == num || strcmp (tops[lo]->name, name) != 0
      || (lo + 1 < num && strcmp (tops[lo + 1]->name, name) == 0))
    return NULL;
  return tops[lo];
}

/* An indirect call's callee samples (call stacks whose leaf is in the
   callee, its caller the call) measure the callee's time under the
   call, not its calls: a callee ten times as long a call gets ten
   times the samples a call.  The callee's calls are its entry count
   (HEAD, the estimate of its probe 1), its time its leaf samples in
   all call stacks (LEAF); if a call costs the same from every caller,
   the call's share of LEAF is its share of the calls.  So in F and its
   inlinees, each callee's samples become HEAD x SAMPLES / LEAF, at
   least 1, the estimate of its calls from that site (in HEAD's unit,
   that of the block counts); a site with a callee not among the TOPS
   keeps its samples.  */
static void
calls_from_samples (struct out_func *f, struct out_func *const *tops,
		    size_t num_tops)
{
  for (size_t i = 0; i < f->num_body; i++)
    {
      struct out_body *b = &f->body[i];
      if (b->num_targets == 0)
	continue;
      const struct out_func **callee = xmalloc (b->num_targets
						* sizeof *callee);
      size_t k;
      for (k = 0; k < b->num_targets; k++)
	{
	  callee[k] = top_named (tops, num_tops, b->targets[k].name);
	  if (!callee[k] || !callee[k]->leaf_samples)
	    break;
	}
      if (k < b->num_targets)
	{
	  free (callee);
	  continue;
	}
      for (k = 0; k < b->num_targets; k++)
	{
	  const struct out_func *t = callee[k];
	  uint64_t head = (t->num_body > 0 && t->body[0].index == 1
			   ? t->body[0].count : 0);
	  double calls = ((double) head * b->targets[k].samples
			  / t->leaf_samples + 0.5);
	  b->targets[k].samples = (calls < 1 ? 1
				   : calls >= 18446744073709551615.0
				   ? UINT64_MAX : (uint64_t) calls);
	}
      free (callee);
      qsort (b->targets, b->num_targets, sizeof *b->targets,
	     cmp_target_out);
    }
  for (size_t i = 0; i < f->num_kids; i++)
    calls_from_samples (f->kids[i], tops, num_tops);
}

void
profile_prepare (struct sample_profile *prof)
{
  prof->num_tops = merge_funcs (prof->tops, prof->num_tops);
  for (size_t i = 0; i < prof->num_tops; i++)
    normalize (prof->tops[i]);
  for (size_t i = 0; i < prof->num_tops; i++)
    calls_from_samples (prof->tops[i], prof->tops, prof->num_tops);
  rank_first_samples (prof->tops, prof->num_tops);
}

/* Order of instances for profile_write_values: name, then checksum.  */
static int
cmp_instance (const void *a, const void *b)
{
  const struct out_func *x = *(struct out_func *const *) a;
  const struct out_func *y = *(struct out_func *const *) b;
  int c = strcmp (x->name, y->name);
  if (c)
    return c;
  return x->hash < y->hash ? -1 : x->hash > y->hash;
}

/* Append F and its inlinees, recursively, to PROF's instances.  */
static void
add_instances (struct sample_profile *prof, struct out_func *f)
{
  push_func (&prof->instances, &prof->num_instances, &prof->cap_instances,
	     f);
  for (size_t i = 0; i < f->num_kids; i++)
    add_instances (prof, f->kids[i]);
}

/* The first of PROF's instances (sorted by cmp_instance) named NAME
   with checksum HASH, and in *END the index after the last.  */
static size_t
find_instances (struct sample_profile *prof, const char *name,
		uint64_t hash, size_t *end)
{
  if (!prof->instances && prof->num_tops)
    {
      for (size_t i = 0; i < prof->num_tops; i++)
	add_instances (prof, prof->tops[i]);
      qsort (prof->instances, prof->num_instances, sizeof *prof->instances,
	     cmp_instance);
    }
  struct out_func key = { 0 };
  key.name = name;
  key.hash = hash;
  const struct out_func *kp = &key;
  size_t lo = 0, hi = prof->num_instances;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (cmp_instance (&prof->instances[mid], &kp) < 0)
	lo = mid + 1;
      else
	hi = mid;
    }
  size_t e = lo;
  while (e < prof->num_instances
	 && cmp_instance (&prof->instances[e], &kp) == 0)
    e++;
  *end = e;
  return lo;
}

/* Whether the N sorted probe indices IDS hold ID.  */
static int
has_index (const uint32_t *ids, size_t n, uint32_t id)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (ids[mid] < id)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo < n && ids[lo] == id;
}

int
profile_write_values (struct sample_profile *prof, const char *name,
		      uint64_t hash, const uint32_t *ids, size_t num_ids,
		      FILE *out)
{
  size_t end;
  size_t i = find_instances (prof, name, hash, &end);
  if (i == end)
    return 0;
  /* The sizes of all copies, summed per probe and size.  */
  struct out_func agg = { 0 };
  for (size_t k = i; k < end; k++)
    {
      const struct out_func *f = prof->instances[k];
      for (size_t b = 0; b < f->num_body; b++)
	if (f->body[b].num_sizes
	    && has_index (ids, num_ids, f->body[b].index))
	  push_body (&agg, f->body[b].index, 0, NULL, 0,
		     append_array (NULL, 0, f->body[b].sizes,
				   f->body[b].num_sizes,
				   sizeof *f->body[b].sizes),
		     f->body[b].num_sizes);
    }
  if (agg.num_body > 1)
    qsort (agg.body, agg.num_body, sizeof *agg.body, cmp_body);
  size_t n = 0;
  for (size_t b = 0; b < agg.num_body; b++)
    if (n > 0 && agg.body[n - 1].index == agg.body[b].index)
      merge_body (&agg.body[n - 1], &agg.body[b]);
    else
      agg.body[n++] = agg.body[b];
  for (size_t b = 0; b < n; b++)
    {
      normalize_sizes (&agg.body[b]);
      fprintf (out, "#sizes %" PRIu32 ":", agg.body[b].index);
      for (size_t z = 0; z < agg.body[b].num_sizes; z++)
	fprintf (out, " %" PRIu64 ":%" PRIu64, agg.body[b].sizes[z].size,
		 agg.body[b].sizes[z].samples);
      fputc ('\n', out);
      free (agg.body[b].sizes);
    }
  free (agg.body);
  for (size_t k = i; k < end; k++)
    {
      const struct out_func *f = prof->instances[k];
      for (size_t b = 0; b < f->num_branches; b++)
	write_branch (out, &f->branches[b]);
    }
  return 1;
}

uint64_t
profile_first_sample (struct sample_profile *prof, const char *name,
		      uint64_t hash)
{
  size_t end;
  size_t i = find_instances (prof, name, hash, &end);
  for (; i < end; i++)
    if (prof->instances[i]->call_index == 0
	&& prof->instances[i]->samples > 0)
      return prof->instances[i]->first_sample;
  return 0;
}

void
profile_free (struct sample_profile *prof)
{
  for (size_t i = 0; i < prof->num_tops; i++)
    free_func (prof->tops[i]);
  free (prof->tops);
  free (prof->instances);
  prof->tops = NULL;
  prof->instances = NULL;
  prof->num_tops = prof->cap_tops = 0;
  prof->num_instances = prof->cap_instances = 0;
}

size_t
profile_write (struct sample_profile *prof, FILE *out)
{
  size_t written = 0;

  profile_prepare (prof);
  for (size_t i = 0; i < prof->num_tops; i++)
    {
      struct out_func *f = prof->tops[i];
      if (f->samples == 0)
	continue;
      uint64_t head = 0;
      if (f->num_body > 0 && f->body[0].index == 1)
	head = f->body[0].count;
      fprintf (out, "%s:%" PRIu64 ":%" PRIu64 "\n", f->name, f->total, head);
      if (f->first_sample)
	fprintf (out, "#first-sample %" PRIu64 "\n", f->first_sample);
      write_body (out, f, 1);
      written++;
    }
  profile_free (prof);
  return written;
}
