/* tail-icall.cc: an indirect call in tail position whose other targets
   are hot is not made speculative (use mode).

   From an indirect call's histogram (values.cc) GCC's ipa-profile
   makes the call speculative when one target takes at least half of
   the calls: a compare of the callee with that target's address and a
   direct call, the indirect call left as the fallback.  On x86-64 the
   check is three instructions (lea of the target, cmp, jne) run on
   every call.  The speculation pays only when the inliner then inlines
   the target (GCC drops it otherwise, ipa-inline.cc:
   speculation_useful_p), and hot-inline.cc's larger limit lets most
   hot targets in.

   A call in tail position is a jump: the target's own return goes back
   to the caller's caller.  Inlining the target there saves the jump
   alone (its return becomes the caller's), not the call and return
   (and the saves and moves around them) that inlining saves elsewhere,
   while the fallback calls pay the check and gain nothing.  So when
   the other targets run a hot number of times (the profile's hot
   count, profile-read.h), their checks cost more than the promoted
   calls save, and GCC is not told the targets.  A call with one target
   in practice keeps them: inlining that target into a tail position
   measured a gain (json's output adapters, below).

   Measured (callgrind, the bench's small inputs, quick mode's training
   profiles; doc/hot-inline.md section 6): SQLite's btreeParseCell, a
   static wrapper ending in pPage->xParseCell (...), calls
   btreeParseCellPtr 81% and btreeParseCellPtrIndex 19% of the times
   (587,993 calls against a hot count of 15,874): 114.40M instructions
   with the speculation, 114.03M without.  The whole difference is in
   getCellInfo, where the wrapper is inlined in tail position (inclusive
   6.50M to 6.13M; GCC had inlined btreeParseCellPtr behind the check).
   json, zlib and stl: the same objects byte for byte.  Tried and not
   kept: leaving out every tail-position call whatever its other
   targets, json 258.11M to 258.12M (its output adapters' calls, one
   target); every call whose other targets are hot, tail position or
   not, SQLite 116.03M (the record and sorter comparators are no longer
   inlined into their loops); only calls whose most called target takes
   at least 90%, SQLite 115.27M.

   Tail position is taken as GCC's tail-call pass would see it on the
   function as annotated: the statements after the call in its block,
   and in the blocks it falls through to, are a return of the call's
   value or of nothing.  A value that reaches the return through a PHI
   or a conversion is not followed; such a call keeps its speculation,
   as before.  */

#include "gcc-common.h"
#include "tail-icall.h"
#include "profile-read.h"

/* Blocks of nothing but debug statements and labels followed from the
   call's block: GCC's CFG leaves a few between a call and the shared
   return block.  */
#define MAX_FALLTHROUGH_BLOCKS 4

/* Whether CALL is followed by nothing but the return of its value.  */

static bool
tail_position_p (gimple *call)
{
  tree lhs = gimple_call_lhs (call);
  basic_block bb = gimple_bb (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_next_nondebug (&gsi);
  for (int hop = 0; hop <= MAX_FALLTHROUGH_BLOCKS; hop++)
    {
      while (!gsi_end_p (gsi) && gimple_code (gsi_stmt (gsi)) == GIMPLE_LABEL)
	gsi_next_nondebug (&gsi);
      if (!gsi_end_p (gsi))
	{
	  greturn *ret = dyn_cast <greturn *> (gsi_stmt (gsi));
	  if (!ret)
	    return false;
	  tree value = gimple_return_retval (ret);
	  return !value || value == lhs;
	}
      if (!single_succ_p (bb))
	return false;
      bb = single_succ (bb);
      if (bb == EXIT_BLOCK_PTR_FOR_FN (cfun))
	return true;
      if (lhs && !gimple_seq_empty_p (phi_nodes (bb)))
	return false;
      gsi = gsi_start_nondebug_bb (bb);
    }
  return false;
}

bool
lp_tail_icall_unpromoted_p (gimple *call, gcov_type all, gcov_type top)
{
  gcov_type hot = lp_summary.hot_count;
  return hot && all - top >= hot && tail_position_p (call);
}
