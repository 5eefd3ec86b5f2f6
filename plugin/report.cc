/* report.cc: one line per translation unit of a use build, appended to
   a report file that a whole build shares.

   A packager's build runs hundreds of compilations, often under
   make -j, and reads none of their dumps.  With
   -fplugin-arg-latepgo-report=FILE, or LATEPGO_REPORT=FILE in the
   environment (which reaches every compilation of a package build
   without touching its flags), each use or sample-use compilation
   appends

     latepgo-report<TAB>1<TAB>matched=N<TAB>stale=N<TAB>missing=N
       <TAB>unprofiled=0|1<TAB>inconsistent=N<TAB>salvaged=N
       <TAB>profile=PATH<TAB>tu=FILE

   (one line) with a single write(2) on a descriptor opened with
   O_APPEND, so that lines of parallel compilations never interleave.
   'latepgo-profdata report FILE' adds them up.  Fields: functions
   whose profile matched, was stale (static estimates), was absent;
   whether no function of the unit had a profile (all keep static
   estimates); functions whose counters were inconsistent (clamped);
   stale functions whose counts were salvaged (salvage.cc).  */

#include "gcc-common.h"
#include "report.h"
#include "arguments.h"
#include "warning-options.h"
#include <fcntl.h>
#include <unistd.h>

/* The report file: the plugin argument, else $LATEPGO_REPORT.  */

static const char *
report_path (void)
{
  if (latepgo_opts.report_path)
    return latepgo_opts.report_path;
  const char *env = getenv ("LATEPGO_REPORT");
  return env && *env ? env : NULL;
}

void
lp_report_unit (int matched, int stale, int missing, bool unprofiled,
		int inconsistent, int salvaged)
{
  const char *path = report_path ();
  if (!path)
    return;
  const char *profile = (latepgo_opts.use_path ? latepgo_opts.use_path
			 : latepgo_opts.sample_use_path);
  char *line = xasprintf ("latepgo-report\t1\tmatched=%d\tstale=%d\t"
			  "missing=%d\tunprofiled=%d\tinconsistent=%d\t"
			  "salvaged=%d\tprofile=%s\ttu=%s\n", matched, stale,
			  missing, unprofiled ? 1 : 0, inconsistent, salvaged,
			  profile,
			  main_input_filename ? main_input_filename : "-");
  size_t len = strlen (line);
  int fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    warning (lp_warning_option (LP_WARN_REPORT),
	     "latepgo: cannot open report file %qs: %m", path);
  else
    {
      ssize_t n = write (fd, line, len);
      if (n != (ssize_t) len)
	warning (lp_warning_option (LP_WARN_REPORT),
		 "latepgo: cannot write report file %qs: %m", path);
      close (fd);
    }
  free (line);
}
