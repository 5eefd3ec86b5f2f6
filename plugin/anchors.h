/* anchors.h: the CFG anchors of a function's blocks (anchors.cc).  */

#ifndef LATEPGO_ANCHORS_PLUGIN_H
#define LATEPGO_ANCHORS_PLUGIN_H

#include "cfg-graph.h"

/* What identifies a block across edits of its function's source
   (format/anchors.h has the meaning of each field).  */
struct lp_block_anchor
{
  int line;
  unsigned loop_depth;
  unsigned HOST_WIDE_INT shape, calls;
};

extern void lp_block_anchors (const lp_graph *, vec<lp_block_anchor> *);
extern void lp_anchors_record (const lp_graph *, const char *);
extern void lp_anchors_finish (void);

#endif /* LATEPGO_ANCHORS_PLUGIN_H */
