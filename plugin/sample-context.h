/* sample-context.h: inlined copies annotated with their calling
   context's counts (sample-context.cc).  */

#ifndef LATEPGO_SAMPLE_CONTEXT_H
#define LATEPGO_SAMPLE_CONTEXT_H

/* Register, for the plugin NAME, the pass that runs after GCC applied
   its IPA inlining decisions, in a sample-use build.  */
void lp_sample_context_register (const char *name);

#endif
