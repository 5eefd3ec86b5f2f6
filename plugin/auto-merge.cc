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
   renamed into place, so that none ever reads half a profile.  A
   profile merged this way is marked by a file beside it (PROFILE with
   ".latepgo-auto" appended) and merged again when a raw profile is
   newer than it: a second "make profile-opt" retrains without cleaning
   the profile away, and must not build with the first training's
   counts.  A profile without the mark is the user's and is never
   replaced.  */

#include "gcc-common.h"
#include "auto-merge.h"
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
   in the build tree (plugin/../contrib/profdata) or an install (lib/latepgo/..
   /../bin), else from PATH.  Caller frees.  */

static char *
profdata_tool (const char *plugin)
{
  const char *env = getenv ("LATEPGO_PROFDATA");
  if (env && *env)
    return xstrdup (env);
  char *dir = xstrndup (plugin, lbasename (plugin) - plugin);
  const char *tries[] = { "../contrib/profdata/latepgo-profdata",
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

/* The modification time of PATH, or -1 if it has none.  */

static double
mtime_of (const char *path)
{
  struct stat st;
  if (stat (path, &st) != 0)
    return -1;
  return st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
}

/* Whether PROFILE (marked as merged here when MARK exists) must be
   merged from RAWS: it is missing, or it is ours and older than one of
   them.  */

static bool
merge_needed_p (const char *profile, const char *mark,
		const vec<char *> &raws)
{
  double t = mtime_of (profile);
  if (t < 0)
    return true;
  if (access (mark, F_OK) != 0)
    return false;
  for (char *r : raws)
    if (mtime_of (r) > t)
      return true;
  return false;
}

/* Create the mark MARK of a profile merged here.  Made before the
   profile is renamed into place, so that a profile without its mark is
   always the user's.  */

static bool
mark_merged (const char *mark)
{
  int fd = open (mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    return false;
  close (fd);
  return true;
}

/* Make PROFILE current by merging the raw profiles beside it (see the
   top of the file); PLUGIN is the plugin's path.  False after an error
   (reported).  */

bool
lp_auto_merge (const char *profile, const char *plugin)
{
  char *mark = concat (profile, ".latepgo-auto", NULL);
  if (access (profile, F_OK) == 0 && access (mark, F_OK) != 0)
    {
      free (mark);
      return true;
    }
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
  if (raws.is_empty () || !merge_needed_p (profile, mark, raws))
    {
      /* lp_profile_load reports a missing profile.  */
      for (char *r : raws)
	free (r);
      free (dir);
      free (mark);
      return true;
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
  else if (merge_needed_p (profile, mark, raws))
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
      else if (!mark_merged (mark) || rename (tmp, profile) != 0)
	{
	  error ("latepgo: cannot put the merged profile %qs in place: %m",
		 profile);
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
  free (mark);
  for (char *r : raws)
    free (r);
  free (dir);
  return ok;
}
