/* cfg-graph.cc: the instrumentation graph of one function, its
   spanning tree and its checksum.  Generate and use mode both call
   lp_build_graph on the same CFG and must get the same answer.

   The graph is GCC's CFG made countable the way profile.cc:branch_prob
   does it, minus the call splitting:
     1. Blocks without successors (noreturn calls, unreachable) get a
	fake edge to EXIT.
     2. Abnormal edges (setjmp receivers, computed and nonlocal goto)
	cannot carry code; they are ignored and replaced by a fake edge
	from their source to EXIT and one from ENTRY to their destination,
	which keeps every other edge's count exact.
     3. Unless no-exact-calls, every statement that may leave the
	function other than by returning (may-leave.cc: a call to exit,
	longjmp, a throw, ...) ends its block and gets a fake edge to
	EXIT, as GCC's flow_call_edges_add does, so counts stay exact
	when the program ends or unwinds inside a call, at the price of
	one more counter per such statement.
     4. Blocks are renumbered densely; the checksum depends on it.
   A virtual EXIT->ENTRY edge closes the flow.  Flow conservation then
   determines every edge count from the counts of the edges off a
   spanning tree, so only those get counters: E - V + 1 of them, with E
   counting the virtual edge.  The tree is a maximum-cost spanning tree
   (Kruskal), so the edges left to count are the cheap ones: cost is the
   estimated execution frequency from GCC's static profile, doubled for
   critical edges, whose counter needs a new block and a jump.  Fake
   edges cannot carry code and go on the tree first.  */

#include "gcc-common.h"
#include "cfg-graph.h"
#include "may-leave.h"
#include "names.h"
#include "../libprof/latepgo-abi.h"

/* Union-find over block indices.  */

static int
uf_find (int *parent, int x)
{
  while (parent[x] != x)
    {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
  return x;
}

/* Join the sets of A and B; return false if they were already one.  */

static bool
uf_union (int *parent, int a, int b)
{
  a = uf_find (parent, a);
  b = uf_find (parent, b);
  if (a == b)
    return false;
  parent[a] = b;
  return true;
}

/* Step 3: end the block after every statement that may leave the
   function (may-leave.cc) and give it a fake edge to EXIT, as GCC's
   flow_call_edges_add does with its own rule.  Blocks are scanned from
   their end, so the part before a split stays in BB and is scanned on;
   the new blocks are past LAST and are not scanned again.  */

static void
split_after_leaving_stmts (void)
{
  basic_block exit = EXIT_BLOCK_PTR_FOR_FN (cfun);
  int last = last_basic_block_for_fn (cfun);

  for (int i = 0; i < last; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
      if (!bb || bb == exit || bb == ENTRY_BLOCK_PTR_FOR_FN (cfun))
	continue;
      gimple_stmt_iterator gsi = gsi_last_nondebug_bb (bb);
      if (gsi_end_p (gsi))
	continue;
      gimple *last_stmt = gsi_stmt (gsi);
      for (; !gsi_end_p (gsi); gsi_prev (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (is_gimple_debug (stmt) || !lp_stmt_may_leave_p (stmt))
	    continue;
	  if (stmt != last_stmt)
	    split_block (bb, stmt);
	  else if (edge e = find_edge (bb, exit))
	    /* make_edge would turn the real edge into the fake one:
	       give the real one a block of its own.  */
	    split_edge (e);
	  make_edge (bb, exit, EDGE_FAKE)->probability
	    = profile_probability::guessed_never ();
	}
    }
}

/* Add the fake edges of steps 1-3 above, as branch_prob does.  */

static void
add_fake_edges (bool exact_calls)
{
  basic_block bb;

  if (exact_calls)
    split_after_leaving_stmts ();
  add_noreturn_fake_exit_edges ();

  FOR_EACH_BB_FN (bb, cfun)
    {
      bool need_exit = false, need_entry = false;
      bool have_exit = false, have_entry = false;
      edge e;
      edge_iterator ei;

      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  if ((e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL))
	      && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun))
	    need_exit = true;
	  if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun))
	    have_exit = true;
	}
      /* The mirror image for the entry side: preds, src, ENTRY.  */
      FOR_EACH_EDGE (e, ei, bb->preds)
	{
	  if ((e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL))
	      && e->src != ENTRY_BLOCK_PTR_FOR_FN (cfun))
	    need_entry = true;
	  if (e->src == ENTRY_BLOCK_PTR_FOR_FN (cfun))
	    have_entry = true;
	}

      if (need_exit && !have_exit)
	make_edge (bb, EXIT_BLOCK_PTR_FOR_FN (cfun), EDGE_FAKE);
      if (need_entry && !have_entry)
	{
	  make_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun), bb, EDGE_FAKE);
	  /* A block with both a fake entry edge and an exit edge would
	     put a cycle of uncountable edges through ENTRY/EXIT; split it
	     after its labels, unless it starts with something nothing may
	     precede (as branch_prob).  */
	  if (have_exit || need_exit)
	    {
	      gimple_stmt_iterator gsi
		= gsi_start_nondebug_after_labels_bb (bb);
	      if (gsi_end_p (gsi))
		continue;
	      gimple *first = gsi_stmt (gsi);
	      if (is_gimple_call (first)
		  && (gimple_call_builtin_p (first, BUILT_IN_SETJMP_RECEIVER)
		      || (gimple_call_flags (first) & ECF_RETURNS_TWICE)
		      || (gimple_call_internal_p (first)
			  && (gimple_call_internal_fn (first)
			      == IFN_ABNORMAL_DISPATCHER))))
		continue;
	      split_block_after_labels (bb);
	    }
	}
    }
}

/* The estimated cost of counting E: how often it runs relative to the
   function entry, times 2 if a counter there needs a block of its own.
   Without a static profile (-O0) every edge runs once per loop level.  */

static double
edge_cost (edge e, bool critical)
{
  double freq = 1.0;
  profile_count entry = ENTRY_BLOCK_PTR_FOR_FN (cfun)->count;
  profile_count count = e->count ();

  if (entry.initialized_p () && entry.nonzero_p () && count.initialized_p ())
    freq = count.to_sreal_scale (entry).to_double ();
  else if (current_loops && e->src->loop_father)
    {
      int depth = MIN (bb_loop_depth (e->src), 6);
      for (int i = 0; i < depth; i++)
	freq *= 10.0;
    }
  return critical ? 2.0 * freq + 1e-9 : freq;
}

/* qsort order of pointers to edges of one graph: by descending cost,
   ties by position in the graph, so that the order is total and the
   same in every build.  */

int
lp_compare_cost_desc (const void *pa, const void *pb)
{
  const lp_edge *a = *(const lp_edge *const *) pa;
  const lp_edge *b = *(const lp_edge *const *) pb;
  if (a->cost != b->cost)
    return a->cost > b->cost ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/* Build G for the current function: fake edges, edge list, spanning
   tree, counter numbering and checksum.  The CFG keeps its fake edges
   until lp_release_graph.  */

void
lp_build_graph (lp_graph *g, bool exact_calls, bool values)
{
  basic_block bb;
  int i;
  lp_edge *le;

  add_fake_edges (exact_calls);
  compact_blocks ();

  g->n_blocks = n_basic_blocks_for_fn (cfun);
  g->n_fake = 1;
  g->n_tree = 0;
  g->n_counters = 0;
  g->n_ignored = 0;
  g->n_promoted = 0;
  g->edges.truncate (0);

  /* The virtual EXIT->ENTRY edge first, then all CFG edges in block
     order.  */
  lp_edge virt = {};
  virt.src = EXIT_BLOCK;
  virt.dst = ENTRY_BLOCK;
  virt.fake = 1;
  virt.counter = -1;
  g->edges.safe_push (virt);

  FOR_ALL_BB_FN (bb, cfun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  lp_edge x = {};
	  x.e = e;
	  x.src = e->src->index;
	  x.dst = e->dest->index;
	  x.counter = -1;
	  /* Abnormal edges were replaced by fake ones above; those from
	     ENTRY or into EXIT stay, uncountable like fake edges.  */
	  x.ignore = ((e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL))
		      && e->src != ENTRY_BLOCK_PTR_FOR_FN (cfun)
		      && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun));
	  x.fake = !x.ignore && (e->flags & (EDGE_FAKE | EDGE_ABNORMAL
					     | EDGE_ABNORMAL_CALL)) != 0;
	  x.critical = EDGE_CRITICAL_P (e);
	  x.cost = x.fake || x.ignore ? 0 : edge_cost (e, x.critical);
	  if (x.fake)
	    g->n_fake++;
	  g->edges.safe_push (x);
	}
    }

  /* Kruskal: the virtual edge, then fake edges, then the rest by
     descending cost.  */
  int *parent = XNEWVEC (int, g->n_blocks);
  for (i = 0; i < g->n_blocks; i++)
    parent[i] = i;

  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (le->fake && !le->ignore && uf_union (parent, le->src, le->dst))
      le->on_tree = 1;

  auto_vec<lp_edge *> order;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (!le->fake && !le->ignore)
      order.safe_push (le);
  order.qsort (lp_compare_cost_desc);
  FOR_EACH_VEC_ELT (order, i, le)
    if (uf_union (parent, le->src, le->dst))
      le->on_tree = 1;
  XDELETEVEC (parent);

  /* Number the counters in edge order.  A fake edge off the tree
     closes a cycle of uncountable edges: it is ignored, as in GCC.  */
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      if (le->on_tree)
	g->n_tree++;
      else if (le->ignore)
	g->n_ignored++;
      else if (le->fake)
	{
	  le->ignore = 1;
	  g->n_ignored++;
	}
      else
	le->counter = g->n_counters++;
    }

  /* The checksum covers the block count, every edge with its kind, and
     which edges carry counters: a profile is only applied to the same
     graph with the same tree.  MD5 of a little-endian word stream, low
     60 bits (LLVM reserves the top 4), never 0.  */
  auto_vec<unsigned char> bytes;
  auto push_word = [&bytes] (unsigned HOST_WIDE_INT w)
    {
      for (int k = 0; k < 4; k++)
	bytes.safe_push ((unsigned char) (w >> (8 * k)));
    };
  push_word (g->n_blocks);
  push_word (g->edges.length ());
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      push_word (le->src);
      push_word (le->dst);
      push_word ((le->fake ? 1 : 0) | (le->ignore ? 2 : 0)
		 | (le->counter >= 0 ? 4 : 0));
    }
  g->checksum_plain = lp_md5_low64 (bytes.address (), bytes.length ())
		      & LATEPGO_HASH_MASK;
  if (g->checksum_plain == 0)
    g->checksum_plain = 1;

  /* With value counters, the checksum also covers the value sites,
     which decide the counter layout.  */
  lp_find_value_sites (&g->value_sites, &g->n_icall_sites,
		       &g->n_memop_sites, &g->n_cmp_sites);
  g->values = values;
  g->first_run = (g->n_blocks >= LP_FIRST_RUN_MIN_BLOCKS
		  && !DECL_DECLARED_INLINE_P (current_function_decl)
		  && !DECL_COMDAT (current_function_decl));
  g->checksum = g->checksum_plain;
  g->checksum_memop_counters = 0;
  g->checksum_before_cmp = 0;
  if (g->values)
    {
      /* The tag tells merges that the last counter is the first-run
	 time (latepgo-abi.h).  */
      auto tagged = [&bytes, g] (bool memop_counters, bool before_cmp)
	{
	  auto_vec<unsigned char> all;
	  all.safe_splice (bytes);
	  lp_checksum_value_sites (g->value_sites, g->n_cmp_sites, &all,
				   memop_counters, before_cmp);
	  return ((lp_md5_low64 (all.address (), all.length ())
		   & LATEPGO_HASH_MASK & ~LATEPGO_FIRST_RUN_TAG_MASK)
		  | LATEPGO_FIRST_RUN_TAG);
	};
      g->checksum = tagged (false, false);
      if (g->n_memop_sites > g->n_cmp_sites)
	g->checksum_memop_counters = tagged (true, true);
      if (g->n_cmp_sites)
	g->checksum_before_cmp = tagged (false, true);
    }
}

/* Solve the counts of the tree edges of G from COUNT (set for the
   counter edges) by flow conservation: a block with a single unknown
   incident edge determines it; the tree has no cycles, so peeling
   leaves solves every edge.  Returns the number of negative solutions
   clamped to 0 (racy counters in threaded training runs).  */

int
lp_solve_flow (lp_graph *g, gcov_type *count)
{
  int n = g->n_blocks;
  auto_vec<int> unknown;	/* Unsolved tree edges per block.  */
  auto_vec<gcov_type> net;	/* Known in minus known out.  */
  unknown.safe_grow_cleared (n);
  net.safe_grow_cleared (n);
  unsigned i;
  lp_edge *le;
  int clamped = 0;

  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      if (le->ignore)
	continue;
      if (le->on_tree)
	{
	  unknown[le->src]++;
	  unknown[le->dst]++;
	}
      else
	{
	  net[le->dst] += count[i];
	  net[le->src] -= count[i];
	}
    }

  /* Repeat until no block has a single unknown edge.  Quadratic in the
     worst case but linear for ordinary trees; graphs are small.  */
  auto_vec<bool> solved;
  solved.safe_grow_cleared (g->edges.length ());
  bool progress = true;
  while (progress)
    {
      progress = false;
      FOR_EACH_VEC_ELT (g->edges, i, le)
	{
	  if (!le->on_tree || solved[i])
	    continue;
	  gcov_type c;
	  if (unknown[le->src] == 1)
	    /* The rest of SRC's flow is known: its inflow minus outflow
	       leaves through this edge.  */
	    c = net[le->src];
	  else if (unknown[le->dst] == 1)
	    c = -net[le->dst];
	  else
	    continue;
	  if (c < 0)
	    {
	      clamped++;
	      c = 0;
	    }
	  count[i] = c;
	  solved[i] = true;
	  unknown[le->src]--;
	  unknown[le->dst]--;
	  net[le->src] -= c;
	  net[le->dst] += c;
	  progress = true;
	}
    }
  return clamped;
}

/* After lp_solve_flow: a function whose counters counted but whose
   entry count came out 0 ran and never returned, the program having
   left it where the graph has no fake edge to EXIT (no-exact-calls, a
   signal handler calling exit, a longjmp out of a callee GCC cannot
   see).  No flow reached EXIT, so the virtual EXIT->ENTRY edge, and
   everything solved from it, is 0.  Solve COUNT again with that edge
   known as 1, one run that left without returning: the edges solved
   from ENTRY's side then get their flow, and the counted edges keep
   theirs.  Returns the number of solutions clamped, as lp_solve_flow,
   or -1 if COUNT did not need it.  */

int
lp_solve_flow_unreturned (lp_graph *g, gcov_type *count)
{
  lp_edge *virt = &g->edges[0];
  if (count[0] != 0 || !virt->on_tree)
    return -1;
  bool counted = false;
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (le->counter >= 0 && count[i] > 0)
      counted = true;
  if (!counted)
    return -1;
  virt->on_tree = false;
  count[0] = 1;
  int clamped = lp_solve_flow (g, count);
  virt->on_tree = true;
  return clamped;
}

/* Remove the fake edges again.  Edge pointers of fake edges in G are
   dangling afterwards.  */

void
lp_release_graph (lp_graph *g ATTRIBUTE_UNUSED)
{
  remove_fake_edges ();
}
