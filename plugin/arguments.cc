/* arguments.cc: the plugin's -fplugin-arg-latepgo-KEY[=VALUE] arguments.

   One table (ARGUMENTS below) names every argument, the syntax of its
   value, its line of help, the GCC flag that means the same with the
   plugin loaded, and how it is stored in latepgo_opts.  The help text
   registered with PLUGIN_INFO (cc1 --help prints it), the note listing
   the valid arguments after a bad one, and the parsing all come from
   it; doc/plugin-arguments.md section 2 documents the same arguments
   (testsuite/latepgo.arguments checks that they agree).  The GCC flags
   themselves are read by gcc-flags.cc; the column here says which
   argument each of them stands for.

   Also here: the full values of our arguments (GCC's parser drops
   every '=' after the first from a plugin argument's value), and the
   combinations of modes that cannot work together.  */

#include "gcc-common.h"
#include "toplev.h"
#include "arguments.h"

struct latepgo_options latepgo_opts;

/* What an argument's value may be; anything else is "bad value".  */
enum lp_value_kind
{
  LP_NO_VALUE,			/* KEY alone.  */
  LP_ANY_VALUE,			/* KEY or KEY=VALUE, VALUE checked by STORE.  */
  LP_SOME_VALUE,		/* KEY=VALUE, VALUE checked by STORE.  */
  LP_PATH_VALUE			/* KEY=VALUE, VALUE not empty.  */
};

/* What STORE made of a value.  */
enum lp_store_result
{
  LP_STORED,
  LP_BAD_VALUE,			/* The generic error and note follow.  */
  LP_BAD_VALUE_SAID		/* STORE gave its own error.  */
};

/* One argument.  Given, it sets *FLAG to FLAG_VALUE (when FLAG), stores
   its value in *VALUE_TO (when VALUE_TO), and calls STORE (when STORE),
   which checks and stores what the two cannot.  */
struct lp_argument
{
  const char *key;
  const char *syntax;		/* As listed in the note and the help.  */
  enum lp_value_kind kind;
  const char *help;		/* One line.  */
  const char *gcc_flag;		/* GCC's flag for the same, or NULL.  */
  bool *flag;
  bool flag_value;
  const char **value_to;
  enum lp_store_result (*store) (const char *value);
};

/* update= names its three values itself rather than listing the
   arguments.  */

static enum lp_store_result
store_update (const char *value)
{
  latepgo_opts.update_given = true;
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
      return LP_BAD_VALUE_SAID;
    }
  return LP_STORED;
}

/* OLD=NEW, kept as the pair OLD, NEW; repeated arguments accumulate.  */

static enum lp_store_result
store_prefix_map (const char *value)
{
  const char *eq = strchr (value, '=');
  if (!eq)
    return LP_BAD_VALUE;
  latepgo_opts.prefix_map.safe_push (xstrndup (value, eq - value));
  latepgo_opts.prefix_map.safe_push (xstrdup (eq + 1));
  return LP_STORED;
}

static enum lp_store_result
store_mismatch (const char *value)
{
  if (strcmp (value, "error") != 0 && strcmp (value, "warning") != 0)
    return LP_BAD_VALUE;
  latepgo_opts.mismatch_error = strcmp (value, "error") == 0;
  return LP_STORED;
}

/* coverage=function|block (coverage.cc).  */

static enum lp_store_result
store_coverage (const char *value)
{
  if (strcmp (value, "function") == 0)
    latepgo_opts.coverage = LP_FUNCTION_COVERAGE;
  else if (strcmp (value, "block") == 0)
    latepgo_opts.coverage = LP_BLOCK_COVERAGE;
  else
    return LP_BAD_VALUE;
  return LP_STORED;
}

/* exact-calls or no-exact-calls: the choice is the user's, not lean's
   default (latepgo.cc).  */

static enum lp_store_result
store_exact_calls_given (const char *)
{
  latepgo_opts.exact_calls_given = true;
  return LP_STORED;
}

#define O(FIELD) &latepgo_opts.FIELD

/* In the order of the note that lists the valid arguments.  Its rows
   are alike in shape, as a table's rows are.  */
static const struct lp_argument arguments[] = {
  { "generate", "generate[=PATH]", LP_ANY_VALUE,
    "instrument (link with libprof); PATH: the program's profile file",
    "-fprofile-generate[=DIR]", O (generate), true, O (profile_path), NULL },
  { "use", "use=PROFILE", LP_PATH_VALUE,
    "optimize with an indexed profile",
    "-fprofile-use[=PATH]", NULL, false, O (use_path), NULL },
  { "update", "update=single|atomic|atomic-add", LP_ANY_VALUE,
    "exact counts in threaded programs (atomic, atomic-add)",
    "-fprofile-update=", NULL, false, NULL, store_update },
  { "exact-calls", "exact-calls", LP_NO_VALUE,
    "end blocks after calls that may not return (default but with lean)",
    NULL, O (exact_calls), true, NULL, store_exact_calls_given },
  { "no-exact-calls", "no-exact-calls", LP_NO_VALUE,
    "fewer counters, but wrong counts across exit and longjmp",
    NULL, O (exact_calls), false, NULL, store_exact_calls_given },
  { "prefix-map", "prefix-map=OLD=NEW", LP_SOME_VALUE,
    "rewrite the file prefix of static functions' names",
    NULL, NULL, false, NULL, store_prefix_map },
  { "mismatch", "mismatch=warning|error", LP_SOME_VALUE,
    "a stale function's profile warns (default) or is an error",
    NULL, NULL, false, NULL, store_mismatch },
  { "anchors", "anchors=FILE", LP_PATH_VALUE,
    "the training build's CFG anchors (default: PROFILE.anchors)",
    NULL, NULL, false, O (anchors_path), NULL },
  { "no-salvage", "no-salvage", LP_NO_VALUE,
    "stale functions keep static estimates, even with anchors",
    NULL, O (no_salvage), true, NULL, NULL },
  { "cache-sees-profile", "cache-sees-profile", LP_NO_VALUE,
    "use: ccache hashes the profile (the use specs' -fprofile-instr-use)",
    NULL, O (cache_sees_profile), true, NULL, NULL },
  { "no-hot-inline", "no-hot-inline", LP_NO_VALUE,
    "functions with hot calls keep GCC's inlining limit",
    NULL, O (no_hot_inline), true, NULL, NULL },
  { "partial-training", "partial-training", LP_NO_VALUE,
    "functions that never ran keep static estimates",
    "-fprofile-partial-training", O (partial_training), true, NULL, NULL },
  { "no-values", "no-values", LP_NO_VALUE,
    "no value profiles (memop sizes, indirect calls, first runs)",
    "-fno-profile-values", O (no_values), true, NULL, NULL },
  { "no-promote", "no-promote", LP_NO_VALUE,
    "keep every counter update in its loop",
    NULL, O (no_promote), true, NULL, NULL },
  { "coverage", "coverage=function|block", LP_SOME_VALUE,
    "generate: one byte per function or block, set when it first runs",
    NULL, NULL, false, NULL, store_coverage },
  { "coverage-inline-only", "coverage-inline-only", LP_NO_VALUE,
    "coverage=function: also functions inlined everywhere early",
    NULL, O (coverage_inline_only), true, NULL, NULL },
  { "runtime-counter-relocation", "runtime-counter-relocation", LP_NO_VALUE,
    "counters the runtime can map onto the profile file (continuous mode)",
    NULL, O (counter_relocation), true, NULL, NULL },
  { "lean", "lean", LP_NO_VALUE,
    "names and records out of the loaded image, for merge --binary",
    NULL, O (lean), true, NULL, NULL },
  { "probes", "probes", LP_NO_VALUE,
    "pseudo probes for sample-based PGO",
    NULL, O (probes), true, NULL, NULL },
  { "sample-use", "sample-use=PROFILE", LP_PATH_VALUE,
    "optimize with perf samples of a probes build",
    NULL, NULL, false, O (sample_use_path), NULL },
  { "sample-contexts", "sample-contexts=PROFILE", LP_PATH_VALUE,
    "sample-use: calling contexts from a context-sensitive profile",
    NULL, NULL, false, O (sample_contexts_path), NULL },
  { "probe-cfg", "probe-cfg", LP_NO_VALUE,
    "generate, use: the CFG a probe build sees, for write-sample",
    NULL, O (probe_cfg), true, NULL, NULL },
  { "write-sample", "write-sample=FILE", LP_PATH_VALUE,
    "use= with probes: write the exact counts as a sample profile",
    NULL, NULL, false, O (write_sample_path), NULL },
  { "dump", "dump=FILE", LP_PATH_VALUE,
    "append what was done per function to FILE",
    NULL, NULL, false, O (dump_path), NULL },
  { "report", "report=FILE", LP_PATH_VALUE,
    "use builds: one line of figures per file",
    NULL, NULL, false, O (report_path), NULL },
};

#undef O

/* "generate[=PATH], use=PROFILE, ...": the note after a bad argument.  */

static const char *
valid_arguments (void)
{
  static char *text;
  if (!text)
    {
      text = xstrdup ("");
      for (unsigned i = 0; i < ARRAY_SIZE (arguments); i++)
	{
	  char *longer = concat (text, i ? ", " : "", arguments[i].syntax,
				 NULL);
	  free (text);
	  text = longer;
	}
    }
  return text;
}

/* The help text: a title, then one line per argument.  */

const char *
lp_arguments_help (void)
{
  static char *text;
  if (text)
    return text;
  text = xstrdup ("latepgo: late IR profile instrumentation for GCC");
  for (unsigned i = 0; i < ARRAY_SIZE (arguments); i++)
    {
      const lp_argument *o = &arguments[i];
      char *line = xasprintf ("\n  -fplugin-arg-latepgo-%-32s %s%s%s%s",
			      o->syntax, o->help,
			      o->gcc_flag ? " (also " : "",
			      o->gcc_flag ? o->gcc_flag : "",
			      o->gcc_flag ? ")" : "");
      char *longer = concat (text, line, NULL);
      free (line);
      free (text);
      text = longer;
    }
  return text;
}

/* Whether VALUE is what an argument of KIND may have.  */

static bool
value_fits_p (enum lp_value_kind kind, const char *value)
{
  switch (kind)
    {
    case LP_NO_VALUE:
      return !value;
    case LP_ANY_VALUE:
      return true;
    case LP_SOME_VALUE:
      return value != NULL;
    case LP_PATH_VALUE:
      return value && *value;
    }
  gcc_unreachable ();
}

/* The value of the Nth (from 0) -fplugin-arg-BASE-KEY[=VALUE] argument
   as written, or NULL when it has none.  GCC's parse_plugin_arg_opt
   counts the value's length without the '='s after the first one, so
   "prefix-map=/a=/b" reaches plugin_init as "/a=/": read the original
   option instead.  */

static const char *
lp_plugin_arg_value (const char *base, int n)
{
  size_t base_len = strlen (base);
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const cl_decoded_option *o = &save_decoded_options[i];
      if (o->opt_index != OPT_fplugin_arg_ || !o->arg
	  || strncmp (o->arg, base, base_len) != 0
	  || o->arg[base_len] != '-')
	continue;
      if (n-- == 0)
	{
	  const char *eq = strchr (o->arg, '=');
	  return eq ? eq + 1 : NULL;
	}
    }
  return NULL;
}

/* Parse the arguments into latepgo_opts; false after an error.  Every
   argument is looked at, so that each bad one is reported.  */

bool
lp_parse_arguments (struct plugin_name_args *info)
{
  bool ok = true;
  /* Exact counts unless asked otherwise (no-exact-calls, or lean:
     latepgo.cc).  */
  latepgo_opts.exact_calls = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (value)
	if (const char *full = lp_plugin_arg_value (info->base_name, i))
	  value = full;

      const lp_argument *o = NULL;
      for (unsigned k = 0; k < ARRAY_SIZE (arguments) && !o; k++)
	if (strcmp (key, arguments[k].key) == 0)
	  o = &arguments[k];
      if (!o)
	{
	  error ("latepgo: unknown argument %qs", key);
	  inform (UNKNOWN_LOCATION, "latepgo: valid arguments are %s",
		  valid_arguments ());
	  ok = false;
	  continue;
	}
      enum lp_store_result r = LP_BAD_VALUE;
      if (value_fits_p (o->kind, value))
	{
	  if (o->flag)
	    *o->flag = o->flag_value;
	  if (o->value_to)
	    *o->value_to = value;
	  r = o->store ? o->store (value) : LP_STORED;
	}
      if (r == LP_BAD_VALUE)
	{
	  error ("latepgo: bad value for argument %qs", key);
	  inform (UNKNOWN_LOCATION, "latepgo: valid arguments are %s",
		  valid_arguments ());
	}
      if (r != LP_STORED)
	ok = false;
    }
  return ok;
}

/* coverage= without generate: an error, and false.  Checked before
   the warning for a missing mode, which it would otherwise get.  */

bool
lp_check_coverage_mode (void)
{
  if (latepgo_opts.coverage && !latepgo_opts.generate)
    {
      error ("latepgo: %<coverage%> is a kind of instrumentation; it "
	     "needs %<generate%> (a use build reads the kind from the "
	     "profile)");
      return false;
    }
  return true;
}

/* Modes that cannot work together, and GCC's own instrumentation or
   profile reading, which would run beside ours: an error, and false.  */

bool
lp_check_argument_combinations (void)
{
  if (latepgo_opts.generate && latepgo_opts.probes)
    {
      error ("latepgo: %<probes%> goes into the production build, not the "
	     "instrumented one; it cannot be combined with %<generate%>");
      return false;
    }
  if (latepgo_opts.lean && !latepgo_opts.generate)
    {
      error ("latepgo: %<lean%> shapes what %<generate%> emits; it needs "
	     "%<generate%>");
      return false;
    }
  if (latepgo_opts.generate && latepgo_opts.use_path)
    {
      error ("latepgo: %<generate%> and %<use%> cannot be combined");
      return false;
    }
  if (latepgo_opts.sample_use_path
      && (latepgo_opts.generate || latepgo_opts.use_path))
    {
      error ("latepgo: %<sample-use%> cannot be combined with %<%s%>",
	     latepgo_opts.generate ? "generate" : "use");
      return false;
    }
  if (latepgo_opts.sample_contexts_path && !latepgo_opts.sample_use_path)
    {
      error ("latepgo: %<sample-contexts%> adds calling contexts to the "
	     "profile of %<sample-use%>; it needs it");
      return false;
    }
  if (latepgo_opts.write_sample_path
      && (!latepgo_opts.use_path || !latepgo_opts.probes))
    {
      error ("latepgo: %<write-sample%> writes the counts of %<use%> "
	     "for the probes of %<probes%>; it needs both");
      return false;
    }
  if (profile_arc_flag || flag_branch_probabilities)
    {
      error ("latepgo: cannot be combined with the native "
	     "%<-fprofile-arcs%>, %<--coverage%> or "
	     "%<-fbranch-probabilities%>");
      return false;
    }
  return true;
}
