/* coverage.h: the coverage modes, coverage=function and coverage=block
   (coverage.cc: generate; coverage-use.cc: use).  */

#ifndef LATEPGO_COVERAGE_H
#define LATEPGO_COVERAGE_H

#include "cfg-graph.h"

extern tree lp_coverage_function (cgraph_node *, lp_graph *, const char *,
				  int *, unsigned HOST_WIDE_INT *);
extern int lp_coverage_block_bytes (int *);
extern unsigned HOST_WIDE_INT lp_coverage_block_hash (const lp_graph *, int);

/* What a coverage profile says of a function (coverage-use.cc).  */
enum lp_coverage_verdict
{
  LP_COVERAGE_MISSING,		/* No record of its name.  */
  LP_COVERAGE_STALE,		/* Records, none for its CFG.  */
  LP_COVERAGE_NEVER_RUN,
  LP_COVERAGE_RAN
};

extern bool lp_coverage_profile_p (void);
extern bool lp_coverage_profile_file_p (const char *);
extern lp_coverage_verdict lp_coverage_use_function (lp_graph *,
						     const char *);

#endif /* LATEPGO_COVERAGE_H */
