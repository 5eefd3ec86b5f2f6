/* loader.c: latepgo.so, the file GCC loads for -fplugin=latepgo.

   The plugin proper, latepgo-gccN.so (N the major version of the GCC it
   was built for), references GCC's internal symbols, which the dynamic
   loader resolves against cc1 when GCC dlopens the plugin.  Loaded into
   another GCC, it dies inside dlopen ("undefined symbol: vNULL") before
   any of its code runs.  This stub is written in C and references no
   GCC symbol, so it always loads: it compares the version of the GCC
   loading it with the one it was built for, and only then dlopens the
   plugin proper from its own directory and hands it GCC's arguments.

   Refused, with GCC's own message format and the same words as the
   plugin proper's own check (latepgo.cc):

     cc1: error: latepgo: this plugin was built for GCC 12.2.0 (20220819)
     and cannot be loaded by GCC 11.3.0 (20230216); rebuild it against
     the plugin headers of this compiler (make GCC=gcc-11)

   ("make GCC=aarch64-linux-gnu-gcc-11 TARGET=aarch64-linux-gnu" when
   the loading GCC is a cross compiler)

   after which GCC adds "fail to initialize plugin" and stops.  A
   latepgo-gccM.so for the loading GCC's major version M in the same
   directory (PREFIX/lib/latepgo after 'make install' for two GCCs) is
   loaded instead of refusing; it checks its own version.

   Built by plugin/Makefile against the plugin headers' plugin-version.h
   (the version strings only; no other GCC header, no C++).  Tests may
   pretend another GCC with -DLATEPGO_BUILT_FOR="X.Y.Z", as for
   latepgo.cc.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* gcc-plugin.h's, unchanged since GCC 4.5.  */
struct plugin_gcc_version
{
  const char *basever;
  const char *datestamp;
  const char *devphase;
  const char *revision;
  const char *configuration_arguments;
};

struct plugin_name_args;

#include "plugin-version.h"

#ifndef LATEPGO_BUILT_FOR
#define LATEPGO_BUILT_FOR basever
#endif

typedef int (*lp_plugin_init_fn) (struct plugin_name_args *,
				  struct plugin_gcc_version *);

int plugin_is_GPL_compatible;

int plugin_init (struct plugin_name_args *, struct plugin_gcc_version *);

/* An error as GCC prints it ("cc1: error: ..."): GCC's own error()
   would tie this stub to GCC's symbols.  */

static void __attribute__ ((format (printf, 1, 2)))
lp_error (const char *fmt, ...)
{
  va_list ap;
  fprintf (stderr, "%s: error: ", program_invocation_short_name);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

/* The machine a GCC configured with CONF (its configure arguments)
   makes code for: its --target= (Debian passes it also for a native
   GCC), in BUF of SIZE bytes; "an unnamed machine" without one.  */

static void
target_of (const char *conf, char *buf, size_t size)
{
  const char *t = strstr (conf, "--target=");
  if (!t)
    {
      snprintf (buf, size, "an unnamed machine");
      return;
    }
  t += strlen ("--target=");
  snprintf (buf, size, "%.*s", (int) strcspn (t, " "), t);
}

/* The make command that builds the plugin for the GCC configured with
   CONF, of major version MAJOR, in BUF of SIZE bytes: "make GCC=gcc-11"
   for a native GCC; for a cross compiler (its --target= another than
   its --host=), the one the README gives for that cell, "make
   GCC=aarch64-linux-gnu-gcc-11 TARGET=aarch64-linux-gnu" (Debian names
   cross compilers TARGET-gcc-MAJOR).  */

static void
make_command_for (const char *conf, int major, char *buf, size_t size)
{
  char target[128];
  const char *h = strstr (conf, "--host=");
  target_of (conf, target, sizeof target);
  if (h && strstr (conf, "--target="))
    {
      h += strlen ("--host=");
      size_t hlen = strcspn (h, " ");
      if (hlen != strlen (target) || strncmp (h, target, hlen) != 0)
	{
	  snprintf (buf, size, "make GCC=%s-gcc-%d TARGET=%s", target, major,
		    target);
	  return;
	}
    }
  snprintf (buf, size, "make GCC=gcc-%d", major);
}

/* The major version in VERSION ("12.2.0"), or -1.  */

static int
major_of (const char *version)
{
  char *end;
  long major = strtol (version, &end, 10);
  if (end == version || major <= 0 || major > 999)
    return -1;
  return (int) major;
}

/* The path of latepgo-gccMAJOR.so next to this stub, malloc'ed, or
   NULL when out of memory.  */

static char *
impl_path (int major)
{
  Dl_info self;
  const char *me = "";
  if (dladdr ((void *) plugin_init, &self) && self.dli_fname)
    me = self.dli_fname;
  const char *slash = strrchr (me, '/');
  int dirlen = slash ? (int) (slash - me + 1) : 0;
  char *path = malloc (dirlen + 32);
  if (path)
    snprintf (path, dirlen + 32, "%.*slatepgo-gcc%d.so", dirlen, me, major);
  return path;
}

static int
file_exists_p (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0;
}

/* Load the plugin proper at PATH and run its plugin_init.  */

static int
run_impl (const char *path, struct plugin_name_args *info,
	  struct plugin_gcc_version *ver)
{
  /* As GCC loads plugins (plugin.cc, try_init_one_plugin).  */
  void *h = dlopen (path, RTLD_NOW | RTLD_GLOBAL);
  if (!h)
    {
      lp_error ("latepgo: cannot load the plugin proper: %s", dlerror ());
      return 1;
    }
  lp_plugin_init_fn init = (lp_plugin_init_fn) dlsym (h, "plugin_init");
  if (!init)
    {
      lp_error ("latepgo: '%s' is not a GCC plugin (no plugin_init)", path);
      return 1;
    }
  return init (info, ver);
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *ver)
{
  int built_major = major_of (LATEPGO_BUILT_FOR);
  int loaded_major = major_of (ver->basever);

  if (strcmp (ver->basever, LATEPGO_BUILT_FOR) != 0
      || strcmp (ver->datestamp, gcc_version.datestamp) != 0
      || strcmp (ver->devphase, gcc_version.devphase) != 0)
    {
      /* A build for the loading GCC's major version beside us.  */
      if (loaded_major > 0 && loaded_major != built_major)
	{
	  char *other = impl_path (loaded_major);
	  if (other && file_exists_p (other))
	    {
	      int r = run_impl (other, info, ver);
	      free (other);
	      return r;
	    }
	  free (other);
	}
      char built_t[128], loading_t[128];
      target_of (gcc_version.configuration_arguments, built_t,
		 sizeof built_t);
      target_of (ver->configuration_arguments, loading_t, sizeof loading_t);
      if (strcmp (built_t, loading_t) != 0)
	/* Another release for another machine (Debian's cross compilers
	   have their own datestamps): say both.  */
	lp_error ("latepgo: this plugin was built for GCC %s (%s) for %s "
		  "code and cannot be loaded by GCC %s (%s), which makes %s "
		  "code; rebuild it against the plugin headers of this "
		  "compiler (make TARGET=%s for a cross compiler, make for "
		  "the native one)", LATEPGO_BUILT_FOR, gcc_version.datestamp,
		  built_t, ver->basever, ver->datestamp, loading_t,
		  loading_t);
      else
	{
	  char make[300];
	  make_command_for (ver->configuration_arguments,
			    loaded_major > 0 ? loaded_major : 0, make,
			    sizeof make);
	  lp_error ("latepgo: this plugin was built for GCC %s (%s) and "
		    "cannot be loaded by GCC %s (%s); rebuild it against the "
		    "plugin headers of this compiler (%s)",
		    LATEPGO_BUILT_FOR, gcc_version.datestamp, ver->basever,
		    ver->datestamp, make);
	}
      return 1;
    }
  /* The same release configured otherwise lays out global_options
     differently (latepgo.cc says more); its symbols may differ too.  */
  if (strcmp (ver->configuration_arguments,
	      gcc_version.configuration_arguments) != 0)
    {
      char built[128], loading[128];
      target_of (gcc_version.configuration_arguments, built, sizeof built);
      target_of (ver->configuration_arguments, loading, sizeof loading);
      if (strcmp (built, loading) != 0)
	/* The usual case: a native plugin given to a cross compiler of
	   the same release, or the other way round.  */
	lp_error ("latepgo: this plugin was built for a GCC %s configured "
		  "differently from this one: for %s code, and this GCC "
		  "makes %s code; rebuild it against the plugin headers of "
		  "this compiler (make TARGET=%s for a cross compiler, make "
		  "for the native one)",
		  LATEPGO_BUILT_FOR, built, loading, loading);
      else
	lp_error ("latepgo: this plugin was built for a GCC %s configured "
		  "differently from this one; rebuild it against the plugin "
		  "headers of this compiler", LATEPGO_BUILT_FOR);
      return 1;
    }

  char *path = impl_path (built_major);
  if (!path)
    {
      lp_error ("latepgo: %s", strerror (ENOMEM));
      return 1;
    }
  if (!file_exists_p (path))
    {
      lp_error ("latepgo: '%s' not found: latepgo.so loads the plugin "
		"proper from its own directory (copy both files)", path);
      free (path);
      return 1;
    }
  int r = run_impl (path, info, ver);
  free (path);
  return r;
}
