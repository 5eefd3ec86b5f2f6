/* warning-options.h: the -W options of latepgo's own warnings
   (warning-options.cc).  */

#ifndef LATEPGO_WARNING_OPTIONS_H
#define LATEPGO_WARNING_OPTIONS_H

/* latepgo's warnings that no GCC option covers.  */
enum lp_warning
{
  LP_WARN_NO_MODE,		/* -Wlatepgo-no-mode */
  LP_WARN_REPORT,		/* -Wlatepgo-report */
  LP_WARN_EMPTY_PROFILE,	/* -Wlatepgo-empty-profile */
  LP_WARN_LEAN_ICALL,		/* -Wlatepgo-lean-icall */
  LP_WARN_LEAN_MEMOP,		/* -Wlatepgo-lean-memop */
  LP_WARN_CCACHE,		/* -Wlatepgo-ccache */
  LP_WARN_STALE_CONTEXT,	/* -Wlatepgo-stale-context */
  LP_WARN_COUNT
};

extern bool lp_register_warning_options (const char *);
extern int lp_warning_option (enum lp_warning);
extern bool lp_warning_turned_off_p (enum lp_warning);

#endif /* LATEPGO_WARNING_OPTIONS_H */
