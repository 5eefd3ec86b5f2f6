/* tail-icall.h: indirect calls in tail position whose other targets
   are hot, kept from speculation (tail-icall.cc).  */

#ifndef LATEPGO_TAIL_ICALL_H
#define LATEPGO_TAIL_ICALL_H

/* Whether the indirect call CALL, whose block runs ALL times and whose
   most called target takes TOP of them (counts of the annotated
   profile), is in tail position and calls its other targets a hot
   number of times: then GCC is not told its targets (tail-icall.cc).  */
bool lp_tail_icall_unpromoted_p (gimple *call, gcov_type all, gcov_type top);

#endif
