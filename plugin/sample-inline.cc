/* sample-inline.cc: inline the calls whose calling context a
   context-sensitive sample profile says to inline, before GCC's IPA
   inliner, as LLVM's sample profile loader inlines by context before
   its own inliner (SampleProfile.cpp, inlineHotFunctions).

   Which calls: a direct call at call probe ID of function F, to G,
   whose context "F:ID @ G" the profile has (every record whose
   context ends so: sample-read.cc):
   - when a pre-inliner marked contexts (!Attributes with LLVM's
     ContextShouldBeInlined bit, llvm-profgen's CSPreInliner), the
     marked ones;
   - else the hot ones: entered at least the profile's hot count times
     (the 99% cutoff of the probe counts, sample-read.h), with G at
     most MAX_CALLEE_SIZE in GCC's size units;
   and F may grow by inlining to GROWTH_FACTOR times its size (at
   least GROWTH_MIN, at most GROWTH_MAX units), LLVM's
   sample-profile-inline-growth-limit and its bounds; the hottest
   first.

   How: as GCC's early inliner does (ipa-inline.cc: early_inliner),
   inline_call on the edge, then optimize_inline_calls on F's body and
   a new summary of F.  The checks GCC's inliner makes before an edge
   (can_inline_edge_p, static there) are made here: a body in SSA,
   available (not interposable), inlinable by its summary, the same EH
   personality, target and optimization options (GCC would refuse what
   it cannot reconcile), no recursion.  Functions are visited callees
   first, so that a copy holds what was inlined into its origin.

   The copy keeps G's probe markers, inlined at F's call probe, so the
   pass after IPA inlining gives it the context's counts
   (sample-context.cc), as it does for GCC's own inlined copies.  The
   dump says "context-inline F:ID G size=N count=C" per call inlined,
   and "context-inline unit inlined=N refused=M".  */

#include "gcc-common.h"
#include "sample-inline.h"
#include "dump.h"
#include "probes.h"
#include "sample-read.h"
#include "names.h"
#include "ipa-utils.h"
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "tree-vrp.h"
#include "ipa-prop.h"
#include "ipa-fnsummary.h"
#include "ipa-inline.h"
#include "tree-inline.h"
#include "target.h"

/* The largest callee inlined for being hot, in GCC's size units
   (about an instruction each).  */
#define MAX_CALLEE_SIZE 300

#define GROWTH_FACTOR 12
#define GROWTH_MIN 100
#define GROWTH_MAX 10000

namespace {

/* A call to inline into the function being processed.  */
struct candidate
{
  cgraph_edge *edge;
  int id;
  gcov_type count;
  int size;
};

/* The call probe id of call STMT (its marker right before it), or 0.  */

int
call_probe_id (gimple *stmt)
{
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_prev (&gsi);
  if (gsi_end_p (gsi))
    return 0;
  bool call;
  int id = lp_probe_marker_id (gsi_stmt (gsi), &call);
  return call ? id : 0;
}

/* Whether GCC may inline edge E now: the checks of ipa-inline.cc's
   can_inline_edge_p and can_early_inline_edge_p that apply.  */

bool
inlinable_p (cgraph_edge *e)
{
  if (!e->inline_failed || e->speculative || e->indirect_unknown_callee
      || e->call_stmt_cannot_inline_p || !e->call_stmt
      || cgraph_inline_failed_type (e->inline_failed) == CIF_FINAL_ERROR)
    return false;
  enum availability avail;
  cgraph_node *caller = e->caller;
  cgraph_node *callee = e->callee->ultimate_alias_target (&avail, caller);
  if (!callee->definition || avail <= AVAIL_INTERPOSABLE
      || callee == caller || e->recursive_p ()
      || callee->calls_comdat_local
      || !gimple_has_body_p (callee->decl)
      || !gimple_in_ssa_p (DECL_STRUCT_FUNCTION (callee->decl))
      || !gimple_in_ssa_p (DECL_STRUCT_FUNCTION (caller->decl)))
    return false;
  tree cp = DECL_FUNCTION_PERSONALITY (caller->decl);
  tree ep = DECL_FUNCTION_PERSONALITY (callee->decl);
  if (cp && ep && cp != ep)
    return false;
  if (DECL_FUNCTION_SPECIFIC_OPTIMIZATION (caller->decl)
      != DECL_FUNCTION_SPECIFIC_OPTIMIZATION (callee->decl)
      || !targetm.target_option.can_inline_p (caller->decl, callee->decl))
    return false;
  /* no_sanitize and the like: GCC compares them; we only take equal
     attribute lists.  */
  if (lookup_attribute ("no_sanitize", DECL_ATTRIBUTES (caller->decl))
      || lookup_attribute ("no_sanitize", DECL_ATTRIBUTES (callee->decl))
      || lookup_attribute ("no_sanitize_address",
			   DECL_ATTRIBUTES (callee->decl))
      || lookup_attribute ("no_sanitize_address",
			   DECL_ATTRIBUTES (caller->decl)))
    return false;
  ipa_fn_summary *s = ipa_fn_summaries->get (callee);
  return s && s->inlinable;
}

/* The calls of NODE (the current function) to inline, into CANDS.  */

void
find_candidates (cgraph_node *node, vec<candidate> *cands, int *n_refused)
{
  bool marked = lp_samples_preinlined ();
  char *name = lp_profile_name (node->decl);
  unsigned HOST_WIDE_INT guid = lp_md5_low64 (name, strlen (name));
  free (name);
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    {
      if (!e->call_stmt || !e->inline_failed)
	continue;
      int id = call_probe_id (e->call_stmt);
      if (!id)
	continue;
      cgraph_node *callee = e->callee->ultimate_alias_target ();
      char *cname = lp_profile_name (callee->decl);
      lp_probe_frame frames[2] = { { guid, 0 },
				   { lp_md5_low64 (cname, strlen (cname)),
				     id } };
      free (cname);
      unsigned len;
      const lp_sample_context *c = lp_samples_context (frames, 2, &len);
      if (!c || !lp_samples_context_usable (c, frames[1].guid))
	continue;
      int size = ipa_size_summaries->get (callee)
		 ? ipa_size_summaries->get (callee)->size : INT_MAX;
      bool want = marked ? c->should_be_inlined
		 : (c->head >= lp_samples_summary.hot_count
		    && lp_samples_summary.hot_count > 0
		    && size <= MAX_CALLEE_SIZE);
      if (!want)
	continue;
      if (!inlinable_p (e))
	{
	  ++*n_refused;
	  continue;
	}
      candidate cand = { e, id, c->head, size };
      cands->safe_push (cand);
    }
}

/* Inline into NODE what find_candidates picks, the hottest first, up
   to its growth limit.  Returns how many calls were inlined.  */

int
inline_into (cgraph_node *node, int *n_refused)
{
  auto_vec<candidate> cands;
  find_candidates (node, &cands, n_refused);
  if (cands.is_empty ())
    return 0;
  cands.qsort ([] (const void *pa, const void *pb)
	       {
		 const candidate *a = (const candidate *) pa;
		 const candidate *b = (const candidate *) pb;
		 if (a->count != b->count)
		   return a->count > b->count ? -1 : 1;
		 if (a->size != b->size)
		   return a->size < b->size ? -1 : 1;
		 return a->id - b->id;
	       });
  int own = ipa_size_summaries->get (node)
	    ? ipa_size_summaries->get (node)->size : 0;
  HOST_WIDE_INT limit = MIN (MAX ((HOST_WIDE_INT) own * GROWTH_FACTOR,
				  GROWTH_MIN), GROWTH_MAX);
  HOST_WIDE_INT size = own;
  int n = 0;
  FILE *dump = lp_dump_stream ();
  for (candidate &c : cands)
    {
      if (size + c.size > limit)
	break;
      size += c.size;
      if (dump)
	fprintf (dump, "context-inline %s:%d %s size=%d count=%" PRId64 "\n",
		 lp_symbol_name (node->decl), c.id,
		 lp_symbol_name (c.edge->callee->decl), c.size,
		 (int64_t) c.count);
      inline_call (c.edge, true, NULL, NULL, false);
      n++;
    }
  if (!n)
    return 0;
  unsigned todo = optimize_inline_calls (current_function_decl);
  if (todo & TODO_update_ssa_any)
    update_ssa (TODO_update_ssa);
  if (todo & TODO_cleanup_cfg)
    cleanup_tree_cfg ();
  /* As early_inliner: the calls the copies brought have no summary.  */
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    {
      ipa_call_summary *es = ipa_call_summaries->get_create (e);
      es->call_stmt_size = estimate_num_insns (e->call_stmt,
					       &eni_size_weights);
      es->call_stmt_time = estimate_num_insns (e->call_stmt,
					       &eni_time_weights);
    }
  ipa_update_overall_fn_summary (node);
  return n;
}

} // anon namespace

void
lp_sample_inline_contexts (vec<cgraph_node *> *annotated_nodes)
{
  vec<cgraph_node *> &annotated = *annotated_nodes;
  if (!lp_samples_have_contexts () || annotated.is_empty ())
    return;
  /* A function inlined at all its calls is gone afterwards.  */
  auto_vec<tree> decls;
  for (cgraph_node *node : annotated)
    decls.safe_push (node->decl);
  /* The call graph's counts from the annotated bodies, which
     inline_call scales the copies by.  Set in place: new edges
     (cgraph_edge::rebuild_edges) would have no summaries.  */
  for (cgraph_node *node : annotated)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      node->count = ENTRY_BLOCK_PTR_FOR_FN (fn)->count;
      for (cgraph_edge *e = node->callees; e; e = e->next_callee)
	if (e->call_stmt && gimple_bb (e->call_stmt))
	  e->count = gimple_bb (e->call_stmt)->count;
      for (cgraph_edge *e = node->indirect_calls; e; e = e->next_callee)
	if (e->call_stmt && gimple_bb (e->call_stmt))
	  e->count = gimple_bb (e->call_stmt)->count;
    }
  hash_set<cgraph_node *> wanted;
  for (cgraph_node *node : annotated)
    wanted.add (node);
  /* Callees first: ipa_reverse_postorder lists callers first.  */
  cgraph_node **order = XCNEWVEC (cgraph_node *, symtab->cgraph_count);
  int n_order = ipa_reverse_postorder (order);
  int n_inlined = 0, n_refused = 0;
  for (int i = n_order - 1; i >= 0; i--)
    {
      cgraph_node *node = order[i];
      if (!wanted.contains (node) || node->inlined_to)
	continue;
      push_cfun (DECL_STRUCT_FUNCTION (node->decl));
      n_inlined += inline_into (node, &n_refused);
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      pop_cfun ();
    }
  free (order);
  annotated.truncate (0);
  for (tree decl : decls)
    if (cgraph_node *node = cgraph_node::get (decl))
      if (!node->inlined_to)
	annotated.safe_push (node);
  if (FILE *dump = lp_dump_stream ())
    fprintf (dump, "context-inline unit inlined=%d refused=%d\n",
	     n_inlined, n_refused);
}
