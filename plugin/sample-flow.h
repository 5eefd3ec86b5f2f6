/* sample-flow.h: count inference from samples (sample-flow.cc).  */

#ifndef LATEPGO_SAMPLE_FLOW_H
#define LATEPGO_SAMPLE_FLOW_H

#include "cfg-graph.h"

extern void lp_infer_flow (lp_graph *, const gcov_type *, const int *,
			   const gcov_type *, gcov_type *);

#endif /* LATEPGO_SAMPLE_FLOW_H */
