/* values.h: value profiles (values.cc).  */

#ifndef LATEPGO_VALUES_H
#define LATEPGO_VALUES_H

#include "cfg-graph.h"
#include "profile-read.h"
#include "sample-read.h"

extern tree lp_instrument_values (cgraph_node *, lp_graph *);
extern bool lp_indirect_target_p (cgraph_node *);
extern void lp_inline_icall_targets (void);
extern void lp_memop_count_branches (void);
extern void lp_instrument_first_run (lp_graph *, tree);
extern void lp_annotate_values (lp_graph *, const lp_profile_record *,
				const int *, FILE *);
extern unsigned HOST_WIDE_INT lp_value_site_key (const lp_value_site *);
extern void lp_annotate_first_run (const lp_profile_record *,
				   cgraph_node *, FILE *);
extern void lp_inherit_first_run (void);
extern const struct ggc_root_tab lp_values_roots[];

extern void lp_values_begin (void);
extern int lp_annotate_sampled_icall (gimple *, const lp_call_target *,
				      unsigned, FILE *);
extern bool lp_annotate_sampled_memop (gimple *, const lp_size_count *,
				       unsigned, FILE *);
extern void lp_run_memop_transforms (void);
extern cgraph_node *lp_known_function (const char *);
extern void lp_values_end (void);
extern void lp_sites_before_cmp (const lp_graph *, vec<int> *);

/* After the last function of a lean build: warn if indirect calls were
   left unprofiled.  */
extern void lp_values_lean_warning (void);

#endif /* LATEPGO_VALUES_H */
