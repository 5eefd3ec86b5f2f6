/* stale-contexts.h: calling contexts of a sample profile that name
   call sites a function of this unit lacks (stale-contexts.cc).  */

#ifndef LATEPGO_STALE_CONTEXTS_H
#define LATEPGO_STALE_CONTEXTS_H

extern void lp_check_context_sites (tree, const char *, int, int);

#endif
