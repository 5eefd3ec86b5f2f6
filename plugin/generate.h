/* generate.h: generate mode (generate.cc).  */

#ifndef LATEPGO_GENERATE_H
#define LATEPGO_GENERATE_H

#include "cfg-graph.h"

extern void lp_generate_function (cgraph_node *, lp_graph *, const char *);
extern void lp_generate_finish (void);
extern const struct ggc_root_tab lp_generate_roots[];

#endif /* LATEPGO_GENERATE_H */
