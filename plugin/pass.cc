/* pass.cc: the latepgo pass, and what it does to each function.

   Placement: a SIMPLE_IPA pass right after GCC's "profile" IPA pass
   (tree-profile.cc), so after early inlining and the early
   optimizations and before IPA inlining: functions GCC inlined early are
   counted in their callers, and the CFG we instrument is the one the
   optimizers will see.  See doc/data-path.md section 1.  Per function
   it builds the instrumentation graph (cfg-graph.cc) and hands it to
   the mode: generate.cc, use.cc, sample-use.cc, probes.cc.  */

#include "gcc-common.h"
#include "pass.h"
#include "cfg-graph.h"
#include "dump.h"
#include "anchors.h"
#include "generate.h"
#include "may-leave.h"
#include "names.h"
#include "arguments.h"
#include "probes.h"
#include "probes-lto.h"
#include "profile-read.h"
#include "sample-read.h"
#include "sample-use.h"
#include "sample-oracle.h"
#include "use.h"
#include "values.h"

/* Generate mode: instrument every function of the translation unit.
   Use mode: annotate every function from the profile.  Both see the
   same functions and build the same graphs.  A probes build and a
   sample-use build see the CFG of an unchanged compilation.  */

static void
process_all_functions (bool use)
{
  bool probes_only = !use && !latepgo_opts.generate;
  bool sample = use && latepgo_opts.sample_use_path;
  bool as_plain_build = probes_only || sample;
  /* probe-cfg: instrument or annotate the CFG a probe build sees (no
     fixup, no fake edges after calls; latepgo.cc leaves early function
     splitting on), so that write-sample's oracle covers every function
     of the probe build (sample-oracle.cc).  */
  bool plain_cfg = as_plain_build || latepgo_opts.probe_cfg;
  cgraph_node *node;
  auto_vec<cgraph_node *> instrumented;

  if (use)
    lp_use_begin ();
  lp_values_begin ();
  lp_may_leave_begin ();

  FOR_EACH_DEFINED_FUNCTION (node)
    {
      if (lp_skip_function_p (node))
	continue;

      push_cfun (DECL_STRUCT_FUNCTION (node->decl));
      /* Samples need no fake edges after calls: probe and sample-use
	 builds keep the plain CFG.  */
      bool exact = latepgo_opts.exact_calls && !plain_cfg;
      char *name = lp_profile_name (node->decl);
      const char *asm_name = lp_symbol_name (node->decl);

      /* Probes in a use build go in before its CFG fixup and call
	 splits, on the plain CFG, so that they are numbered as a
	 probe-only build and a sample-use build number them (the fixup
	 after local pure-const can remove EH edges, and with them
	 blocks).  */
      int n_probes = -1;
      unsigned HOST_WIDE_INT probe_checksum = 0;
      if (latepgo_opts.probes && !as_plain_build)
	{
	  lp_graph plain;
	  lp_build_graph (&plain, false, false);
	  lp_release_graph (&plain);
	  probe_checksum = plain.checksum_plain;
	  n_probes = lp_probes_function (node, name, probe_checksum);
	}

      /* Local pure-const may imply a need to fix up the CFG
	 (tree_profiling does the same).  A probe build changes no code.  */
      if (!plain_cfg && (execute_fixup_cfg () & TODO_cleanup_cfg))
	cleanup_tree_cfg ();

      lp_graph g;
      /* A probe build has no counters: only the plain checksum.  */
      bool values = !as_plain_build && (use || !latepgo_opts.no_values);
      /* A use build takes the graph the profile was trained with: that
	 of no-exact-calls (and lean, whose default it is) when the
	 profile has its record, else the exact one.  They differ only
	 where a statement may leave.  Built in that order, as the
	 graph without fake edges after calls leaves the CFG as it was,
	 and the exact one splits blocks.  */
      bool without_exact_calls = false;
      if (use && !plain_cfg && lp_function_may_leave_p ())
	{
	  lp_build_graph (&g, false, values);
	  without_exact_calls = lp_use_profile_fits_p (node, &g, name);
	  if (!without_exact_calls)
	    lp_release_graph (&g);
	}
      if (!without_exact_calls)
	lp_build_graph (&g, use ? !plain_cfg : exact, values);
      if (n_probes < 0)
	probe_checksum = g.checksum_plain;

      if (probes_only)
	{
	  lp_dump_function (name, asm_name, &g, 0);
	  lp_release_graph (&g);
	}
      else if (sample)
	{
	  lp_dump_function (name, asm_name, &g, 0);
	  lp_sample_use_function (node, &g, name);
	}
      else if (g.n_counters == 0)
	{
	  /* Nothing countable (every edge fake); LLVM's format has no
	     record without counters.  */
	  lp_dump_function (name, asm_name, &g, 0);
	  lp_release_graph (&g);
	}
      else if (use)
	{
	  lp_dump_function (name, asm_name, &g, 0);
	  if (without_exact_calls)
	    if (FILE *d = lp_dump_stream ())
	      fputs ("  profile without exact calls\n", d);
	  lp_use_function (node, &g, name);
	}
      else
	{
	  int blocks_before = n_basic_blocks_for_fn (cfun);
	  lp_anchors_record (&g, name);
	  lp_generate_function (node, &g, name);
	  lp_dump_function (name, asm_name, &g,
			    n_basic_blocks_for_fn (cfun) - blocks_before);
	  instrumented.safe_push (node);
	}
      if (latepgo_opts.probes)
	{
	  if (n_probes < 0)
	    n_probes = lp_probes_function (node, name, probe_checksum);
	  if (FILE *d = lp_dump_stream ())
	    fprintf (d, "  probes %d checksum=0x%" HOST_WIDE_INT_PRINT "x\n",
		     n_probes, probe_checksum);
	}
      if (use && !sample)
	lp_oracle_function (node, name, probe_checksum);
      free (name);
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      pop_cfun ();
    }

  lp_may_leave_end ();
  /* lp_use_finish's context inlining finds the targets of indirect
     calls among this file's functions (lp_known_function).  */
  if (use)
    lp_use_finish ();
  lp_values_end ();
  if (use || probes_only)
    return;

  /* Counters make functions impure: IPA must not CSE or drop calls
     whose counts matter.  Then fix up calls and SSA, re-merge blocks
     and rebuild call edges (the atomic builtin and the exec hook are
     new calls), as tree_profiling does.  */
  for (cgraph_node *n : instrumented)
    {
      n->set_const_flag (false, false);
      n->set_pure_flag (false, false);
    }
  for (cgraph_node *n : instrumented)
    {
      basic_block bb;
      push_cfun (DECL_STRUCT_FUNCTION (n->decl));
      FOR_EACH_BB_FN (bb, cfun)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  if (is_gimple_call (gsi_stmt (gsi)))
	    update_stmt (gsi_stmt (gsi));
      cleanup_tree_cfg ();
      update_ssa (TODO_update_ssa);
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }

  lp_generate_finish ();
  lp_anchors_finish ();
}

namespace {

const pass_data pass_data_latepgo = {
  SIMPLE_IPA_PASS,	/* type */
  "latepgo",		/* name */
  OPTGROUP_NONE,	/* optinfo_flags */
  TV_IPA_PROFILE,	/* tv_id */
  0,			/* properties_required */
  0,			/* properties_provided */
  0,			/* properties_destroyed */
  0,			/* todo_flags_start */
  0,			/* todo_flags_finish: done per function above.  */
};

class pass_latepgo : public simple_ipa_opt_pass
{
public:
  pass_latepgo (gcc::context *ctxt, const char *path, const char *base_name)
    : simple_ipa_opt_pass (pass_data_latepgo, ctxt),
      plugin_path (path), plugin_base_name (base_name)
  {}

  bool gate (function *) final override
  {
    return !seen_error () && !in_lto_p;
  }

  unsigned int execute (function *) final override
  {
    if (latepgo_opts.generate)
      process_all_functions (false);
    else if (latepgo_opts.use_path && lp_profile_load (latepgo_opts.use_path))
      {
	process_all_functions (true);
	lp_oracle_finish ();
      }
    else if (latepgo_opts.sample_use_path
	     && lp_samples_load (latepgo_opts.sample_use_path))
      process_all_functions (true);
    else if (latepgo_opts.probes && !latepgo_opts.use_path
	     && !latepgo_opts.sample_use_path)
      process_all_functions (false);
    if (latepgo_opts.probes && !seen_error ())
      {
	lp_probes_finish ();
	lp_probes_lto_guard (plugin_path, plugin_base_name);
      }
    return 0;
  }

private:
  /* -fplugin=PATH, and the NAME of -fplugin-arg-NAME-*.  */
  const char *plugin_path, *plugin_base_name;
};

} // anon namespace

/* The pass, for the plugin PATH loaded as BASE_NAME.  */

opt_pass *
lp_make_pass (gcc::context *ctxt, const char *path, const char *base_name)
{
  return new pass_latepgo (ctxt, path, base_name);
}
