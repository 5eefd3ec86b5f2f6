/* sample-inline.h: hot calling contexts inlined before GCC's IPA
   inliner (sample-inline.cc).  */

#ifndef LATEPGO_SAMPLE_INLINE_H
#define LATEPGO_SAMPLE_INLINE_H

/* Inline, into every annotated function of *ANNOTATED, the calls whose
   calling context the sample profile says to inline; functions that
   are gone afterwards (inlined at all their calls) leave *ANNOTATED.  */
void lp_sample_inline_contexts (vec<cgraph_node *> *annotated);

#endif
