/* use.h: use mode (use.cc).  */

#ifndef LATEPGO_USE_H
#define LATEPGO_USE_H

#include "cfg-graph.h"

extern void lp_use_begin (void);
extern void lp_use_function (cgraph_node *, lp_graph *, const char *);
extern bool lp_use_profile_fits_p (cgraph_node *, const lp_graph *,
				   const char *);
extern void lp_use_finish (void);
extern void lp_use_set_fdo_flags (void);
extern void lp_use_annotate_sampled (cgraph_node *, lp_graph *, gcov_type *,
				     const bool *, const bool *);
extern void lp_use_mismatch (tree, bool);
extern void lp_use_missing (void);

#endif /* LATEPGO_USE_H */
