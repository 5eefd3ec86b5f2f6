/* sample-use.h: sample-use mode (sample-use.cc).  */

#ifndef LATEPGO_SAMPLE_USE_H
#define LATEPGO_SAMPLE_USE_H

#include "cfg-graph.h"

extern void lp_sample_use_function (cgraph_node *, lp_graph *, const char *);

#endif /* LATEPGO_SAMPLE_USE_H */
