/* stale-contexts.cc: warn about the calling contexts of a sample
   profile that name a call site a function of this unit does not
   have.

   A context "[main:2 @ foo:8 @ bar]" says where the samples of bar
   were taken: from main's call probe 2 through foo's call probe 8.
   sample-use finds a context by the inline path of an inlined copy
   (sample-context.cc, sample-inline.cc), so a context whose call site
   is no call probe of its caller here is never used, silently: the
   profile is of another program, or of an older version of this
   function, whose probes were numbered differently.  Only the caller
   frames can be checked, and only for the functions compiled here:
   the leaf (bar) being in another unit, or in no unit of this program
   at all, is normal and says nothing.  A caller whose flat profile has
   another checksum is already reported as stale (use.cc), so it is
   left alone.  One warning per function, naming one such context and
   how many there are.  */

#include "gcc-common.h"
#include "stale-contexts.h"
#include "sample-read.h"
#include "warning-options.h"

/* The function DECL, named NAME in the profile, has call probes
   FIRST_CALL .. FIRST_CALL + N_CALLS - 1 (probes.cc numbers the block
   probes first).  */

void
lp_check_context_sites (tree decl, const char *name, int first_call,
			int n_calls)
{
  const vec<lp_context_site> *sites = lp_samples_context_sites (name);
  if (!sites || lp_warning_turned_off_p (LP_WARN_STALE_CONTEXT))
    return;
  int n_contexts = 0;
  const lp_context_site *first = NULL;
  for (const lp_context_site &s : *sites)
    if (s.site < first_call || s.site >= first_call + n_calls)
      {
	n_contexts += s.n_contexts;
	if (!first)
	  first = &s;
      }
  if (!first)
    return;
  warning_at (DECL_SOURCE_LOCATION (decl),
	      lp_warning_option (LP_WARN_STALE_CONTEXT),
	      n_contexts == 1
	      ? G_("latepgo: %d calling context of the sample profile names "
		   "a call site of %qs that it lacks, as in %qs: not used "
		   "(a profile of another program, or of another version of "
		   "%qs?)")
	      : G_("latepgo: %d calling contexts of the sample profile name "
		   "call sites of %qs that it lacks, as in %qs: not used "
		   "(a profile of another program, or of another version of "
		   "%qs?)"),
	      n_contexts, name, first->context, name);
}
