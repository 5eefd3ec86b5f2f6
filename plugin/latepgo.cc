/* latepgo.cc: plugin entry point, arguments and the pass.

   Usage:
     gcc -O2 -fplugin=latepgo.so -fplugin-arg-latepgo-generate[=PATH] ...
   and link with libprof.a (or use -specs=latepgo-generate.specs).

   Options (-fplugin-arg-latepgo-KEY[=VALUE]):
     generate[=PATH]     instrument; PATH is the default profile file of
			 the program (the runtime's LATEPGO_PROFILE_FILE and
			 LLVM_PROFILE_FILE override it; patterns allowed)
     update=single|atomic|atomic-add
			 plain counter increments (default); exact counts
			 in threaded programs with per-thread copies of
			 the counters (atomic), or with relaxed atomic
			 adds on the shared counters (atomic-add)
     no-exact-calls      do not end blocks after calls that may not
			 return: fewer counters, but counts are wrong when
			 the program leaves a function other than by
			 returning (exit in a callee, longjmp, a throw);
			 exact-calls, the default, keeps them exact
     prefix-map=OLD=NEW  rewrite the file prefix of static functions'
			 profile names (as -fprofile-prefix-map); an empty
			 NEW removes OLD and the '/' after it
     use=PROFILE         annotate counts from an indexed profile
			 (latepgo-profdata merge or llvm-profdata merge)
     mismatch=warning|error
			 a function whose profile is stale warns and keeps
			 static estimates (default), or is an error
     partial-training    functions whose profile says they never ran
			 keep static estimates instead of being treated as
			 never run
     no-promote          keep every counter update where its edge is,
			 instead of counting closed loops in a local and
			 adding it to the counter at the loop exits
     no-values           do not profile the sizes of memcpy/memset calls
			 (also -fno-profile-values); use mode reads
			 profiles made either way
     probes              pseudo probes for sample-based PGO: a probe per
			 block and call, at no run-time cost (probes.cc);
			 alone, with use= or with sample-use=
     sample-use=PROFILE  annotate counts from a probe-based sample profile
			 (latepgo-profgen of perf samples of a probes
			 build; sample-use.cc)
     dump=FILE           append what was done per function to FILE
     report=FILE         use builds: append one line of figures per
			 translation unit (also $LATEPGO_REPORT; report.cc)

   Placement: a SIMPLE_IPA pass right after GCC's "profile" IPA pass
   (tree-profile.cc), so after early inlining and the early
   optimizations and before IPA inlining: functions GCC inlined early are
   counted in their callers, and the CFG we instrument is the one the
   optimizers will see.  See doc/data-path.md section 1.  */

#include "gcc-common.h"
#include "plugin-version.h"
#include "latepgo.h"

int plugin_is_GPL_compatible;

struct latepgo_options latepgo_opts;
/* -fplugin=PATH, and the NAME of -fplugin-arg-NAME-*.  */
static const char *plugin_path, *plugin_base_name;

static const char latepgo_help[] =
  "latepgo: late IR profile instrumentation for GCC\n"
  "  -fplugin-arg-latepgo-generate[=PATH]   instrument (link with libprof)\n"
  "  -fplugin-arg-latepgo-use=PROFILE       optimize with an indexed profile\n"
  "  -fplugin-arg-latepgo-mismatch=warning|error\n"
  "  -fplugin-arg-latepgo-partial-training\n"
  "  -fplugin-arg-latepgo-update=single|atomic|atomic-add\n"
  "  -fplugin-arg-latepgo-no-exact-calls\n"
  "  -fplugin-arg-latepgo-no-values\n"
  "  -fplugin-arg-latepgo-no-promote\n"
  "  -fplugin-arg-latepgo-probes\n"
  "  -fplugin-arg-latepgo-sample-use=PROFILE   optimize with perf samples\n"
  "  -fplugin-arg-latepgo-prefix-map=OLD=NEW\n"
  "  -fplugin-arg-latepgo-dump=FILE\n"
  "  -fplugin-arg-latepgo-report=FILE      use builds: one line per file";

static const char latepgo_arguments[] =
  "generate[=PATH], use=PROFILE, update=single|atomic|atomic-add, "
  "exact-calls, no-exact-calls, "
  "prefix-map=OLD=NEW, mismatch=warning|error, partial-training, no-values, "
  "no-promote, probes, sample-use=PROFILE, dump=FILE, report=FILE";

static struct plugin_info latepgo_info = { "0.1", latepgo_help };

/* The GCC this plugin was built against; tests may pretend another.  */
#ifndef LATEPGO_BUILT_FOR
#define LATEPGO_BUILT_FOR gcc_version.basever
#endif

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
      /* Local pure-const may imply a need to fix up the CFG
	 (tree_profiling does the same).  A probe build changes no code.  */
      if (!as_plain_build && (execute_fixup_cfg () & TODO_cleanup_cfg))
	cleanup_tree_cfg ();

      /* Samples need no fake edges after calls: probe and sample-use
	 builds keep the plain CFG.  */
      bool exact = latepgo_opts.exact_calls && !as_plain_build;
      char *name = lp_profile_name (node->decl);
      const char *asm_name = lp_symbol_name (node->decl);

      /* Probes in a use build go in before its call splits, on the
	 plain CFG, so that they are numbered as a probe-only build and
	 a sample-use build number them.  */
      int n_probes = -1;
      unsigned HOST_WIDE_INT probe_checksum = 0;
      if (latepgo_opts.probes && exact)
	{
	  lp_graph plain;
	  lp_build_graph (&plain, false, false);
	  lp_release_graph (&plain);
	  probe_checksum = plain.checksum_plain;
	  n_probes = lp_probes_function (node, name, probe_checksum);
	}

      lp_graph g;
      /* A probe build has no counters: only the plain checksum.  */
      lp_build_graph (&g, exact,
		      !as_plain_build && (use || !latepgo_opts.no_values));
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
	  lp_use_function (node, &g, name);
	}
      else
	{
	  int blocks_before = n_basic_blocks_for_fn (cfun);
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
      free (name);
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      pop_cfun ();
    }

  lp_may_leave_end ();
  lp_values_end ();
  if (use)
    lp_use_finish ();
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
  pass_latepgo (gcc::context *ctxt)
    : simple_ipa_opt_pass (pass_data_latepgo, ctxt)
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
      process_all_functions (true);
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
};

} // anon namespace

/* Early function splitting changes the CFG we instrument and creates
   .part functions; native FDO disables it in both its builds, and so
   do we (doc/data-path.md section 1).  A probes build and a sample-use
   build leave it on: the production build is a plain one.  */

static void
override_gate (void *gcc_data, void *)
{
  bool *gate_status = (bool *) gcc_data;
  if (!latepgo_opts.generate && !latepgo_opts.use_path)
    return;			/* A probe or sample-use build.  */
  if (current_pass && current_pass->name
      && strcmp (current_pass->name, "fnsplit") == 0)
    *gate_status = false;
}

static void
finish (void *, void *)
{
  lp_dump_close ();
}

/* Parse the arguments into latepgo_opts; false after an error.  */

static bool
parse_arguments (struct plugin_name_args *info, bool *set_update,
		 bool *set_partial)
{
  bool ok = true;
  /* Exact counts unless asked otherwise (no-exact-calls).  */
  latepgo_opts.exact_calls = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (value)
	if (const char *full = lp_plugin_arg_value (info->base_name, i))
	  value = full;

      if (strcmp (key, "generate") == 0)
	{
	  latepgo_opts.generate = true;
	  latepgo_opts.profile_path = value;
	}
      else if (strcmp (key, "update") == 0)
	{
	  *set_update = true;
	  if (value && strcmp (value, "atomic") == 0)
	    latepgo_opts.atomic = true, latepgo_opts.atomic_add = false;
	  else if (value && strcmp (value, "atomic-add") == 0)
	    latepgo_opts.atomic = true, latepgo_opts.atomic_add = true;
	  else if (value && strcmp (value, "single") == 0)
	    latepgo_opts.atomic = false, latepgo_opts.atomic_add = false;
	  else
	    {
	      error ("latepgo: %<update%> takes %<single%>, %<atomic%> or "
		     "%<atomic-add%>, not %qs", value ? value : "");
	      ok = false;
	    }
	}
      else if (strcmp (key, "use") == 0 && value && *value)
	latepgo_opts.use_path = value;
      else if (strcmp (key, "sample-use") == 0 && value && *value)
	latepgo_opts.sample_use_path = value;
      else if (strcmp (key, "mismatch") == 0 && value
	       && (strcmp (value, "error") == 0
		   || strcmp (value, "warning") == 0))
	latepgo_opts.mismatch_error = strcmp (value, "error") == 0;
      else if (strcmp (key, "partial-training") == 0 && !value)
	latepgo_opts.partial_training = *set_partial = true;
      else if (strcmp (key, "exact-calls") == 0 && !value)
	latepgo_opts.exact_calls = true;
      else if (strcmp (key, "no-exact-calls") == 0 && !value)
	latepgo_opts.exact_calls = false;
      else if (strcmp (key, "no-values") == 0 && !value)
	latepgo_opts.no_values = true;
      else if (strcmp (key, "no-promote") == 0 && !value)
	latepgo_opts.no_promote = true;
      else if (strcmp (key, "probes") == 0 && !value)
	latepgo_opts.probes = true;
      else if (strcmp (key, "dump") == 0 && value && *value)
	latepgo_opts.dump_path = value;
      else if (strcmp (key, "report") == 0 && value && *value)
	latepgo_opts.report_path = value;
      else if (strcmp (key, "prefix-map") == 0 && value
	       && strchr (value, '='))
	{
	  const char *eq = strchr (value, '=');
	  latepgo_opts.prefix_map.safe_push (xstrndup (value, eq - value));
	  latepgo_opts.prefix_map.safe_push (xstrdup (eq + 1));
	}
      else if (strcmp (key, "dump") == 0 || strcmp (key, "prefix-map") == 0
	       || strcmp (key, "report") == 0
	       || strcmp (key, "exact-calls") == 0
	       || strcmp (key, "no-exact-calls") == 0
	       || strcmp (key, "use") == 0
	       || strcmp (key, "mismatch") == 0
	       || strcmp (key, "partial-training") == 0
	       || strcmp (key, "no-values") == 0
	       || strcmp (key, "no-promote") == 0
	       || strcmp (key, "probes") == 0
	       || strcmp (key, "sample-use") == 0)
	{
	  error ("latepgo: bad value for argument %qs", key);
	  inform (UNKNOWN_LOCATION, "latepgo: valid arguments are %s",
		  latepgo_arguments);
	  ok = false;
	}
      else
	{
	  error ("latepgo: unknown argument %qs", key);
	  inform (UNKNOWN_LOCATION, "latepgo: valid arguments are %s",
		  latepgo_arguments);
	  ok = false;
	}
    }
  return ok;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *ver)
{
  /* GCC's internals change between releases and builds: refuse to run
     inside any compiler but the one we were built for.  */
  if (strcmp (ver->basever, LATEPGO_BUILT_FOR) != 0
      || strcmp (ver->datestamp, gcc_version.datestamp) != 0
      || strcmp (ver->devphase, gcc_version.devphase) != 0)
    {
      error ("latepgo: this plugin was built for GCC %s (%s) and cannot be "
	     "loaded by GCC %s (%s); rebuild it against the plugin headers "
	     "of this compiler", LATEPGO_BUILT_FOR, gcc_version.datestamp,
	     ver->basever, ver->datestamp);
      return 1;
    }

  register_callback (info->base_name, PLUGIN_INFO, NULL, &latepgo_info);
  plugin_path = info->full_name;
  plugin_base_name = info->base_name;
  bool set_update = false, set_partial = false;
  if (!parse_arguments (info, &set_update, &set_partial)
      || !lp_adopt_gcc_modes (info->full_name)
      || !lp_adopt_gcc_flags (set_update, set_partial))
    return 1;
  lp_clean_producer (info->base_name, info->full_name);

  if (!latepgo_opts.generate && !latepgo_opts.use_path
      && !latepgo_opts.sample_use_path && !latepgo_opts.probes)
    {
      warning (0, "latepgo: no mode given (%<-fplugin-arg-%s-generate%>, "
	       "%<-fplugin-arg-%s-use=PROFILE%> or %<-fplugin-arg-%s-probes%>); "
	       "the plugin does nothing",
	       info->base_name, info->base_name, info->base_name);
      return 0;
    }
  /* Static functions are named relative to the directory of the
     compile (names.cc, which asks get_src_pwd).  Preprocessed output
     that is compiled elsewhere, as on distcc's helpers, must carry
     that directory in GCC's '# 0 "DIR//"' line marker, which the
     preprocessor writes only with -g unless told to.  */
  if (flag_working_directory == -1)
    flag_working_directory = 1;

  if (latepgo_opts.generate && latepgo_opts.probes)
    {
      error ("latepgo: %<probes%> goes into the production build, not the "
	     "instrumented one; it cannot be combined with %<generate%>");
      return 1;
    }
  if (latepgo_opts.generate && latepgo_opts.use_path)
    {
      error ("latepgo: %<generate%> and %<use%> cannot be combined");
      return 1;
    }
  if (latepgo_opts.sample_use_path
      && (latepgo_opts.generate || latepgo_opts.use_path))
    {
      error ("latepgo: %<sample-use%> cannot be combined with %<%s%>",
	     latepgo_opts.generate ? "generate" : "use");
      return 1;
    }
  if (profile_arc_flag || flag_branch_probabilities)
    {
      error ("latepgo: cannot be combined with the native "
	     "%<-fprofile-arcs%>, %<--coverage%> or "
	     "%<-fbranch-probabilities%>");
      return 1;
    }

  /* As native -fprofile-generate, value profiling is on unless the
     user turned it off.  */
  if (global_options_set.x_flag_profile_values && !flag_profile_values)
    latepgo_opts.no_values = true;

  if (latepgo_opts.dump_path)
    lp_dump_open (latepgo_opts.dump_path);

  if (latepgo_opts.use_path || latepgo_opts.sample_use_path)
    {
      /* As native -fprofile-use and -fauto-profile.  */
      lp_use_set_fdo_flags ();
      /* Sample profiles are estimates: as -fauto-profile, let GCC
	 correct inconsistencies quietly instead of warning about
	 them.  */
      if (latepgo_opts.sample_use_path
	  && !global_options_set.x_flag_profile_correction)
	flag_profile_correction = 1;
      /* GCC makes -Wcoverage-mismatch an error by default
	 (toplev.cc:process_options); a stale latepgo profile only warns
	 unless mismatch=error, so that it never breaks a build.  The
	 user's own -Werror=coverage-mismatch still wins.  */
      if (global_dc->classify_diagnostic[OPT_Wcoverage_mismatch]
	  == DK_UNSPECIFIED)
	diagnostic_classify_diagnostic (global_dc, OPT_Wcoverage_mismatch,
					DK_WARNING, UNKNOWN_LOCATION);
    }

  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) lp_generate_roots);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) lp_values_roots);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) lp_shard_roots);

  struct register_pass_info pass_info;
  pass_info.pass = new pass_latepgo (g);
  pass_info.reference_pass_name = "profile";
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &pass_info);
  register_callback (info->base_name, PLUGIN_OVERRIDE_GATE, override_gate,
		     NULL);
  if (latepgo_opts.probes)
    lp_probes_register (info->base_name);
  register_callback (info->base_name, PLUGIN_FINISH, finish, NULL);
  return 0;
}
