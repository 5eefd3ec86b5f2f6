/* gcc-flags.cc: what the plugin takes from GCC's own command line.

   A build that already spells GCC's profiling flags gets latepgo's
   matching behaviour with the plugin loaded:
     -fprofile-generate[=DIR]                generate (lp_adopt_gcc_modes)
     -fprofile-use[=PATH]                    use
     -fprofile-update=atomic|prefer-atomic   update=atomic
     -fprofile-update=single                 update=single
     -fprofile-partial-training              partial-training
     -fprofile-exclude-files=RE;RE...        those files' functions are
     -fprofile-filter-files=RE;RE...         left alone, as tree_profiling
						 does (tree-profile.cc)
     -Wmissing-profile, -Wcoverage-mismatch  the warnings use them
   Our own -fplugin-arg-latepgo-KEY arguments win over these.

   Also here: the DW_AT_producer string, which must not record the
   plugin's and the profile's absolute paths (reproducible builds).  */

#include "gcc-common.h"
#include "toplev.h"
#include "gcc-flags.h"
#include "auto-merge.h"
#include "arguments.h"
#include <regex.h>
#include <sys/stat.h>

/* GCC's -fprofile-generate[=DIR] and -fprofile-use[=PATH] mean
   latepgo's generate and use with the plugin loaded, so that a build
   with a GCC PGO target needs only -specs=latepgo.specs in CC.  DIR and
   PATH follow LLVM's conventions: the program writes
   DIR/default_%m.profraw, and a use build reads PATH, or
   PATH/default.profdata when PATH is a directory (default.profdata
   without PATH).  As GCC does with .gcda files, a relative DIR, or the
   current directory without DIR, is made absolute at compile time: the
   processes of a test suite run in directories of their own.  The raw
   profiles are merged on first use (auto-merge.cc), since GCC PGO
   targets have no merge step.  GCC's own instrumentation and profile
   reading are turned off: profile_arc_flag here,
   flag_branch_probabilities until our pass has annotated
   (lp_use_finish), both before GCC's option processing and its reading
   of .gcda files.  PLUGIN is the plugin's path.  False after an
   error.  */

bool
lp_adopt_gcc_modes (const char *plugin)
{
  bool gen = false, use = false;
  const char *gen_dir = NULL, *use_path = NULL;

  /* The last of each wins, as in GCC.  */
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const cl_decoded_option *o = &save_decoded_options[i];
      if (o->opt_index == OPT_fprofile_generate
	  || o->opt_index == OPT_fprofile_generate_)
	{
	  gen = o->value != 0;
	  gen_dir = o->opt_index == OPT_fprofile_generate_ ? o->arg : NULL;
	}
      else if (o->opt_index == OPT_fprofile_use
	       || o->opt_index == OPT_fprofile_use_)
	{
	  use = o->value != 0;
	  use_path = o->opt_index == OPT_fprofile_use_ ? o->arg : NULL;
	}
    }
  if (gen && use)
    {
      error ("latepgo: %<-fprofile-generate%> and %<-fprofile-use%> cannot "
	     "be combined");
      return false;
    }
  if (gen)
    {
      if (latepgo_opts.use_path || latepgo_opts.sample_use_path)
	{
	  error ("latepgo: %<-fprofile-generate%> cannot be combined with "
		 "%<%s%>", latepgo_opts.use_path ? "use" : "sample-use");
	  return false;
	}
      latepgo_opts.generate = true;
      if (!latepgo_opts.profile_path)
	{
	  const char *pwd = getpwd ();
	  if (!gen_dir)
	    gen_dir = pwd;
	  else if (!IS_ABSOLUTE_PATH (gen_dir))
	    gen_dir = concat (pwd, "/", gen_dir, NULL);
	  latepgo_opts.profile_path = concat (gen_dir, "/default_%m.profraw",
					      NULL);
	}
      profile_arc_flag = 0;
    }
  if (use)
    {
      if (latepgo_opts.generate)
	{
	  error ("latepgo: %<-fprofile-use%> cannot be combined with "
		 "%<generate%>");
	  return false;
	}
      if (!latepgo_opts.use_path && !latepgo_opts.sample_use_path)
	{
	  /* A named file is the user's; default.profdata, the name LLVM
	     gives a directory's profile, is merged if missing.  */
	  struct stat st;
	  bool dir = !use_path || (stat (use_path, &st) == 0
				   && S_ISDIR (st.st_mode));
	  if (!use_path)
	    latepgo_opts.use_path = "default.profdata";
	  else if (dir)
	    latepgo_opts.use_path = concat (use_path, "/default.profdata",
					    NULL);
	  else
	    latepgo_opts.use_path = use_path;
	  if (dir && !lp_auto_merge (latepgo_opts.use_path, plugin))
	    return false;
	}
      flag_branch_probabilities = 0;
    }
  return true;
}

/* Regular expressions of -fprofile-exclude-files and
   -fprofile-filter-files.  */
static vec<regex_t> exclude_files, filter_files;

/* Compile the ';'-separated expressions of FLAG_VALUE (the option
   FLAG_NAME) into V; false after an error.  As tree-profile.cc's
   parse_profile_filter.  */

static bool
parse_file_filter (const char *flag_value, vec<regex_t> *v,
		   const char *flag_name)
{
  if (!flag_value)
    return true;
  char *str = xstrdup (flag_value);
  bool ok = true;
  for (char *p = strtok (str, ";"); p; p = strtok (NULL, ";"))
    {
      regex_t r;
      if (regcomp (&r, p, REG_EXTENDED | REG_NOSUB) != 0)
	{
	  error ("invalid regular expression %qs in %qs", p, flag_name);
	  ok = false;
	  break;
	}
      v->safe_push (r);
    }
  free (str);
  return ok;
}

/* Take over GCC's profiling flags that have a latepgo meaning; our
   update= wins over -fprofile-update (partial-training can only be
   turned on).  False after an error.  */

bool
lp_adopt_gcc_flags (void)
{
  if (!latepgo_opts.update_given && global_options_set.x_flag_profile_update)
    {
      /* Per-thread copies of the counters give the exact counts that
	 GCC's atomic adds give, at the cost of plain adds (doc/usage.md).  */
      bool atomic = flag_profile_update != PROFILE_UPDATE_SINGLE;
      latepgo_opts.atomic = atomic;
      latepgo_opts.atomic_add = false;
    }
  if (flag_profile_partial_training)
    latepgo_opts.partial_training = true;
  return (parse_file_filter (flag_profile_exclude_files, &exclude_files,
			     "-fprofile-exclude-files")
	  && parse_file_filter (flag_profile_filter_files, &filter_files,
				"-fprofile-filter-files"));
}

/* Whether the functions of source FILE are profiled, by
   -fprofile-exclude-files and -fprofile-filter-files: as
   tree-profile.cc's include_source_file_for_profile.  */

bool
lp_file_profiled_p (const char *file)
{
  if (!file)
    return true;
  for (regex_t &r : exclude_files)
    if (regexec (&r, file, 0, NULL, 0) == 0)
      return false;
  if (filter_files.is_empty ())
    return true;
  for (regex_t &r : filter_files)
    if (regexec (&r, file, 0, NULL, 0) == 0)
      return true;
  return false;
}

/* Rewrite our options in what -grecord-gcc-switches (GCC's default)
   writes into DW_AT_producer: -fplugin=DIR/latepgo.so becomes
   -fplugin=latepgo, and the file arguments of -fplugin-arg-BASE-KEY
   keep only their last component (prefix-map, whose value is two
   directories, keeps only its name, as GCC's own -ffile-prefix-map is
   left out).  What LTO streams (canonical_option) is unchanged.  The same profile used from another
   directory then gives the same debug info, as -ffile-prefix-map
   already does for the sources.  */

void
lp_clean_producer (const char *base, const char *full_name)
{
  size_t base_len = strlen (base);
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      cl_decoded_option *o = &save_decoded_options[i];
      if (o->opt_index == OPT_fplugin_ && o->arg
	  && strcmp (o->arg, full_name) == 0)
	o->orig_option_with_args_text = concat ("-fplugin=", base, NULL);
      else if (o->opt_index == OPT_fplugin_arg_ && o->arg
	       && strncmp (o->arg, base, base_len) == 0
	       && o->arg[base_len] == '-')
	{
	  const char *key = o->arg + base_len + 1;
	  const char *eq = strchr (key, '=');
	  if (!eq)
	    continue;
	  if (strncmp (key, "prefix-map=", 11) == 0)
	    o->orig_option_with_args_text
	      = concat ("-fplugin-arg-", base, "-prefix-map", NULL);
	  else
	    o->orig_option_with_args_text
	      = concat ("-fplugin-arg-", base, "-",
			xstrndup (key, eq + 1 - key), lbasename (eq + 1),
			NULL);
	}
    }
}
