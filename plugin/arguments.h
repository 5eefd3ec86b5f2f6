/* arguments.h: the -fplugin-arg-latepgo-* arguments (arguments.cc).  */

#ifndef LATEPGO_ARGUMENTS_H
#define LATEPGO_ARGUMENTS_H

/* coverage=function|block, as the runtime knows them
   (LATEPGO_COVERAGE_FUNCTION and _BLOCK of latepgo-abi.h, which
   coverage.cc checks these against).  */
enum lp_coverage_kind
{
  LP_NO_COVERAGE = 0,
  LP_FUNCTION_COVERAGE = 1,
  LP_BLOCK_COVERAGE = 2
};

/* The mode and options given with -fplugin-arg-latepgo-*, and those
   GCC's own flags imply (gcc-flags.cc).  */
struct latepgo_options
{
  bool generate;		/* -fplugin-arg-latepgo-generate[=PATH] */
  const char *profile_path;	/* PATH of generate=PATH, or NULL.  */
  bool atomic;			/* update=atomic or update=atomic-add */
  bool atomic_add;		/* update=atomic-add: locked adds in place
				   rather than per-thread shards.  */
  bool update_given;		/* update= given: GCC's -fprofile-update
				   does not count.  */
  bool exact_calls;		/* Fake edges after calls that may leave
				   (default; no-exact-calls).  */
  bool exact_calls_given;	/* exact-calls or no-exact-calls given.  */
  const char *use_path;		/* use=FILE */
  bool cache_sees_profile;	/* cache-sees-profile: the build cache
				   hashes the profile (build-cache.cc).  */
  const char *sample_use_path;	/* sample-use=FILE */
  const char *sample_contexts_path;	/* sample-contexts=FILE */
  const char *anchors_path;	/* anchors=FILE */
  bool no_salvage;		/* no-salvage */
  bool no_hot_inline;		/* no-hot-inline */
  bool mismatch_error;		/* mismatch=error */
  bool partial_training;	/* partial-training */
  bool no_values;		/* no-values, or -fno-profile-values */
  bool no_promote;		/* no-promote: counters stay in loops.  */
  bool counter_relocation;	/* runtime-counter-relocation: counters
				   where the runtime says (continuous
				   mode).  */
  bool lean;			/* lean: names and records out of the
				   loaded image (lean.cc).  */
  bool lean_dropped_values;	/* Value profiles off because of lean,
				   not because the user asked.  */
  bool probes;			/* probes: pseudo probes per block.  */
  enum lp_coverage_kind coverage;	/* coverage=function|block */
  bool coverage_inline_only;	/* coverage-inline-only: bytes and records
				   for functions with no body of their own
				   left (coverage-inline.cc).  */
  bool probe_cfg;		/* probe-cfg: count the probe build's CFG
				   (pass.cc).  */
  const char *write_sample_path;	/* write-sample=FILE: the oracle
					   (sample-oracle.cc).  */
  const char *dump_path;	/* dump=FILE */
  const char *report_path;	/* report=FILE */
  vec<const char *> prefix_map; /* prefix-map=OLD=NEW, as OLD, NEW pairs.  */
};

extern struct latepgo_options latepgo_opts;

extern bool lp_parse_arguments (struct plugin_name_args *);
extern const char *lp_arguments_help (void);
extern bool lp_check_argument_combinations (void);
extern bool lp_check_coverage_mode (void);

#endif /* LATEPGO_ARGUMENTS_H */
