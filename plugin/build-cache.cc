/* build-cache.cc: a use build under ccache that cannot see its profile.

   ccache hashes the compiler, its command line, the sources and the
   files some options name, but neither the environment nor the file a
   plugin argument names.  A use build that gets its profile from
   -fplugin-arg-latepgo-use=FILE (given directly, or by
   latepgo-use.specs from LATEPGO_PROFILE_USE) is therefore served the
   object built with an older profile when only the profile changed,
   silently (doc/distro.md section 2).  Two routes make ccache see it:
   latepgo-use.specs with -fprofile-instr-use=FILE, whose file ccache
   hashes (the specs file then passes cache-sees-profile along with
   use=FILE), and CCACHE_EXTRAFILES naming the profile.

   So when cc1 runs under ccache with a profile given either other way,
   and CCACHE_EXTRAFILES does not name it, the plugin warns, once per
   compile, naming both routes: -Wlatepgo-ccache (warning-options.cc).

   ccache (3.x and 4.x) runs the compiler with UNCACHED_ERR_FD in its
   environment (the descriptor of ccache's own standard error, for
   messages that must not be cached); nothing else sets it.  ccache
   splits CCACHE_EXTRAFILES at ':' and reads relative paths from the
   compile's directory, as cc1 does.  GCC's own -fprofile-use is not
   checked: ccache hashes the profile that option names.  */

#include "gcc-common.h"
#include "build-cache.h"
#include "arguments.h"
#include "warning-options.h"

/* Whether the file A and the file B are the same: the same device and
   inode when both exist, else the same name.  */

static bool
same_file_p (const char *a, const char *b)
{
  struct stat sa, sb;
  if (stat (a, &sa) == 0 && stat (b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return strcmp (a, b) == 0;
}

/* Whether the ':'-separated list LIST names FILE.  */

static bool
list_names_file_p (const char *list, const char *file)
{
  while (*list)
    {
      const char *end = strchr (list, ':');
      size_t len = end ? (size_t) (end - list) : strlen (list);
      if (len)
	{
	  char *one = xstrndup (list, len);
	  bool same = same_file_p (one, file);
	  free (one);
	  if (same)
	    return true;
	}
      if (!end)
	break;
      list = end + 1;
    }
  return false;
}

/* Warn when this compile runs under ccache and ccache cannot see the
   profile of use=.  Called once, from plugin_init, in use mode with a
   profile given by use=.  */

void
lp_check_build_cache (void)
{
  const char *profile = latepgo_opts.use_path;
  if (!profile || latepgo_opts.cache_sees_profile || flag_preprocess_only
      || !getenv ("UNCACHED_ERR_FD"))
    return;
  const char *extra = getenv ("CCACHE_EXTRAFILES");
  if (extra && list_names_file_p (extra, profile))
    return;
  if (lp_warning_turned_off_p (LP_WARN_CCACHE))
    return;
  /* On a stock GCC the warning has no option of its own: say which
     -Wno- the plugin honours (lp_warning_turned_off_p).  */
  int opt = lp_warning_option (LP_WARN_CCACHE);
  if (opt)
    warning (opt,
	     "latepgo: ccache cannot see the profile %qs: when only the "
	     "profile changes, ccache serves the object built with the old "
	     "one; give it as %<-specs=latepgo-use.specs "
	     "-fprofile-instr-use=%s%> or name it in %<CCACHE_EXTRAFILES%>",
	     profile, profile);
  else
    warning (0,
	     "latepgo: ccache cannot see the profile %qs: when only the "
	     "profile changes, ccache serves the object built with the old "
	     "one; give it as %<-specs=latepgo-use.specs "
	     "-fprofile-instr-use=%s%> or name it in %<CCACHE_EXTRAFILES%> "
	     "(%<-Wno-latepgo-ccache%> turns this warning off)",
	     profile, profile);
}
