/* warning-options.cc: the -W options of latepgo's own warnings.

   latepgo's warnings about a stale or missing profile carry GCC's own
   -Wcoverage-mismatch and -Wmissing-profile.  Its other warnings have
   no GCC option: a stock GCC 12 gives a plugin no way to add one, so
   they are plain warnings that only -w silences, and that -Werror
   makes errors with no way to exempt them.

   gcc-patches/0001-plugin-warning-options.patch adds
   plugin_register_warning_option to GCC (plugin.h defines
   GCC_PLUGIN_HAVE_WARNING_OPTIONS).  Built against such headers, the
   plugin registers one option per warning, so users control them as
   GCC's own: -Wno-latepgo-report, -Werror=latepgo-no-mode,
   -Wno-error=..., #pragma GCC diagnostic, and the diagnostic ends in
   "[-Wlatepgo-...]".  Built against stock headers, it gives the same
   warnings without options.  (A plugin only ever loads into the GCC
   whose headers it was built against: plugin_init checks.)  */

#include "gcc-common.h"
#include "toplev.h"
#include "warning-options.h"

/* Weak, so that a plugin built for a patched GCC and loaded into
   another one gets as far as plugin_init's check, which says why it
   cannot run there, instead of failing to load on this symbol.  */
#ifdef GCC_PLUGIN_HAVE_WARNING_OPTIONS
#pragma weak plugin_register_warning_option
#endif

/* Name (without "-W") and help of each option, in enum lp_warning's
   order.  All are on by default, as the warnings were before.  */
static const struct
{
  const char *name;
  const char *help;
} warning_table[LP_WARN_COUNT] = {
  { "latepgo-no-mode", "the plugin was loaded without a mode" },
  { "latepgo-report", "the report file cannot be written" },
  { "latepgo-empty-profile", "a sample profile has no functions" },
  { "latepgo-lean-icall", "a lean build leaves indirect calls unprofiled" },
  { "latepgo-lean-memop", "a lean build leaves memop sizes unprofiled" },
  { "latepgo-ccache", "ccache cannot see the profile of a use build" },
  { "latepgo-stale-context",
    "a sample profile's calling context names a call site a function lacks" },
};

/* The option index of each warning; 0 (no option) on a stock GCC.  */
static int warning_index[LP_WARN_COUNT];

/* Register the options with GCC when it can take them.  False after an
   error (GCC has reported it).  */

bool
lp_register_warning_options (const char *plugin_name)
{
#ifdef GCC_PLUGIN_HAVE_WARNING_OPTIONS
  for (int i = 0; i < LP_WARN_COUNT; i++)
    {
      warning_index[i]
	= plugin_register_warning_option (plugin_name, warning_table[i].name,
					  true, warning_table[i].help);
      if (!warning_index[i])
	return false;
    }
#else
  (void) plugin_name;
  (void) warning_table;
#endif
  return true;
}

/* The option to pass to warning () for W.  */

int
lp_warning_option (enum lp_warning w)
{
  return warning_index[w];
}

/* Whether the command line turns W off where GCC cannot: on a stock
   GCC, -Wno-NAME of an option GCC does not know reaches cc1, which
   ignores it (and only mentions it when another diagnostic is given),
   so the plugin reads it itself.  The last of -Wno-NAME and -WNAME
   wins (the driver rejects -WNAME, but cc1 run directly takes it).
   With a patched GCC the option is GCC's, and warning () decides.  */

bool
lp_warning_turned_off_p (enum lp_warning w)
{
  if (warning_index[w])
    return false;
  bool off = false;
  const char *name = warning_table[w].name;
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const char *text = save_decoded_options[i].orig_option_with_args_text;
      if (!text || strncmp (text, "-W", 2) != 0)
	continue;
      if (strncmp (text + 2, "no-", 3) == 0 && strcmp (text + 5, name) == 0)
	off = true;
      else if (strcmp (text + 2, name) == 0)
	off = false;
    }
  return off;
}
