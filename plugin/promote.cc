/* promote.cc: counter promotion out of loops (generate mode).

   A counter on an edge inside a loop is incremented on every
   iteration: a load, an add and a store to a global, or a locked add
   with update=atomic.  When the loop is "closed" (nothing in it can
   leave it except its exit edges), the increments can go to a local
   accumulator instead, set to 0 on every edge entering the loop and
   added to the counter once on every edge leaving it.  The counts are
   the same; the memory (or atomic) updates move out of the loop.  The
   accumulator is a local variable whose address is never taken, which
   GCC's optimizers keep in a register.

   A loop is closed when its body has no call that could leave it
   otherwise (exit, longjmp, an exception, a call that never returns):
   no calls at all except GCC's internal functions, non-noreturn
   builtins that cannot throw, and our own value-profile helpers; no
   asm; no abnormal or EH edges; every exit a normal edge.  A counter is
   promoted to the outermost closed loop that contains its edge, so it
   is flushed as rarely as possible.

   A loop takes at most LP_PROMOTIONS_PER_LOOP accumulators, and fewer
   when their flushes (one per accumulator and exit edge) would number
   more than LP_FLUSHES_PER_LOOP: the counters of its hottest edges by
   the spanning tree's cost (lp_compare_cost_desc).  The others go to a
   closed loop inside it that has room, else stay on their edges.
   Every accumulator of a loop is live in all its blocks and added on
   all its exits: without the bounds, a generated scanner (re2c, as in
   cmark's scanners.c) with 433 counters in one loop of 1606 blocks and
   683 exits got 296,000 flushes and as many PHIs, and GCC's SSA and
   RTL passes took over ten minutes on the file instead of seconds.
   LLVM bounds it too (-max-counter-promotions-per-loop=20, and no
   promotion to loops with more than 3 exiting blocks).

   Not covered: an asynchronous signal whose handler ends the process
   (exit, _exit after a manual dump) while a promoted loop runs loses
   that loop's counts since it was entered, as with LLVM's promotion;
   a signal that kills the process loses every count anyway.  */

#include "gcc-common.h"
#include "cfg-graph.h"
#include "promote.h"
#include "arguments.h"
#include "runtime-decls.h"
#include "shard.h"

typedef hash_map<int_hash<int, -1, -2>, bool> closed_loop_cache;

/* Whether call STMT may leave the loop it is in other than by
   returning.  */

static bool
call_may_leave_p (gimple *stmt)
{
  if (gimple_call_internal_p (stmt))
    return false;
  tree fndecl = gimple_call_fndecl (stmt);
  if (!fndecl)
    return true;
  int flags = gimple_call_flags (stmt);
  if (flags & (ECF_NORETURN | ECF_RETURNS_TWICE))
    return true;
  if (lp_runtime_helper_p (fndecl))
    return false;
  return !(gimple_call_builtin_p (stmt, BUILT_IN_NORMAL)
	   && (flags & ECF_NOTHROW) && (flags & ECF_LEAF));
}

/* Whether LOOP is closed (see above).  */

static bool
closed_loop_p (class loop *loop)
{
  basic_block *body = get_loop_body (loop);
  bool closed = true;
  for (unsigned i = 0; closed && i < loop->num_nodes; i++)
    {
      basic_block bb = body[i];
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE
			| EDGE_IRREDUCIBLE_LOOP))
	  closed = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
	   closed && !gsi_end_p (gsi); gsi_next (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (gimple_code (stmt) == GIMPLE_ASM
	      || (is_gimple_call (stmt) && call_may_leave_p (stmt)))
	    closed = false;
	}
    }
  free (body);
  if (closed)
    for (edge e : get_loop_exit_edges (loop))
      if (e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE))
	closed = false;
  return closed;
}

/* The closed loops that contain edge E, outermost first, in LOOPS:
   from the innermost loop around E outwards up to the first loop that
   is not closed (empty if that is the innermost).  CLOSED_CACHE: what
   is known of the loops.  */

static void
promotion_loops (edge e, closed_loop_cache *closed_cache,
		 auto_vec<class loop *> *loops)
{
  loops->truncate (0);
  class loop *l = find_common_loop (e->src->loop_father,
				    e->dest->loop_father);
  for (; l && loop_outer (l); l = loop_outer (l))
    {
      bool existed;
      bool &closed = closed_cache->get_or_insert (l->num, &existed);
      if (!existed)
	closed = closed_loop_p (l);
      if (!closed)
	break;
      loops->safe_push (l);
    }
  loops->reverse ();
}

/* How many counters LOOP may take: LP_PROMOTIONS_PER_LOOP, fewer
   when its exit edges would take more than LP_FLUSHES_PER_LOOP
   flushes.  */

static int
promotion_room (class loop *loop)
{
  unsigned exits = get_loop_exit_edges (loop).length ();
  if (exits == 0)
    return LP_PROMOTIONS_PER_LOOP;
  return MIN (LP_PROMOTIONS_PER_LOOP, LP_FLUSHES_PER_LOOP / exits);
}

/* For each edge of G (index in G->edges), the closed loop its counter
   is promoted to, or NULL: the outermost closed loop around it that
   still has room, hottest counters first (see the top of this file).
   Needs the loop structures (lp_promote_begin).  */

void
lp_plan_promotions (lp_graph *g, vec<class loop *> *plan)
{
  plan->truncate (0);
  plan->safe_grow_cleared (g->edges.length ());
  if (!current_loops)
    return;

  auto_vec<lp_edge *> order;
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (le->counter >= 0)
      order.safe_push (le);
  order.qsort (lp_compare_cost_desc);

  closed_loop_cache closed;
  hash_map<int_hash<int, -1, -2>, int> room;
  auto_vec<class loop *> loops;
  FOR_EACH_VEC_ELT (order, i, le)
    {
      promotion_loops (le->e, &closed, &loops);
      for (class loop *l : loops)
	{
	  bool existed;
	  int &n = room.get_or_insert (l->num, &existed);
	  if (!existed)
	    n = promotion_room (l);
	  if (n > 0)
	    {
	      n--;
	      (*plan)[le - g->edges.address ()] = l;
	      break;
	    }
	}
    }
}

/* The statements of  COUNTERS[IDX] += VALUE  (lp_counter_ref: in the
   thread's shard with update=atomic; a relaxed atomic add with
   update=atomic-add).  IDX is a constant or an SSA name.  */

gimple_seq
lp_counter_add_seq (tree counters, tree idx, tree value)
{
  tree type = long_long_unsigned_type_node;
  tree ref = lp_counter_ref (counters, idx);
  gimple_seq seq = NULL;
  if (latepgo_opts.atomic && !lp_shard_active_p ())
    {
      tree addr = build_fold_addr_expr (ref);
      /* The address of a variable element, or of one at the
	 relocated base, is not a valid call argument: compute it
	 first.  */
      if (!is_gimple_min_invariant (addr))
	{
	  tree a = make_temp_ssa_name (build_pointer_type (type), NULL,
				       "PROF_counter");
	  gimple_seq_add_stmt (&seq, gimple_build_assign (a, addr));
	  addr = a;
	}
      tree f = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      gimple_seq_add_stmt (&seq, gimple_build_call
				   (f, 3, addr, value,
				    build_int_cst (integer_type_node,
						   MEMMODEL_RELAXED)));
      return seq;
    }
  tree t1 = make_temp_ssa_name (type, NULL, "PROF_counter");
  tree t2 = make_temp_ssa_name (type, NULL, "PROF_counter");
  gimple_seq_add_stmt (&seq, gimple_build_assign (t1, ref));
  gimple_seq_add_stmt (&seq, gimple_build_assign (t2, PLUS_EXPR, t1, value));
  gimple_seq_add_stmt (&seq, gimple_build_assign (unshare_expr (ref), t2));
  return seq;
}

/* Queue  COUNTERS[IDX] += VALUE  on edge E.  */

static void
add_to_counter_on_edge (tree counters, int idx, tree value, edge e)
{
  gsi_insert_seq_on_edge (e, lp_counter_add_seq
			       (counters, build_int_cst (integer_type_node, idx),
				value));
}

/* Queue the increment of counter IDX (in COUNTERS) for edge E of the
   current function: promoted to LOOP (lp_plan_promotions) unless it is
   NULL.  Returns whether it was promoted.  The caller commits the edge
   insertions and owns the loop structures (lp_promote_begin/end).  */

bool
lp_queue_counter (tree counters, int idx, edge e, class loop *loop)
{
  tree type = long_long_unsigned_type_node;
  if (!loop)
    {
      add_to_counter_on_edge (counters, idx, build_int_cst (type, 1), e);
      return false;
    }

  /* A local in memory at first (it is assigned on edges in no
     particular order, so not in SSA form); GCC rewrites it into a
     register once it sees its address is never taken.  */
  tree acc = create_tmp_var (type, "PROF_acc");
  TREE_ADDRESSABLE (acc) = 1;

  edge x;
  edge_iterator ei;
  FOR_EACH_EDGE (x, ei, loop->header->preds)
    if (!flow_bb_inside_loop_p (loop, x->src))
      gsi_insert_on_edge (x, gimple_build_assign (acc,
						  build_int_cst (type, 0)));

  tree a1 = make_temp_ssa_name (type, NULL, "PROF_acc");
  tree a2 = make_temp_ssa_name (type, NULL, "PROF_acc");
  gsi_insert_on_edge (e, gimple_build_assign (a1, acc));
  gsi_insert_on_edge (e, gimple_build_assign (a2, PLUS_EXPR, a1,
					      build_int_cst (type, 1)));
  gsi_insert_on_edge (e, gimple_build_assign (acc, a2));

  for (edge exit : get_loop_exit_edges (loop))
    {
      tree v = make_temp_ssa_name (type, NULL, "PROF_acc");
      gsi_insert_on_edge (exit, gimple_build_assign (v, acc));
      add_to_counter_on_edge (counters, idx, v, exit);
    }
  return true;
}

/* Loop structures for the current function, with exits recorded;
   returns whether we built them (and must free them in lp_promote_end).  */

bool
lp_promote_begin (void)
{
  /* Dominators from before the fake edges went away are stale.  */
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  if (!current_loops)
    {
      loop_optimizer_init (AVOID_CFG_MODIFICATIONS);
      return true;
    }
  calculate_dominance_info (CDI_DOMINATORS);
  loops_state_set (LOOPS_NEED_FIXUP);
  fix_loop_structure (NULL);
  return false;
}

void
lp_promote_end (bool own)
{
  if (own)
    loop_optimizer_finalize ();
  free_dominance_info (CDI_DOMINATORS);
}
