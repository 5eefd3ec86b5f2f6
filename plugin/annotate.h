/* annotate.h: solved counts into the CFG (annotate.cc).  */

#ifndef LATEPGO_ANNOTATE_H
#define LATEPGO_ANNOTATE_H

#include "cfg-graph.h"

extern void lp_annotate_counts (lp_graph *, gcov_type *, FILE *, bool,
				const bool *, const bool *);
extern void lp_dump_line_counts (FILE *);

#endif /* LATEPGO_ANNOTATE_H */
