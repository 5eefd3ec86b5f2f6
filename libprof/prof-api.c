/* prof-api.c: compiler-rt's user API (latepgo-prof.h) on top of the
   latepgo runtime.  The definitions are weak and hidden: when
   compiler-rt's runtime is linked into the same module, its strong
   definitions replace these without a clash, and latepgo's runtime
   stands down (prof-core.c).  __llvm_profile_initialize is deliberately
   not defined: compiler-rt's runtime object calls it, and a definition
   here could keep the linker from taking compiler-rt's own file
   writer out of its archive.  */

#include "prof-internal.h"
#include "latepgo-prof.h"

#include <errno.h>

/* Write the profile now, unless __llvm_profile_dump disabled writing.
   Return 0, or -1.  */

LP_WEAK_HIDDEN int
__llvm_profile_write_file (void)
{
  int saved = errno;
  int rc = 0;
  lp_init ();
  if (lp_state.inert)
    ;
  else if (lp_state.dumped)
    lp_note ("profile not written: already dumped");
  else if (lp_continuous_mapped ())
    lp_continuous_flush ();
  else
    rc = lp_write_profile (LP_WRITE_API);
  errno = saved;
  return rc;
}

/* Write the profile now and disable later writes.  Return as
   __llvm_profile_write_file.  */

LP_WEAK_HIDDEN int
__llvm_profile_dump (void)
{
  int rc = __llvm_profile_write_file ();
  lp_state.dumped = 1;
  return rc;
}

/* Zero the counters; writing is enabled again, as in compiler-rt.  */

LP_WEAK_HIDDEN void
__llvm_profile_reset_counters (void)
{
  lp_reset_counters ();
  lp_continuous_reset ();
  lp_state.dumped = 0;
}

/* Use PATTERN as the file name pattern, overriding every other
   source.  */

LP_WEAK_HIDDEN void
__llvm_profile_set_filename (const char *pattern)
{
  int saved = errno;
  lp_init ();
  if (!lp_state.inert)
    {
      lp_set_filename (pattern, LP_NAME_API, "__llvm_profile_set_filename");
      lp_continuous_start ();
    }
  errno = saved;
}

/* Read the build-time and environment file names again.  */

LP_WEAK_HIDDEN void
__llvm_profile_initialize_file (void)
{
  int saved = errno;
  lp_init ();
  if (!lp_state.inert)
    {
      lp_file_init ();
      lp_continuous_start ();
    }
  errno = saved;
}

/* The exit write is registered by the constructor; make sure it ran.  */

LP_WEAK_HIDDEN int
__llvm_profile_register_write_file_atexit (void)
{
  int saved = errno;
  lp_init ();
  errno = saved;
  return 0;
}
