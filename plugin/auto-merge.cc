/* auto-merge.cc: merge the raw profiles of a -fprofile-use build on
   first use.

   GCC's PGO has no merge step: programs add their counts to the .gcda
   files and -fprofile-use reads them, so build systems with a GCC PGO
   target (CPython's "make profile-opt", ...) run none.  When the
   profile that -fprofile-use names (gcc-flags.cc) does not exist but
   its directory holds raw profiles, the first compilation that needs
   it runs "latepgo-profdata merge -o PROFILE" on DIR's .profraw files,
   and the
   others use the result: under an flock(2) on DIR/.latepgo-merge.lock,
   so that parallel compilations merge once, into a temporary file
   renamed into place, so that none ever reads half a profile.  An
   existing profile is never replaced: delete it to merge again.  */

#include "gcc-common.h"
#include "latepgo.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run ARGV (ARGV[0] searched in PATH); its exit status, or -1 when it
   could not run or was killed.  cc1 exports no libiberty pex_*.  */

static int
run_tool (char *const *argv)
{
  pid_t pid = fork ();
  if (pid < 0)
    return -1;
  if (pid == 0)
    {
      execvp (argv[0], argv);
      _exit (127);
    }
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The raw profiles (*.profraw) of directory DIR, sorted.  */

static void
raw_profiles (const char *dir, auto_vec<char *> *out)
{
  DIR *d = opendir (dir);
  if (!d)
    return;
  while (struct dirent *e = readdir (d))
    {
      size_t len = strlen (e->d_name);
      if (len > 8 && strcmp (e->d_name + len - 8, ".profraw") == 0)
	out->safe_push (concat (dir, "/", e->d_name, NULL));
    }
  closedir (d);
  out->qsort ([] (const void *a, const void *b)
	      { return strcmp (*(char *const *) a, *(char *const *) b); });
}

/* latepgo-profdata: $LATEPGO_PROFDATA, else next to the plugin PLUGIN
   in the build tree (plugin/../contrib) or an install (lib/latepgo/..
   /../bin), else from PATH.  Caller frees.  */

static char *
profdata_tool (const char *plugin)
{
  const char *env = getenv ("LATEPGO_PROFDATA");
  if (env && *env)
    return xstrdup (env);
  char *dir = xstrndup (plugin, lbasename (plugin) - plugin);
  const char *tries[] = { "../contrib/latepgo-profdata",
			  "../../bin/latepgo-profdata" };
  for (const char *t : tries)
    {
      char *p = concat (*dir ? dir : "./", t, NULL);
      if (access (p, X_OK) == 0)
	{
	  free (dir);
	  return p;
	}
      free (p);
    }
  free (dir);
  return xstrdup ("latepgo-profdata");
}

/* Make PROFILE exist by merging the raw profiles beside it, if it does
   not and there are any; PLUGIN is the plugin's path.  False after an
   error (reported).  */

bool
lp_auto_merge (const char *profile, const char *plugin)
{
  if (access (profile, F_OK) == 0)
    return true;
  char *dir = xstrndup (profile, lbasename (profile) - profile);
  if (!*dir)
    {
      free (dir);
      dir = xstrdup (".");
    }
  else if (strlen (dir) > 1)
    dir[strlen (dir) - 1] = '\0';	/* The '/' before the name.  */
  auto_vec<char *> raws;
  raw_profiles (dir, &raws);
  if (raws.is_empty ())
    {
      free (dir);
      return true;		/* lp_profile_load reports the missing file.  */
    }

  char *lock_path = concat (dir, "/.latepgo-merge.lock", NULL);
  int lock = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  bool ok = true;
  if (lock < 0 || flock (lock, LOCK_EX) != 0)
    {
      error ("latepgo: cannot lock %qs to merge the raw profiles: %m",
	     lock_path);
      ok = false;
    }
  else if (access (profile, F_OK) != 0)
    {
      /* Nobody merged while we waited: merge.  */
      char *tool = profdata_tool (plugin);
      char pid[32];
      snprintf (pid, sizeof pid, ".tmp%ld", (long) getpid ());
      char *tmp = concat (profile, pid, NULL);
      auto_vec<const char *> argv;
      argv.safe_push (tool);
      argv.safe_push ("merge");
      argv.safe_push ("-o");
      argv.safe_push (tmp);
      for (char *r : raws)
	argv.safe_push (r);
      argv.safe_push (NULL);
      int status = run_tool (CONST_CAST (char *const *, argv.address ()));
      if (status != 0)
	{
	  error ("latepgo: %qs could not merge the %u raw profiles of %qs "
		 "into %qs (exit status %d)", tool, raws.length (), dir,
		 profile, status);
	  unlink (tmp);
	  ok = false;
	}
      else if (rename (tmp, profile) != 0)
	{
	  error ("latepgo: cannot rename %qs to %qs: %m", tmp, profile);
	  unlink (tmp);
	  ok = false;
	}
      else
	inform (UNKNOWN_LOCATION, "latepgo: merged the %u raw profiles of "
		"%qs into %qs", raws.length (), dir, profile);
      free (tmp);
      free (tool);
    }
  if (lock >= 0)
    close (lock);
  free (lock_path);
  for (char *r : raws)
    free (r);
  free (dir);
  return ok;
}
