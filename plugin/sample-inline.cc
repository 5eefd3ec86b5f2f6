/* sample-inline.cc: inline the calls whose calling context a
   context-sensitive sample profile says to inline, before GCC's IPA
   inliner, as LLVM's sample profile loader inlines by context before
   its own inliner (SampleProfile.cpp, inlineHotFunctions).

   Which calls: a direct call at call probe ID of function F, to G,
   whose context "F:ID @ G" the profile has (every record whose
   context ends so: sample-read.cc), and an indirect call there whose
   callee G (one of the call's targets in the profile, defined in this
   file, with at least half of them, as GCC speculates) has it:
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
   a new summary of F.  An indirect call is first made a test of its
   pointer against G with a direct call of G on one side, as GCC
   expands its speculative calls (cgraph_edge::make_speculative, then
   redirect_call_stmt_to_callee, which gimple_ic does), with G's share
   of the call's targets in the profile; the targets' histogram left
   on the indirect call loses G.  (Left to GCC, such a call is made
   speculative later, and GCC's IPA inliner decides on it by its own
   limits, after G has grown by its own contexts.)  The checks GCC's
   inliner makes before an edge (can_inline_edge_p, static there) are
   made here: a body in SSA, available (not interposable), inlinable
   by its summary, the same EH personality, target and optimization
   options (GCC would refuse what it cannot reconcile), no recursion.  Functions are visited callees
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
#include "value-prof.h"
#include "values.h"

/* The largest callee inlined for being hot, in GCC's size units
   (about an instruction each).  */
#define MAX_CALLEE_SIZE 300

#define GROWTH_FACTOR 12
#define GROWTH_MIN 100
#define GROWTH_MAX 10000

namespace {

/* A call to inline into the function being processed: the direct
   call EDGE, or the callee TARGET of the indirect call EDGE, which has
   SHARE of the call's targets in the profile.  */
struct candidate
{
  cgraph_edge *edge;
  cgraph_node *target;
  const char *name;		/* TARGET's profile name.  */
  int id;
  gcov_type count;
  int size;
  double share;
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

/* Whether GCC may inline CALLEE into CALLER: the checks of
   ipa-inline.cc's can_inline_edge_p and can_early_inline_edge_p that
   do not depend on the call.  */

bool
callee_inlinable_p (cgraph_node *caller, cgraph_node *callee)
{
  enum availability avail;
  callee = callee->ultimate_alias_target (&avail, caller);
  cgraph_node *outer = caller->inlined_to ? caller->inlined_to : caller;
  if (!callee->definition || avail <= AVAIL_INTERPOSABLE
      || callee == caller || callee->decl == outer->decl
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

/* Whether GCC may inline edge E now.  */

bool
inlinable_p (cgraph_edge *e)
{
  if (!e->inline_failed || e->speculative || e->indirect_unknown_callee
      || e->call_stmt_cannot_inline_p || !e->call_stmt
      || cgraph_inline_failed_type (e->inline_failed) == CIF_FINAL_ERROR)
    return false;
  return callee_inlinable_p (e->caller, e->callee);
}

/* Whether the indirect call E may become a direct call of TARGET and be
   inlined: GCC's checks before it speculates (ipa-profile.cc: the
   number of arguments, a polymorphic call's possible targets), then
   the inliner's.  */

bool
icall_target_inlinable_p (cgraph_edge *e, cgraph_node *target)
{
  if (e->speculative || !e->call_stmt || e->call_stmt_cannot_inline_p
      || !e->count.ipa ().nonzero_p ())
    return false;
  if (target->get_availability () <= AVAIL_INTERPOSABLE)
    return false;
  unsigned n_parms = 0;
  for (tree p = DECL_ARGUMENTS (target->decl); p; p = DECL_CHAIN (p))
    n_parms++;
  unsigned n_args = gimple_call_num_args (e->call_stmt);
  if (n_parms != n_args
      && (n_parms > n_args || !stdarg_p (TREE_TYPE (target->decl))))
    return false;
  if (e->indirect_info->polymorphic
      && !possible_polymorphic_call_target_p (e, target))
    return false;
  return callee_inlinable_p (e->caller, target);
}

/* Make the indirect call of CAND a test of its pointer against CAND's
   target, with a direct call of the target on one side that has CAND's
   share of the call's count, as GCC expands a speculative call; take
   the target out of the histogram of targets left on the indirect
   call (SF's targets but those of PROMOTED at this call).  Returns the
   direct call's edge.  */

cgraph_edge *
promote (const candidate &cand, const lp_sample_function *sf,
	 const vec<const candidate *> &promoted)
{
  cgraph_edge *e = cand.edge;
  gcall *icall = e->call_stmt;
  profile_probability prob = profile_probability::from_reg_br_prob_base
    ((int) (cand.share * REG_BR_PROB_BASE + 0.5)).afdo ();
  cgraph_edge *d = e->make_speculative (cand.target,
					e->count.apply_probability (prob));
  cgraph_edge::redirect_call_stmt_to_callee (d);
  /* The histogram left on the indirect call has the targets not made
     direct calls there (PROMOTED: this one and those before it).  */
  if (histogram_value h
	= gimple_histogram_value_of_type (cfun, icall, HIST_TYPE_INDIR_CALL))
    gimple_remove_histogram_value (cfun, icall, h);
  auto_vec<lp_call_target> rest;
  for (const lp_call_target &t : sf->targets)
    {
      bool direct = false;
      for (const candidate *p : promoted)
	if (p->edge == e && strcmp (p->name, t.name) == 0)
	  direct = true;
      if (t.id == cand.id && !direct)
	rest.safe_push (t);
    }
  if (!rest.is_empty ())
    lp_annotate_sampled_icall (icall, rest.address (), rest.length (), NULL);
  return d;
}

/* Whether a call to CALLEE (SIZE units) whose context C the profile
   has is to be inlined: marked by a pre-inliner, else hot and small.  */

bool
wanted_p (const lp_sample_context *c, int size)
{
  if (lp_samples_preinlined ())
    return c->should_be_inlined;
  return (c->head >= lp_samples_summary.hot_count
	  && lp_samples_summary.hot_count > 0
	  && size <= MAX_CALLEE_SIZE);
}

/* The size of NODE in GCC's units, as the inliner sees it.  */

int
size_of (cgraph_node *node)
{
  ipa_size_summary *s = ipa_size_summaries->get (node);
  return s ? s->size : INT_MAX;
}

/* The usable context "F:ID @ CALLEE" of the profile (F the function
   whose name's GUID is GUID, CALLEE a profile name), or NULL.  */

const lp_sample_context *
call_context (unsigned HOST_WIDE_INT guid, int id, const char *callee)
{
  lp_probe_frame frames[2] = { { guid, 0 },
			       { lp_md5_low64 (callee, strlen (callee)), id } };
  unsigned len;
  const lp_sample_context *c = lp_samples_context (frames, 2, &len);
  return c && lp_samples_context_usable (c, frames[1].guid) ? c : NULL;
}

/* The calls of NODE (the current function, whose profile record is SF,
   GUID its name's) to inline, into CANDS.  */

void
find_candidates (cgraph_node *node, const lp_sample_function *sf,
		 unsigned HOST_WIDE_INT guid, vec<candidate> *cands,
		 int *n_refused)
{
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    {
      if (!e->call_stmt || !e->inline_failed)
	continue;
      int id = call_probe_id (e->call_stmt);
      if (!id)
	continue;
      cgraph_node *callee = e->callee->ultimate_alias_target ();
      char *cname = lp_profile_name (callee->decl);
      const lp_sample_context *c = call_context (guid, id, cname);
      free (cname);
      if (!c)
	continue;
      int size = size_of (callee);
      if (!wanted_p (c, size))
	continue;
      if (!inlinable_p (e))
	{
	  ++*n_refused;
	  continue;
	}
      candidate cand = { e, NULL, NULL, id, c->head, size, 1.0 };
      cands->safe_push (cand);
    }
  if (!sf)
    return;
  for (cgraph_edge *e = node->indirect_calls; e; e = e->next_callee)
    {
      if (!e->call_stmt)
	continue;
      int id = call_probe_id (e->call_stmt);
      if (!id)
	continue;
      gcov_type total = 0;
      for (const lp_call_target &t : sf->targets)
	if (t.id == id && t.count > 0)
	  total += t.count;
      for (const lp_call_target &t : sf->targets)
	{
	  if (t.id != id || t.count <= 0)
	    continue;
	  /* As GCC speculates (ipa-profile.cc): only a callee with at
	     least half of the call's targets.  Testing for each of
	     several (stl's three shapes behind one virtual call) costs
	     more than the calls: stl ran 0.6% to 1% more instructions.  */
	  cgraph_node *target = lp_known_function (t.name);
	  if (!target || 2 * t.count < total)
	    continue;
	  const lp_sample_context *c = call_context (guid, id, t.name);
	  if (!c)
	    continue;
	  int size = size_of (target);
	  if (!wanted_p (c, size))
	    continue;
	  if (!icall_target_inlinable_p (e, target))
	    {
	      ++*n_refused;
	      continue;
	    }
	  candidate cand = { e, target, t.name, id, c->head, size,
			     (double) t.count / total };
	  cands->safe_push (cand);
	}
    }
}

/* Inline into NODE what find_candidates picks, the hottest first, up
   to its growth limit.  Returns how many calls were inlined.  */

int
inline_into (cgraph_node *node, int *n_refused)
{
  char *name = lp_profile_name (node->decl);
  unsigned HOST_WIDE_INT guid = lp_md5_low64 (name, strlen (name));
  const lp_sample_function *sf = lp_samples_lookup (name);
  free (name);
  auto_vec<candidate> cands;
  find_candidates (node, sf, guid, &cands, n_refused);
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
		 if (a->id != b->id)
		   return a->id - b->id;
		 return a->name && b->name ? strcmp (a->name, b->name) : 0;
	       });
  int own = ipa_size_summaries->get (node)
	    ? ipa_size_summaries->get (node)->size : 0;
  HOST_WIDE_INT limit = MIN (MAX ((HOST_WIDE_INT) own * GROWTH_FACTOR,
				  GROWTH_MIN), GROWTH_MAX);
  HOST_WIDE_INT size = own;
  int n = 0;
  auto_vec<const candidate *> promoted;
  FILE *dump = lp_dump_stream ();
  for (candidate &c : cands)
    {
      if (size + c.size > limit)
	break;
      size += c.size;
      cgraph_edge *e = c.edge;
      if (c.target)
	{
	  promoted.safe_push (&c);
	  e = promote (c, sf, promoted);
	}
      if (dump)
	fprintf (dump, "context-inline %s:%d %s%s size=%d count=%" PRId64 "\n",
		 lp_symbol_name (node->decl), c.id,
		 c.target ? "indirect " : "",
		 lp_symbol_name (e->callee->decl), c.size, (int64_t) c.count);
      /* The callee's count is an estimate of its own, which the call's
	 may exceed: taking all of it would leave the callee's count
	 zero and its calls' counts not (cgraph_edge::clone keeps
	 rounding's crumbs), which -fchecking's verify_node refuses
	 ("edge count is not compatible with function count": sqlite's
	 countFinalize, promoted from an indirect call).  */
      bool update = e->count.ipa () < e->callee->count.ipa ();
      inline_call (e, update, NULL, NULL, false);
      n++;
    }
  if (!n)
    return 0;
  /* The references of the calls the copies replace die with them:
     drop them all first, as inline_transform and the early inliner do
     (optimize_inline_calls verifies the node with -fchecking: "reference
     to dead statement" on sqlite), and record them from the body again
     after, as pass_rebuild_cgraph_edges would.  */
  node->remove_all_references ();
  unsigned todo = optimize_inline_calls (current_function_decl);
  cgraph_edge::rebuild_references ();
  if (todo & TODO_update_ssa_any)
    update_ssa (TODO_update_ssa);
  else if (!promoted.is_empty ())
    /* gimple_ic left its calls without virtual operands, as
       inline_transform knows.  */
    update_ssa (TODO_update_ssa_only_virtuals);
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
