/* hot-inline.h: the inlining limit raised for functions that make hot
   calls (hot-inline.cc).  */

#ifndef LATEPGO_HOT_INLINE_H
#define LATEPGO_HOT_INLINE_H

/* Give each function of ANNOTATED that makes a hot call a larger
   max-inline-insns-auto.  Call once the unit's counts are in the call
   graph, before the IPA inliner.  */
void lp_raise_hot_inline_limits (const vec<cgraph_node *> &annotated);

#endif
