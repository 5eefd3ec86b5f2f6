/* latepgo.cc: plugin entry point.

   Usage:
     gcc -O2 -fplugin=latepgo.so -fplugin-arg-latepgo-generate[=PATH] ...
   and link with libprof.a (or use -specs=latepgo-generate.specs).

   This file checks that the plugin runs inside the GCC it was built
   for, reads the arguments, sets the GCC flags the modes need and
   registers the pass and the callbacks.

   The files of plugin/, each X.cc but this one with its X.h (what X.cc
   offers).  A file includes the headers of the files it uses and calls
   only files below it in this list (scripts/check-layering.py checks
   that no two files need each other); doc/data-path.md tells the path
   of the data through them.
     latepgo.cc       plugin_init: version check, callbacks, the pass
     pass.cc          the pass: every function through its mode
     sample-use.cc    sample-use mode
     use.cc           use mode: flow solving, the unit's warnings
     salvage.cc       stale profiles mapped onto changed functions
     annotate.cc      solved counts into the CFG (use and sample-use)
     hot-inline.cc    inlining limit of functions that make hot calls
     sample-flow.cc   count inference from samples (minimum-cost flow)
     generate.cc      counters and records (generate mode)
     lean.cc          lean generate: the map out of the loaded image
     anchors.cc       CFG anchors of blocks, recorded by generate
     cfg-graph.cc     the instrumentation graph, spanning tree, checksum
     may-leave.cc     statements that may leave a function (fake edges)
     probes.cc        pseudo probes
     probes-lto.cc    pseudo probes under -flto
     values.cc        value profiles: memop sizes, indirect calls,
		      first-run times
     memcmp-version.cc memcmp and bcmp versioned for their common sizes
     promote.cc       counters of closed loops kept in registers
     shard.cc         counter references, per-thread shards
     coverage.cc      coverage=function|block: the coverage bytes
     coverage-use.cc  use= with a coverage profile
     relocate.cc      runtime counter relocation (continuous mode)
     entry-guard.cc   a guarded block at a function's entry
     section-vars.cc  variables in the profile sections
     runtime-decls.cc declarations of the runtime's symbols
     renamed-unit.cc  a file renamed since training (use mode)
     profile-read.cc  the indexed profile, through format/ (use mode)
     sample-read.cc   the text sample profile (sample-use mode)
     read-file.cc     a profile file read whole
     report.cc        the per-file report line of a use build
     build-cache.cc   a use build under ccache that cannot see its profile
     warning-options.cc  latepgo's own -W options (patched GCC)
     dump.cc          the dump file
     names.cc         which functions, their profile and symbol names
     gcc-flags.cc     GCC's own PGO flags, DW_AT_producer
     auto-merge.cc    -fprofile-use merging raw profiles on first use
     arguments.cc     the table of -fplugin-arg-latepgo-* arguments
     gcc-common.h     the GCC headers every file includes, and what
		      GCC 11 lacks of GCC 12's interfaces
     Makefile         builds latepgo-gccN.so (this plugin, for GCC N)
		      and latepgo.so, its loader (loader.c, C: checks
		      the GCC version before this file's symbols are
		      resolved)  */

#include "gcc-common.h"
#include "plugin-version.h"
#include "dump.h"
#include "gcc-flags.h"
#include "generate.h"
#include "arguments.h"
#include "coverage.h"
#include "pass.h"
#include "vect-guard.h"
#include "sample-context.h"
#include "probes.h"
#include "relocate.h"
#include "runtime-decls.h"
#include "shard.h"
#include "use.h"
#include "values.h"
#include "memcmp-version.h"
#include "warning-options.h"
#include "build-cache.h"

int plugin_is_GPL_compatible;

static struct plugin_info latepgo_info = { "0.1", NULL };

/* The GCC this plugin was built against; tests may pretend another.  */
#ifndef LATEPGO_BUILT_FOR
#define LATEPGO_BUILT_FOR gcc_version.basever
#endif

/* Early function splitting changes the CFG we instrument and creates
   .part functions; native FDO disables it in both its builds, and so
   do we (doc/data-path.md section 1).  A probes build and a sample-use
   build leave it on: the production build is a plain one; and so do
   the builds with probe-cfg, which count that CFG (pass.cc).  */

static void
override_gate (void *gcc_data, void *)
{
  bool *gate_status = (bool *) gcc_data;
  if (!latepgo_opts.generate && !latepgo_opts.use_path)
    return;			/* A probe or sample-use build.  */
  if (latepgo_opts.probe_cfg)
    return;
  if (current_pass && current_pass->name
      && strcmp (current_pass->name, "fnsplit") == 0)
    *gate_status = false;
}

static void
finish (void *, void *)
{
  lp_dump_close ();
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
  /* The same release configured otherwise (other languages, other
     patches: a distribution's GCC and a private build of the same
     version) lays out global_options differently, so the plugin would
     misread every flag.  GCC's own plugin_default_version_check
     compares this too.  */
  if (strcmp (ver->configuration_arguments,
	      gcc_version.configuration_arguments) != 0)
    {
      error ("latepgo: this plugin was built for a GCC %s configured "
	     "differently from this one; rebuild it against the plugin "
	     "headers of this compiler", LATEPGO_BUILT_FOR);
      return 1;
    }

  /* First, so that the warnings below already carry their options.  */
  if (!lp_register_warning_options (info->base_name))
    return 1;
  latepgo_info.help = lp_arguments_help ();
  register_callback (info->base_name, PLUGIN_INFO, NULL, &latepgo_info);
  if (!lp_parse_arguments (info))
    return 1;
  /* A profile given as use= (not by GCC's -fprofile-use, whose file
     ccache hashes).  */
  bool use_argument = latepgo_opts.use_path != NULL;
  if (!lp_adopt_gcc_modes (info->full_name)
      || !lp_adopt_gcc_flags ())
    return 1;
  lp_clean_producer (info->base_name, info->full_name);
  if (!lp_check_coverage_mode ())
    return 1;

  if (!latepgo_opts.generate && !latepgo_opts.use_path
      && !latepgo_opts.sample_use_path && !latepgo_opts.probes
      && !latepgo_opts.sample_contexts_path)
    {
      warning (lp_warning_option (LP_WARN_NO_MODE),
	       "latepgo: no mode given (%<-fplugin-arg-%s-generate%>, "
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

  if (!lp_check_argument_combinations ())
    return 1;
  if (use_argument)
    lp_check_build_cache ();

  /* As native -fprofile-generate, value profiling is on unless the
     user turned it off.  */
  if (global_options_set.x_flag_profile_values && !flag_profile_values)
    latepgo_opts.no_values = true;
  /* Coverage bytes are stores of a constant: no value profiles
     (coverage.cc).  */
  if (latepgo_opts.coverage)
    latepgo_opts.no_values = true;
  /* A lean build counts as clang's lean builds (-debug-info-correlate)
     do, so that its loaded image stays small (doc/lean.md section 4):
     no value profiles, which would need the records in the image (the
     first-run times a block of their own), and unless exact-calls is
     given, no fake edges after calls, a third of the counters.  Use
     builds recognize such a profile by its checksum (pass.cc).
     Coverage keeps its classes exact.  */
  if (latepgo_opts.lean && latepgo_opts.generate && !latepgo_opts.coverage)
    {
      if (!latepgo_opts.no_values)
	latepgo_opts.lean_dropped_values = true;
      latepgo_opts.no_values = true;
      if (!latepgo_opts.exact_calls_given)
	latepgo_opts.exact_calls = false;
    }

  if (latepgo_opts.dump_path)
    lp_dump_open (latepgo_opts.dump_path);

  if (latepgo_opts.use_path || latepgo_opts.sample_use_path)
    {
      /* As native -fprofile-use and -fauto-profile; not for a coverage
	 profile (lp_coverage_profile_file_p).  */
      if (!latepgo_opts.use_path
	  || !lp_coverage_profile_file_p (latepgo_opts.use_path))
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
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) lp_runtime_decls_roots);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) lp_relocate_roots);

  struct register_pass_info pass_info;
  pass_info.pass = lp_make_pass (g, info->full_name, info->base_name);
  pass_info.reference_pass_name = "profile";
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &pass_info);
  register_callback (info->base_name, PLUGIN_OVERRIDE_GATE, override_gate,
		     NULL);
  if (latepgo_opts.probes)
    lp_probes_register (info->base_name);
  lp_memcmp_version_register (info->base_name);
  if (latepgo_opts.use_path || latepgo_opts.sample_use_path)
    lp_vect_guard_register (info->base_name);
  if (latepgo_opts.sample_use_path)
    lp_sample_context_register (info->base_name);
  register_callback (info->base_name, PLUGIN_FINISH, finish, NULL);
  return 0;
}
