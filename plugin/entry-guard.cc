/* entry-guard.cc: a block run only when a condition holds, split off
   the entry of a function: the per-thread counters (shard.cc) and the
   first-run counter (values.cc) each test something once per call.  */

#include "gcc-common.h"
#include "entry-guard.h"

/* Split a guarded block off the entry of the current function:
     COND (the caller ends it with a GIMPLE_COND) -> true: THEN_BB
     (unlikely) -> JOIN;  false: COND -> JOIN (*SKIP).
   JOIN dominates every original block and has no PHIs; the caller
   may add some.  */

void
lp_entry_guard (basic_block *cond, basic_block *then_bb, basic_block *join,
		edge *skip)
{
  basic_block entry = ENTRY_BLOCK_PTR_FOR_FN (cfun);
  basic_block c = split_edge (single_succ_edge (entry));
  basic_block t = split_edge (single_succ_edge (c));
  basic_block j = split_edge (single_succ_edge (t));
  edge to_then = single_succ_edge (c);
  to_then->flags = EDGE_TRUE_VALUE;
  to_then->probability = profile_probability::very_unlikely ();
  edge e = make_edge (c, j, EDGE_FALSE_VALUE);
  e->probability = to_then->probability.invert ();
  t->count = c->count.apply_probability (to_then->probability);
  *cond = c;
  *then_bb = t;
  *join = j;
  *skip = e;
}
