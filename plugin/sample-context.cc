/* sample-context.cc: give each inlined copy of a function the counts
   of its own calling context, from a context-sensitive sample profile
   ("[main:2 @ foo:8 @ bar]", latepgo-profgen --csprof).

   sample-use annotates each function's body before GCC's IPA inliner
   with its flat profile, the sum of all its contexts (sample-use.cc).
   When the IPA inliner then copies bar into foo at call probe 8, the
   copy gets bar's counts scaled by the call's count: bar's branch
   probabilities averaged over all its callers.  This pass runs once
   those copies exist (after the IPA transforms, before the first
   optimization pass) and, in a function that holds inlined copies the
   profile has contexts for, annotates the whole function again:

   - each block's estimate comes from the probe markers in it
     (probes.cc): a marker in an inlined copy has an inline path
     (foo, bar at probe 8), and the longest suffix of that path that
     the profile has records for, of two frames or more, gives its
     counts (sample-read.cc: every record "[X:1 @ foo:8 @ bar]" counts
     for "foo:8 @ bar", so an out-of-line foo's copy of bar takes the
     samples of bar called from that site in every caller of foo);
     the block's estimate is the largest of its markers' counts there;
   - a block without such a marker (the function's own code, or a
     copy whose context the profile lacks) keeps the count it has;
   - the flow (sample-flow.cc) makes them consistent, and the counts
     are written back with sample quality.

   Markers exist only in builds with probes (-fplugin-arg-latepgo-probes,
   which a sample-use build for the next round has anyway): without
   them the contexts only add up to the flat profile.  The dump says
   "contexts FUNCTION blocks=N of M" per function annotated again.  */

#include "gcc-common.h"
#include "sample-context.h"
#include "annotate.h"
#include "cfg-graph.h"
#include "dump.h"
#include "probes.h"
#include "sample-flow.h"
#include "sample-read.h"

namespace {

/* What the marker walk gathers, per block: the largest count its
   markers have (-1: none), and whether one of them is in an inlined
   copy with a context.  */
struct context_weights
{
  auto_vec<gcov_type> weight;
  auto_vec<bool> in_context;
  int n_blocks;			/* Blocks in a context.  */
};

/* Probe ID's count in the flat profile SF as sample-use.cc estimates
   it: a call probe's is the largest of its own count, the entries of
   the copies inlined there in the profiled build, and those of its
   callee's context records there; -1 if none.  */

gcov_type
flat_count (const lp_sample_function *sf, int id, bool call)
{
  gcov_type *c = sf->counts->get (id);
  gcov_type n = c ? *c : -1;
  if (call)
    {
      gcov_type *h = sf->inlined_calls->get (id);
      gcov_type *x = sf->context_calls->get (id);
      if (h)
	n = MAX (n, 0) + *h;
      if (x && *x > n)
	n = *x;
    }
  return n;
}

void
note_marker (void *data, gimple *stmt, int id, bool call,
	     const lp_probe_frame *frames, unsigned n)
{
  context_weights *cw = (context_weights *) data;
  int b = gimple_bb (stmt)->index;
  gcov_type count = -1;
  bool in_context = false;
  unsigned len;
  const lp_sample_context *c
    = n >= 2 ? lp_samples_context (frames, n, &len) : NULL;
  if (c && lp_samples_context_usable (c, frames[n - 1].guid))
    {
      gcov_type *p = c->counts->get (id);
      count = p ? *p : -1;
      in_context = true;
    }
  /* The function's own probes, and those of a copy whose context the
     profile lacks: the flat profile's estimates, as sample-use gave
     them before the flow; none for a function whose profile is
     stale.  */
  const lp_sample_function *sf
    = in_context ? NULL : lp_samples_lookup_guid (frames[n - 1].guid);
  if (sf && sf->matched)
    count = flat_count (sf, id, call);
  if (in_context && !cw->in_context[b])
    {
      cw->in_context[b] = true;
      cw->n_blocks++;
    }
  if (count > cw->weight[b])
    cw->weight[b] = count;
}

unsigned int
annotate_contexts (function *fun)
{
  lp_graph g;
  lp_build_graph (&g, false, false);
  int nb = g.n_blocks;
  context_weights cw;
  cw.weight.safe_grow (nb);
  cw.in_context.safe_grow_cleared (nb);
  cw.n_blocks = 0;
  for (int b = 0; b < nb; b++)
    cw.weight[b] = -1;
  lp_probe_marker_paths (note_marker, &cw);
  if (cw.n_blocks == 0)
    {
      lp_release_graph (&g);
      return 0;
    }

  /* The entry keeps its count, which the call graph's counts were
     made from; other blocks without a probe estimate are inferred.  */
  basic_block entry = ENTRY_BLOCK_PTR_FOR_FN (fun);
  if (entry->count.initialized_p ())
    cw.weight[entry->index] = entry->count.to_gcov_type ();
  auto_vec<int> size;
  size.safe_grow_cleared (nb);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      size[bb->index] += estimate_num_insns (gsi_stmt (gsi),
					     &eni_size_weights);
  const auto_vec<gcov_type> &weight = cw.weight;

  auto_vec<gcov_type> count;
  count.safe_grow_cleared (g.edges.length ());
  lp_infer_flow (&g, weight.address (), size.address (), NULL,
		 count.address ());
  lp_release_graph (&g);
  FILE *dump = lp_dump_stream ();
  if (dump)
    {
      fprintf (dump, "contexts %s blocks=%d of %d weights=",
	       function_name (fun), cw.n_blocks, nb - 2);
      for (int b = 0; b < nb; b++)
	fprintf (dump, "%s%" PRId64 "%s", b ? "," : "", (int64_t) weight[b],
		 cw.in_context[b] ? "c" : "");
      fputc ('\n', dump);
    }
  lp_annotate_counts (&g, count.address (), dump, true, NULL, NULL);
  update_max_bb_count ();
  compute_function_frequency ();
  return 0;
}

const pass_data pass_data_sample_context =
{
  GIMPLE_PASS,			/* type */
  "latepgo-contexts",		/* name */
  OPTGROUP_NONE,		/* optinfo_flags */
  TV_NONE,			/* tv_id */
  PROP_cfg,			/* properties_required */
  0,				/* properties_provided */
  0,				/* properties_destroyed */
  0,				/* todo_flags_start */
  0,				/* todo_flags_finish */
};

class pass_sample_context : public gimple_opt_pass
{
public:
  pass_sample_context (gcc::context *ctxt)
    : gimple_opt_pass (pass_data_sample_context, ctxt)
  {}

  bool gate (function *fun) final override
  {
    return (lp_samples_have_contexts ()
	    && profile_status_for_fn (fun) == PROFILE_READ);
  }

  unsigned int execute (function *fun) final override
  {
    return annotate_contexts (fun);
  }
};

} // anon namespace

void
lp_sample_context_register (const char *name)
{
  static struct register_pass_info info;
  info.pass = new pass_sample_context (g);
  /* The first pass of every function's pipeline after the IPA
     transforms (cgraph_node::expand applies them before it).  */
  info.reference_pass_name = "ehdisp";
  info.ref_pass_instance_number = 1;
  info.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
