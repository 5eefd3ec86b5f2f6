/* values.cc: value profiling of memory operations and indirect calls.

   GCC's -fprofile-use does two things with value profiles that matter
   for real programs: it versions a memcpy/memset whose size is not a
   constant for its most common size (then expanded inline) and picks
   the expansion strategy from the average size
   (value-prof.cc:gimple_stringops_transform, stringop_block_profile);
   and it turns a hot indirect call into a guarded direct call to its
   usual target, which the inliner may then inline (ipa-profile.cc).

   latepgo profiles both with plain counters in the function's counter
   array, after the edge counters, so they merge by addition like every
   other counter and need no value-profile section:
   - memop sizes: one counter per size range (latepgo-abi.h, the ranges
     of LLVM's memop profile);
   - indirect calls: one counter per candidate target, the address-taken
     functions of this file whose type is the call's, plus one for any
     other target.  A call with more candidates than MAX_CANDIDATES is
     not profiled.
   - the function's first run: its rank in the order functions first ran
     (GCC's time profile), which -freorder-functions uses to place
     functions that run together next to each other.
   In use mode the counts become the histograms and first-run times
   GCC's own transformations read.  The sites (and an indirect call's candidates)
   are part of the checksum.  */

#include "gcc-common.h"
#include "values.h"
#include "cfg-graph.h"
#include "dump.h"
#include "entry-guard.h"
#include "names.h"
#include "arguments.h"
#include "profile-read.h"
#include "promote.h"
#include "runtime-decls.h"
#include "sample-read.h"
#include "shard.h"
#include "value-prof.h"
#include "../libprof/latepgo-abi.h"

#define MAX_CANDIDATES 16

/* Indirect calls with at most this many candidates are counted inline
   (a compare and a conditional move per candidate) instead of by a call
   to the runtime.  */
#define MAX_INLINE_CANDIDATES 4

/* Address-taken functions of this file with a body, sorted by profile
   name; built once per pass (lp_values_begin).  Per function type, the
   candidate lists handed out to sites.  */
struct candidate_fn
{
  cgraph_node *node;
  char *name;
  unsigned HOST_WIDE_INT hash;	/* MD5 of NAME, low 64 bits.  */
};
static vec<candidate_fn> address_taken;

/* A list of candidates, shared by the calls with the same list, and
   its table of addresses in generate mode.  */
struct lp_candidates
{
  auto_vec<const candidate_fn *> fns;
  tree table;
};
static vec<lp_candidates *> candidate_lists;

/* The runtime's clock, a GC root (lp_values_roots, registered by
   plugin_init).  */
static tree clock_decl;

const struct ggc_root_tab lp_values_roots[] = {
  { &clock_decl, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* Whether STMT is a memop with a variable size; its size argument
   index in *SIZE_ARG.  The calls GCC itself would profile
   (interesting_stringop_to_profile_p).  */

static bool
memop_site_p (gimple *stmt, int *size_arg)
{
  if (!is_gimple_call (stmt) || !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL))
    return false;
  switch (DECL_FUNCTION_CODE (gimple_call_fndecl (stmt)))
    {
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMPCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMSET:
      *size_arg = 2;
      break;
    case BUILT_IN_BZERO:
      *size_arg = 1;
      break;
    default:
      return false;
    }
  tree size = gimple_call_arg (stmt, *size_arg);
  return TREE_CODE (size) != INTEGER_CST && INTEGRAL_TYPE_P (TREE_TYPE (size));
}

/* Whether STMT calls through a pointer.  */

static bool
icall_site_p (gimple *stmt)
{
  return (is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
	  && !gimple_call_fndecl (stmt) && gimple_call_fntype (stmt));
}

static int
compare_candidates (const void *pa, const void *pb)
{
  return strcmp (((const candidate_fn *) pa)->name,
		 ((const candidate_fn *) pb)->name);
}

/* Before the first function of the pass: the address-taken functions
   (the same in the generate and use builds of a file).  */

void
lp_values_begin (void)
{
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    if (node->address_taken && !lp_skip_function_p (node))
      {
	char *name = lp_profile_name (node->decl);
	candidate_fn c = { node, name, lp_md5_low64 (name, strlen (name)) };
	address_taken.safe_push (c);
      }
  address_taken.qsort (compare_candidates);
}

void
lp_values_end (void)
{
  for (candidate_fn &c : address_taken)
    free (c.name);
  address_taken.release ();
  for (lp_candidates *l : candidate_lists)
    delete l;
  candidate_lists.release ();
}

/* The candidate targets of the indirect call STMT, or NULL if there
   are none or too many.  */

static lp_candidates *
icall_candidates (gimple *stmt)
{
  tree fntype = gimple_call_fntype (stmt);
  auto_vec<const candidate_fn *> fns;
  for (candidate_fn &c : address_taken)
    if (types_compatible_p (TREE_TYPE (c.node->decl), fntype))
      {
	if (fns.length () == MAX_CANDIDATES)
	  return NULL;
	fns.safe_push (&c);
      }
  if (fns.is_empty ())
    return NULL;
  for (lp_candidates *l : candidate_lists)
    if (l->fns.length () == fns.length ()
	&& memcmp (l->fns.address (), fns.address (),
		   fns.length () * sizeof (const candidate_fn *)) == 0)
      return l;
  lp_candidates *l = new lp_candidates ();
  l->fns.safe_splice (fns);
  l->table = NULL_TREE;
  candidate_lists.safe_push (l);
  return l;
}

/* Collect the value sites of the current function into G, in block
   order.  */

void
lp_find_value_sites (lp_graph *g)
{
  basic_block bb;
  int size_arg;

  g->value_sites.truncate (0);
  g->n_value_counters = 0;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	lp_value_site site = { stmt, false, NULL, 0 };
	if (memop_site_p (stmt, &size_arg))
	  site.n_counters = LATEPGO_MEMOP_BUCKETS;
	else if (icall_site_p (stmt)
		 && (site.candidates = icall_candidates (stmt)) != NULL)
	  {
	    site.icall = true;
	    site.n_counters = site.candidates->fns.length () + 1;
	  }
	else
	  continue;
	g->value_sites.safe_push (site);
	g->n_value_counters += site.n_counters;
      }
}

/* Append G's value sites to the checksummed BYTES: kind, block and, for
   an indirect call, its candidates' names.  */

void
lp_checksum_value_sites (lp_graph *g, vec<unsigned char> *bytes)
{
  auto push_word = [bytes] (unsigned HOST_WIDE_INT w)
    {
      for (int k = 0; k < 4; k++)
	bytes->safe_push ((unsigned char) (w >> (8 * k)));
    };
  push_word (0x76616c73);	/* "vals" */
  push_word (g->value_sites.length ());
  for (lp_value_site &s : g->value_sites)
    {
      push_word (s.icall);
      push_word (gimple_bb (s.stmt)->index);
      push_word (s.n_counters);
      if (s.icall)
	for (const candidate_fn *c : s.candidates->fns)
	  push_word (c->hash);
    }
}

/* The declaration of the runtime helper of a memop or (ICALL) an
   indirect call, plain or atomic as the counters are updated.  */

static tree
helper_decl (bool icall)
{
  return lp_value_helper_decl (icall,
			       latepgo_opts.atomic && !lp_shard_active_p ());
}

/* The table of candidate addresses of L, made once per file:
   read-only, each entry the candidate's address minus the table's, an
   assembler-time constant that needs no dynamic relocation in a PIE or
   shared library.  */

static tree
candidate_table (lp_candidates *l)
{
  static unsigned n_tables;
  if (l->table)
    return l->table;
  unsigned n = l->fns.length ();
  tree i64 = long_long_integer_type_node;
  tree type = build_array_type (i64, build_index_type (size_int (n - 1)));
  char name[40];
  snprintf (name, sizeof name, "__latepgo_icall_targets.%u", n_tables++);
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
			 type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  TREE_READONLY (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  vec<constructor_elt, va_gc> *elts = NULL;
  for (unsigned i = 0; i < n; i++)
    CONSTRUCTOR_APPEND_ELT
      (elts, size_int (i),
       build2 (MINUS_EXPR, i64,
	       fold_convert (i64, build_fold_addr_expr (l->fns[i]->node->decl)),
	       fold_convert (i64, build_fold_addr_expr (var))));
  DECL_INITIAL (var) = build_constructor (type, elts);
  varpool_node::finalize_decl (var);
  l->table = var;
  return var;
}

/* Before GSI: the index of FN among the candidates L, or their number
   if it is none of them, by compares and conditional moves (no call,
   no branch), then COUNTERS[BASE + index] += 1.  */

static void
count_target_inline (gimple_stmt_iterator *gsi, lp_candidates *l, tree fn,
		     tree counters, int base)
{
  tree u64 = long_long_unsigned_type_node;
  unsigned n = l->fns.length ();
  tree idx = build_int_cst (integer_type_node, base + n);
  for (int i = n - 1; i >= 0; i--)
    {
      tree cand = make_temp_ssa_name (ptr_type_node, NULL, "PROF_icall_cand");
      gsi_insert_before (gsi, gimple_build_assign
				(cand, NOP_EXPR,
				 build_fold_addr_expr (l->fns[i]->node->decl)),
			 GSI_SAME_STMT);
      tree eq = make_temp_ssa_name (boolean_type_node, NULL, "PROF_icall_eq");
      gsi_insert_before (gsi, gimple_build_assign (eq, EQ_EXPR, fn, cand),
			 GSI_SAME_STMT);
      tree next = make_temp_ssa_name (integer_type_node, NULL,
				      "PROF_icall_idx");
      gsi_insert_before (gsi, gimple_build_assign
				(next, COND_EXPR, eq,
				 build_int_cst (integer_type_node, base + i),
				 idx),
			 GSI_SAME_STMT);
      idx = next;
    }
  gsi_insert_seq_before (gsi, lp_counter_add_seq (counters, idx,
						  build_int_cst (u64, 1)),
			 GSI_SAME_STMT);
}

/* The address of counter BASE of COUNTERS (lp_counter_ref), as a call
   argument; computed before GSI if it is not a constant.  */

static tree
site_counters (gimple_stmt_iterator *gsi, tree counters, int base)
{
  tree u64 = long_long_unsigned_type_node;
  tree addr = build_fold_addr_expr
		(lp_counter_ref (counters,
				 build_int_cst (integer_type_node, base)));
  if (is_gimple_min_invariant (addr))
    return addr;
  tree a = make_temp_ssa_name (build_pointer_type (u64), NULL,
			       "PROF_counter");
  gsi_insert_before (gsi, gimple_build_assign (a, addr), GSI_SAME_STMT);
  return a;
}

/* Generate mode: before each site of G, count its value into the site's
   counters in COUNTERS: inline for an indirect call with few
   candidates, else by calling the runtime helper with the size or
   target.  */

void
lp_instrument_values (lp_graph *g, tree counters)
{
  tree u64 = long_long_unsigned_type_node;
  int base = g->n_counters;
  unsigned i;
  lp_value_site *s;

  if (!g->values)
    return;
  FOR_EACH_VEC_ELT (g->value_sites, i, s)
    {
      gimple *stmt = s->stmt;
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gcall *call;
      if (s->icall)
	{
	  tree target = gimple_call_fn (stmt);
	  if (TREE_CODE (target) == OBJ_TYPE_REF)
	    target = OBJ_TYPE_REF_EXPR (target);
	  tree fn = make_temp_ssa_name (ptr_type_node, NULL, "PROF_icall_fn");
	  gsi_insert_before (&gsi, gimple_build_assign (fn, NOP_EXPR, target),
			     GSI_SAME_STMT);
	  if (s->candidates->fns.length () <= MAX_INLINE_CANDIDATES)
	    {
	      count_target_inline (&gsi, s->candidates, fn, counters, base);
	      base += s->n_counters;
	      continue;
	    }
	  tree table = candidate_table (s->candidates);
	  call = gimple_build_call (helper_decl (true), 4,
				    site_counters (&gsi, counters, base), fn,
				    build_fold_addr_expr (table),
				    build_int_cst (unsigned_type_node,
						   s->candidates->fns.length ()));
	}
      else
	{
	  int size_arg;
	  memop_site_p (stmt, &size_arg);
	  tree size64 = make_temp_ssa_name (u64, NULL, "PROF_memop_size");
	  gsi_insert_before (&gsi, gimple_build_assign
				     (size64, NOP_EXPR,
				      gimple_call_arg (stmt, size_arg)),
			     GSI_SAME_STMT);
	  call = gimple_build_call (helper_decl (false), 2,
				    site_counters (&gsi, counters, base),
				    size64);
	}
      gimple_set_location (call, gimple_location (stmt));
      gsi_insert_before (&gsi, call, GSI_SAME_STMT);
      base += s->n_counters;
    }
}

/* A representative size of memop bucket B, for the average: the size
   itself where the bucket is one size, the middle of a range, and 1024
   for "513 and more" (large enough for GCC to call the library).  */

static gcov_type
bucket_value (unsigned b)
{
  unsigned long long lo = latepgo_memop_bucket_min (b);
  if (b == LATEPGO_MEMOP_BUCKETS - 1)
    return 1024;
  unsigned long long hi = latepgo_memop_bucket_min (b + 1) - 1;
  return (lo + hi) / 2;
}

/* Whether memop bucket B holds one size only.  */

static bool
exact_bucket_p (unsigned b)
{
  return (b < LATEPGO_MEMOP_BUCKETS - 1
	  && latepgo_memop_bucket_min (b + 1) == latepgo_memop_bucket_min (b) + 1);
}

/* A histogram of TYPE on STMT for VALUE with N counters.  */

static histogram_value
add_histogram (gimple *stmt, enum hist_type type, tree value, unsigned n)
{
  histogram_value h = gimple_alloc_histogram_value (cfun, type, stmt, value);
  h->n_counters = n;
  h->hvalue.counters = XCNEWVEC (gcov_type, n);
  gimple_add_histogram_value (cfun, stmt, h);
  return h;
}

/* Fill the TOPN-format histogram H (all, number of pairs, then value and
   count pairs, most common first) from the N (VALUE, COUNT) pairs.  */

static void
fill_topn (histogram_value h, gcov_type all, gcov_type *value,
	   gcov_type *count, unsigned n)
{
  /* Insertion sort by count: N is at most 16.  */
  unsigned order[MAX_CANDIDATES + LATEPGO_MEMOP_BUCKETS];
  for (unsigned i = 0; i < n; i++)
    {
      unsigned j = i;
      for (; j > 0 && count[order[j - 1]] < count[i]; j--)
	order[j] = order[j - 1];
      order[j] = i;
    }
  h->hvalue.counters[0] = all;
  h->hvalue.counters[1] = n;
  for (unsigned i = 0; i < n; i++)
    {
      h->hvalue.counters[2 + 2 * i] = value[order[i]];
      h->hvalue.counters[3 + 2 * i] = count[order[i]];
    }
}

/* V of TOTAL profiled events as a share of ALL, the count of the
   site's block (GCC checks histograms against it), rounded.  */

static gcov_type
scale_to_block (gcov_type v, gcov_type total, gcov_type all)
{
  return MIN ((gcov_type) ((double) v * all / total + 0.5), all);
}

/* The profile id ipa-profile looks indirect-call targets up by:
   GCC sets it only in its own profiling builds, so give each candidate
   one from its profile name (nonzero, 31 bits, as GCC's).  */

static int
candidate_profile_id (const candidate_fn *c)
{
  cgraph_node *n = c->node;
  if (!n->profile_id)
    n->profile_id = (c->hash & 0x7fffffff) ? (c->hash & 0x7fffffff) : 1;
  return n->profile_id;
}

/* Use mode: attach to each site of G the histograms native
   -fprofile-use would have read from REC's counters, scaled to the
   site's annotated block count so that GCC's consistency checks hold
   even for racy training counts: for a memop the most common exact
   sizes and the average size, for an indirect call its targets.  Then
   run GCC's value transformations (ipa-profile later makes the
   indirect calls speculative).  SITE_BASE, unless NULL, gives each
   site's first counter in REC, or -1 for a site REC does not describe
   (salvage.cc: a changed function's sites found in its training
   version); NULL: the sites' counters follow G's edge counters in
   order.  */

void
lp_annotate_values (lp_graph *g, const lp_profile_record *rec,
		    const int *site_base, FILE *dump)
{
  unsigned i;
  lp_value_site *s;
  bool any_memop = false;
  unsigned base = g->n_counters;

  if (!g->values)
    return;
  FOR_EACH_VEC_ELT (g->value_sites, i, s)
    {
      gcov_type c[MAX_CANDIDATES + LATEPGO_MEMOP_BUCKETS], total = 0;
      unsigned first = site_base ? site_base[i] : base;
      base += s->n_counters;
      if (site_base && site_base[i] < 0)
	continue;
      for (int b = 0; b < s->n_counters; b++)
	{
	  c[b] = lp_profile_counter (rec, first + b);
	  total += c[b];
	}
      if (dump)
	{
	  fprintf (dump, "  value site %u %s", i, s->icall ? "targets" : "sizes");
	  for (int b = 0; b < s->n_counters; b++)
	    if (c[b] && s->icall && b < s->n_counters - 1)
	      fprintf (dump, " %s:%" PRId64,
		       lp_symbol_name (s->candidates->fns[b]->node->decl),
		       (int64_t) c[b]);
	    else if (c[b] && s->icall)
	      fprintf (dump, " other:%" PRId64, (int64_t) c[b]);
	    else if (c[b])
	      fprintf (dump, " %llu%s:%" PRId64, latepgo_memop_bucket_min (b),
		       exact_bucket_p (b) ? "" : "+", (int64_t) c[b]);
	  fputc ('\n', dump);
	}
      profile_count bbc = gimple_bb (s->stmt)->count.ipa ();
      if (total <= 0 || !bbc.initialized_p () || bbc.to_gcov_type () <= 0)
	continue;
      gcov_type all = bbc.to_gcov_type ();
      auto scale = [all, total] (gcov_type v) -> gcov_type
	{
	  return scale_to_block (v, total, all);
	};

      gcov_type value[MAX_CANDIDATES + LATEPGO_MEMOP_BUCKETS];
      gcov_type count[MAX_CANDIDATES + LATEPGO_MEMOP_BUCKETS];
      unsigned n = 0;
      if (s->icall)
	{
	  for (int b = 0; b < s->n_counters - 1; b++)
	    if (c[b])
	      {
		value[n] = candidate_profile_id (s->candidates->fns[b]);
		count[n++] = scale (c[b]);
	      }
	  if (n)
	    fill_topn (add_histogram (s->stmt, HIST_TYPE_INDIR_CALL,
				      gimple_call_fn (s->stmt), 2 + 2 * n),
		       all, value, count, n);
	  continue;
	}

      int size_arg;
      memop_site_p (s->stmt, &size_arg);
      tree size = gimple_call_arg (s->stmt, size_arg);
      gcov_type sum = 0;
      for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
	{
	  sum += scale (c[b]) * bucket_value (b);
	  if (c[b] && exact_bucket_p (b))
	    {
	      value[n] = latepgo_memop_bucket_min (b);
	      count[n++] = scale (c[b]);
	    }
	}
      fill_topn (add_histogram (s->stmt, HIST_TYPE_TOPN_VALUES, size,
				2 + 2 * n), all, value, count, n);
      histogram_value avg = add_histogram (s->stmt, HIST_TYPE_AVERAGE,
					   size, 2);
      avg->hvalue.counters[0] = sum;
      avg->hvalue.counters[1] = all;
      any_memop = true;
    }

  if (any_memop)
    lp_run_memop_transforms ();
}

/* Run GCC's value transformations on the current function, whose memop
   calls have histograms: version a call for its most common size.  */

void
lp_run_memop_transforms (void)
{
  if (!flag_value_profile_transformations)
    return;
  /* Dominators computed while the fake edges were in are stale, and the
     transformations split blocks.  */
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  /* The versioned calls need their virtual operands renamed, as
     tree_profiling's final update does.  */
  if (gimple_value_profile_transformations () && need_ssa_update_p (cfun))
    update_ssa (TODO_update_ssa);
  free_dominance_info (CDI_DOMINATORS);
}

/* The fewest samples of a memop call's sizes that sample-use acts on:
   with fewer, one stalled call could decide the most common size.  */
#define MIN_SIZE_SAMPLES 4

/* Sample-use mode: attach to the memop call STMT the histograms of its
   sizes from the N (size, samples) pairs a sample profile saw at the
   call (latepgo-profgen: samples at the call instruction), scaled to
   the call's block count: the most common exact sizes and the average
   size, as an instrumented profile would give, so that GCC versions
   the call for a dominant size and picks the expansion for the
   average.  Only calls whose size is the third argument (DX at the
   call) qualify.  Returns whether histograms were attached.  */

bool
lp_annotate_sampled_memop (gimple *stmt, const lp_size_count *sizes,
			   unsigned n, FILE *dump)
{
  int size_arg;
  if (!memop_site_p (stmt, &size_arg) || size_arg != 2)
    return false;
  gcov_type total = 0;
  for (unsigned i = 0; i < n; i++)
    total += sizes[i].count;
  profile_count bbc = gimple_bb (stmt)->count.ipa ();
  if (total < MIN_SIZE_SAMPLES || !bbc.initialized_p ()
      || bbc.to_gcov_type () <= 0)
    return false;
  gcov_type all = bbc.to_gcov_type ();

  /* The most common sizes (fill_topn orders them); a size beyond any
     stringop strategy counts as 1 MiB in the average, which then cannot
     overflow.  */
  const unsigned max_values = 8;
  gcov_type value[max_values], count[max_values];
  unsigned nv = 0;
  double sum = 0;
  for (unsigned i = 0; i < n; i++)
    {
      gcov_type c = scale_to_block (sizes[i].count, total, all);
      sum += (double) c * MIN (sizes[i].size,
			       (unsigned HOST_WIDE_INT) 1 << 20);
      /* No size beyond INT_MAX is a real copy: not a value to test.  */
      if (sizes[i].size > INT_MAX)
	continue;
      /* Keep the MAX_VALUES largest: replace the smallest kept.  */
      unsigned k = nv;
      if (nv == max_values)
	{
	  k = 0;
	  for (unsigned j = 1; j < nv; j++)
	    if (count[j] < count[k])
	      k = j;
	  if (count[k] >= c)
	    continue;
	}
      else
	nv++;
      value[k] = (gcov_type) sizes[i].size;
      count[k] = c;
    }
  tree size = gimple_call_arg (stmt, size_arg);
  histogram_value h = add_histogram (stmt, HIST_TYPE_TOPN_VALUES, size,
				     2 + 2 * nv);
  fill_topn (h, all, value, count, nv);
  histogram_value avg = add_histogram (stmt, HIST_TYPE_AVERAGE, size, 2);
  avg->hvalue.counters[0] = (gcov_type) (sum + 0.5);
  avg->hvalue.counters[1] = all;
  if (dump && nv)
    fprintf (dump, " most-common=%" PRId64 ":%" PRId64,
	     (int64_t) h->hvalue.counters[2], (int64_t) h->hvalue.counters[3]);
  if (dump)
    fprintf (dump, " average=%" PRId64,
	     (int64_t) ((avg->hvalue.counters[0] + all / 2) / all));
  return true;
}

/* Sample-use mode: attach to the indirect call STMT the N callees a
   sample profile saw it reach (TARGETS, in samples), as the histogram
   of the instrumented profile would be, scaled to the call's block
   count: ipa-profile then makes the call speculative when one callee
   has most of the samples.  Callees not defined here (so that GCC
   could not call them directly) still count in the total.  Returns the
   number of callees attached.  */

int
lp_annotate_sampled_icall (gimple *stmt, const lp_call_target *targets,
			   unsigned n, FILE *dump)
{
  if (!icall_site_p (stmt) || n == 0)
    return 0;
  profile_count bbc = gimple_bb (stmt)->count.ipa ();
  if (!bbc.initialized_p () || bbc.to_gcov_type () <= 0)
    return 0;
  gcov_type all = bbc.to_gcov_type ();
  gcov_type total = 0;
  for (unsigned i = 0; i < n; i++)
    total += targets[i].count;
  if (total <= 0)
    return 0;

  gcov_type value[MAX_CANDIDATES], count[MAX_CANDIDATES];
  unsigned k = 0;
  for (unsigned i = 0; i < n && k < MAX_CANDIDATES; i++)
    {
      candidate_fn key = { NULL, CONST_CAST (char *, targets[i].name), 0 };
      const candidate_fn *c
	= (const candidate_fn *) bsearch (&key, address_taken.address (),
					  address_taken.length (),
					  sizeof (candidate_fn),
					  compare_candidates);
      if (dump)
	fprintf (dump, " %s:%" PRId64 "%s", targets[i].name,
		 (int64_t) targets[i].count, c ? "" : "(not here)");
      if (!c || targets[i].count <= 0)
	continue;
      value[k] = candidate_profile_id (c);
      count[k++] = scale_to_block (targets[i].count, total, all);
    }
  if (k)
    fill_topn (add_histogram (stmt, HIST_TYPE_INDIR_CALL,
			      gimple_call_fn (stmt), 2 + 2 * k),
	       all, value, count, k);
  return k;
}

/* extern hidden unsigned long long __latepgo_first_run_clock.  */

static tree
get_clock_decl (void)
{
  if (clock_decl)
    return clock_decl;
  clock_decl = lp_runtime_var_decl (LATEPGO_CLOCK_SYMBOL,
				    long_long_unsigned_type_node);
  TREE_ADDRESSABLE (clock_decl) = 1;
  return clock_decl;
}

/* Generate mode: at the entry of the current function,
     if (COUNTERS[last] == 0) COUNTERS[last] = ++__latepgo_first_run_clock;
   as GCC's time profiler (tree-profile.cc:gimple_gen_time_profiler).
   The clock is incremented atomically with update=atomic; otherwise a
   race between threads can only give two functions the same rank.  */

void
lp_instrument_first_run (lp_graph *g, tree counters)
{
  if (!g->values || !g->first_run)
    return;
  tree u64 = long_long_unsigned_type_node;
  tree ref = lp_counter_home_ref (counters,
				 build_int_cst (integer_type_node,
						lp_record_counters (g) - 1));
  tree clock = get_clock_decl ();

  basic_block cond_bb, update_bb, join_bb;
  edge skip;
  lp_entry_guard (&cond_bb, &update_bb, &join_bb, &skip);

  gimple_stmt_iterator gsi = gsi_start_bb (cond_bb);
  tree cur = make_temp_ssa_name (u64, NULL, "PROF_first_run");
  gsi_insert_after (&gsi, gimple_build_assign (cur, ref), GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_cond (EQ_EXPR, cur,
					     build_int_cst (u64, 0),
					     NULL_TREE, NULL_TREE),
		    GSI_NEW_STMT);

  gsi = gsi_start_bb (update_bb);
  tree now = make_temp_ssa_name (u64, NULL, "PROF_first_run");
  if (latepgo_opts.atomic)
    {
      tree f = builtin_decl_explicit (BUILT_IN_ATOMIC_ADD_FETCH_8);
      gcall *call = gimple_build_call (f, 3, build_fold_addr_expr (clock),
				       build_int_cst (u64, 1),
				       build_int_cst (integer_type_node,
						      MEMMODEL_RELAXED));
      gimple_call_set_lhs (call, now);
      gsi_insert_after (&gsi, call, GSI_NEW_STMT);
    }
  else
    {
      tree old = make_temp_ssa_name (u64, NULL, "PROF_first_run");
      gsi_insert_after (&gsi, gimple_build_assign (old, clock), GSI_NEW_STMT);
      gsi_insert_after (&gsi, gimple_build_assign (now, PLUS_EXPR, old,
						   build_int_cst (u64, 1)),
			GSI_NEW_STMT);
      gsi_insert_after (&gsi, gimple_build_assign (clock, now), GSI_NEW_STMT);
    }
  gsi_insert_after (&gsi, gimple_build_assign (unshare_expr (ref), now),
		    GSI_NEW_STMT);
}

/* What a value site's counters mean, for matching a site of a changed
   function to its training version's (salvage.cc): its kind, its
   number of counters and, for an indirect call, its candidates in
   counter order.  */

unsigned HOST_WIDE_INT
lp_value_site_key (const lp_value_site *s)
{
  auto_vec<unsigned char> bytes;
  bytes.safe_push (s->icall ? 'i' : 'm');
  for (int k = 0; k < 4; k++)
    bytes.safe_push ((unsigned char) (s->n_counters >> (8 * k)));
  if (s->icall)
    for (const candidate_fn *fn : s->candidates->fns)
      {
	for (const char *p = fn->name; *p; p++)
	  bytes.safe_push ((unsigned char) *p);
	bytes.safe_push (0);
      }
  return lp_md5_low64 (bytes.address (), bytes.length ());
}

/* Use mode: the first-run rank of NODE from REC, for GCC's function
   ordering (-fprofile-reorder-functions), as profile.cc reads the time
   profile.  REC has one when its hash has the first-run tag: a record
   with values, matched (G's) or salvaged (the old version's).  */

void
lp_annotate_first_run (const lp_profile_record *rec, cgraph_node *node,
		       FILE *dump)
{
  if (!latepgo_has_first_run (rec->hash))
    return;
  gcov_type t = lp_profile_first_run (rec);
  if (t <= 0 || t >= INT_MAX / 2)
    return;
  node->tp_first_run = (int) t;
  if (dump)
    fprintf (dump, "  first run %d\n", node->tp_first_run);
}

/* Use mode, after every function is annotated: functions that ran but
   have no first-run rank (too small, inline or COMDAT: see
   LP_FIRST_RUN_MIN_BLOCKS) take the earliest rank of the callers that
   ran, as they first ran right after one of them; so GCC's function
   ordering places them next to their callers instead of after every
   ranked function.  Repeated for chains of such functions.  */

void
lp_inherit_first_run (void)
{
  cgraph_node *node;
  bool changed = true;
  for (int round = 0; changed && round < 8; round++)
    {
      changed = false;
      FOR_EACH_DEFINED_FUNCTION (node)
	{
	  if (node->tp_first_run || !node->count.ipa ().nonzero_p ())
	    continue;
	  int best = 0;
	  for (cgraph_edge *e = node->callers; e; e = e->next_caller)
	    if (e->caller->tp_first_run
		&& e->count.ipa ().nonzero_p ()
		&& (!best || e->caller->tp_first_run < best))
	      best = e->caller->tp_first_run;
	  if (best)
	    {
	      node->tp_first_run = best;
	      changed = true;
	      if (lp_dump_stream ())
		fprintf (lp_dump_stream (), "first run %s %d inherited\n",
			 lp_symbol_name (node->decl), best);
	    }
	}
    }
}
