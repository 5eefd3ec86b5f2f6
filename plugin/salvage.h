/* salvage.h: counts for a function whose profile is stale
   (salvage.cc).  */

#ifndef LATEPGO_SALVAGE_H
#define LATEPGO_SALVAGE_H

#include "cfg-graph.h"
#include "profile-read.h"

/* What salvaging a function found.  */
struct lp_salvage_result
{
  bool ok;			/* COUNT holds a flow for the new CFG.  */
  bool never_run;		/* The old version never ran.  */
  bool no_anchors;		/* The anchors file lacks the function.  */
  int matched, old_blocks, new_blocks;
  double placed;		/* Share of the old count matched.  */
  const lp_profile_record *rec;	/* The old version's record.  */
};

extern void lp_salvage_function (lp_graph *, const char *,
				 const vec<lp_profile_record> *,
				 gcov_type *, bool *, vec<int> *,
				 lp_salvage_result *);
extern const char *lp_salvage_anchors_path (void);

#endif /* LATEPGO_SALVAGE_H */
