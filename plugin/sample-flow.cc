/* sample-flow.cc: consistent edge counts from sampled block counts.

   Sampled block counts are estimates: they disagree with each other
   (inflow != outflow), and blocks whose code was merged away or never
   sampled have none.  As LLVM's profile inference
   (Transforms/Utils/SampleProfileInference.cpp), find the flow (a
   count per edge, conserved at every block, circulating through the
   virtual EXIT->ENTRY edge) that stays closest to the known counts:
   a minimum-cost circulation where a block's count may drop below its
   sample estimate at cost COST_DEC per unit and rise above it at
   COST_INC, every unit of
   flow on an edge costs COST_EDGE, one or two more on edges GCC's
   static estimate finds unlikely (so flow takes short, likely paths
   and does not invent cycles), and blocks without an estimate are
   free.  A block with no samples costs COST_INC_ZERO_PER_INSN per
   instruction of its size to run, up to COST_INC_ZERO_MAX: without
   LBR, samples land on the instructions after long-latency ones
   (skid), and a block of one or two cheap instructions often gets none
   however often it runs, but a block of five or more that got none
   did not run (LLVM's costs assume LBR ranges, where every zero is
   firm).  Without the size, flow routed sqlite's hottest loop through
   three zero-sample blocks of 12 instructions rather than raise the
   4-instruction block that really ran.  The function's first block is cheap to lower
   (COST_DEC_ENTRY) and dear to raise (COST_INC_ENTRY), as in LLVM: a
   callee's first instructions collect the samples of the call's own
   latency (skid, a cold entry's cache misses), and raising the entry
   above its samples would invent calls.

   Network: block B is two nodes, in(B) = 2B and out(B) = 2B + 1, joined
   by its count edges; a CFG edge U->V is out(U)->in(V).  A block with
   estimate W has an edge of capacity W and cost -COST_DEC; it is
   saturated first (negative costs are then only in residual edges),
   which leaves W units of excess at out(B) and W of deficit at in(B).
   Successive shortest paths (Dijkstra with potentials, from a super
   source over the excesses to a super sink over the deficits) then
   route them at minimum cost; undoing a saturated edge costs COST_DEC,
   so a path always exists.

   The last unit of a block's estimate costs COST_DEC_LAST to give up.
   With one linear cost, a function whose entry estimate is below the
   sum of its successors' (the entry is cheap to lower and dear to
   raise) had its smaller sampled arm lowered to zero: every unit cost
   the same, so nothing kept it.  A block with samples ran, so the
   flow now takes its last unit only when nothing else can carry the
   flow, as profi keeps sampled blocks alive.  Measured on the bench's
   sampled profiles (callgrind Ir, two perf sessions, doc/benchmarks.md):
   SQLite 0.9% fewer instructions in one session and the same in the
   other, zlib, json and stl within 0.2%.  Making the lower half of an
   estimate dearer too (40 a unit) gave SQLite 1.1% and 1.9% but stl
   0.5% and 1.0% more: it raised entries over their samples instead.

   Edges may have estimates too (branch directions seen in samples,
   sample-use.cc): such an edge gets a saturated arc of capacity W and
   cost -COST_DEC_EDGE beside its ordinary arc, as a block's estimate,
   and its ordinary arc costs COST_INC_EDGE more but not GCC's guess:
   the observation replaces it.  Both cost more than a block's
   deviation: a direction read from the flags at the jump itself is
   the better evidence of how a branch splits (on sqlite, 0.08 of its
   runs misdirected against 0.15 for the split of the successors'
   samples), while the blocks' samples still set how often it runs.

   Last, components that carry flow but are not reached from ENTRY by
   flow (a loop whose way in has no samples) get one unit along the
   cheapest way in and out, so that GCC never sees a loop that runs
   without being entered.  */

#include "gcc-common.h"
#include "sample-flow.h"
#include "cfg-graph.h"

#define COST_DEC 20
#define COST_DEC_LAST 1000
#define COST_INC 10
#define COST_DEC_ENTRY 10
#define COST_INC_ENTRY 40
#define COST_INC_ZERO_PER_INSN 4
#define COST_INC_ZERO_MAX (2 * COST_INC)
#define COST_EDGE 1
#define COST_DEC_EDGE 30
#define COST_INC_EDGE 30
#define FLOW_INF (INTTYPE_MAXIMUM (gcov_type) / 8)

struct flow_arc
{
  int to;
  gcov_type cap;		/* Residual capacity.  */
  gcov_type cost;
  int rev;			/* Index of the reverse arc in arcs[to].  */
};

struct flow_net
{
  int n;
  vec<flow_arc> *arcs;

  flow_net (int n_nodes) : n (n_nodes)
  {
    arcs = XCNEWVEC (vec<flow_arc>, n);
  }
  ~flow_net ()
  {
    for (int i = 0; i < n; i++)
      arcs[i].release ();
    XDELETEVEC (arcs);
  }
  /* Add an arc FROM->TO (FROM != TO) and its reverse; return its index
     in arcs[FROM].  */
  int add (int from, int to, gcov_type cap, gcov_type cost)
  {
    flow_arc a = { to, cap, cost, (int) arcs[to].length () };
    flow_arc b = { from, 0, -cost, (int) arcs[from].length () };
    arcs[from].safe_push (a);
    arcs[to].safe_push (b);
    return arcs[from].length () - 1;
  }
  void push (int from, int idx, gcov_type amount)
  {
    flow_arc &a = arcs[from][idx];
    a.cap -= amount;
    arcs[a.to][a.rev].cap += amount;
  }
  /* The flow on arc IDX of FROM: its reverse's residual capacity.  */
  gcov_type flow (int from, int idx) const
  {
    const flow_arc &a = arcs[from][idx];
    return arcs[a.to][a.rev].cap;
  }
  /* An estimate W on FROM->TO: an arc of capacity W and cost -DEC,
     saturated at once (so negative costs are only in residual arcs),
     which leaves W units of excess at TO and of deficit at FROM for
     the shortest paths to route.  Returns its index in arcs[FROM].  */
  int add_estimate (int from, int to, gcov_type w, int dec,
		    gcov_type *excess, gcov_type *deficit)
  {
    int k = add (from, to, w, -dec);
    push (from, k, w);
    excess[to] += w;
    deficit[from] += w;
    return k;
  }
};

/* A binary min-heap of (distance, node) for Dijkstra.  */

struct dist_heap
{
  auto_vec<std::pair<gcov_type, int> > h;

  void push (gcov_type d, int v)
  {
    h.safe_push (std::make_pair (d, v));
    for (unsigned i = h.length () - 1; i > 0; )
      {
	unsigned p = (i - 1) / 2;
	if (h[p].first <= h[i].first)
	  break;
	std::swap (h[p], h[i]);
	i = p;
      }
  }
  std::pair<gcov_type, int> pop ()
  {
    std::pair<gcov_type, int> top = h[0];
    h[0] = h.last ();
    h.pop ();
    unsigned n = h.length ();
    for (unsigned i = 0; ; )
      {
	unsigned l = 2 * i + 1, r = l + 1, m = i;
	if (l < n && h[l].first < h[m].first)
	  m = l;
	if (r < n && h[r].first < h[m].first)
	  m = r;
	if (m == i)
	  break;
	std::swap (h[m], h[i]);
	i = m;
      }
    return top;
  }
};

/* Route all of EXCESS/DEFICIT (indexed by node) at minimum cost over
   NET, whose residual arcs all have nonnegative cost.  */

static void
successive_shortest_paths (flow_net *net, gcov_type *excess,
			   gcov_type *deficit)
{
  int n = net->n;
  int src = n - 2, sink = n - 1;
  for (int v = 0; v < src; v++)
    {
      if (excess[v] > 0)
	net->add (src, v, excess[v], 0);
      if (deficit[v] > 0)
	net->add (v, sink, deficit[v], 0);
    }

  auto_vec<gcov_type> pot, dist;
  auto_vec<int> prev_node, prev_arc;
  auto_vec<bool> done;
  pot.safe_grow_cleared (n);
  dist.safe_grow_cleared (n);
  prev_node.safe_grow_cleared (n);
  prev_arc.safe_grow_cleared (n);
  done.safe_grow_cleared (n);

  for (;;)
    {
      for (int v = 0; v < n; v++)
	{
	  dist[v] = FLOW_INF;
	  done[v] = false;
	}
      dist[src] = 0;
      dist_heap heap;
      heap.push (0, src);
      while (!heap.h.is_empty ())
	{
	  int u = heap.pop ().second;
	  if (done[u])
	    continue;
	  done[u] = true;
	  if (u == sink)
	    break;
	  unsigned i;
	  flow_arc *a;
	  FOR_EACH_VEC_ELT (net->arcs[u], i, a)
	    {
	      if (a->cap <= 0)
		continue;
	      gcov_type d = dist[u] + a->cost + pot[u] - pot[a->to];
	      if (d < dist[a->to])
		{
		  dist[a->to] = d;
		  prev_node[a->to] = u;
		  prev_arc[a->to] = i;
		  heap.push (d, a->to);
		}
	    }
	}
      if (!done[sink])
	break;
      /* Potentials: settled nodes by their distance, the rest as far as
	 the sink, which keeps every residual reduced cost nonnegative.  */
      for (int v = 0; v < n; v++)
	pot[v] += MIN (dist[v], dist[sink]);

      gcov_type amount = FLOW_INF;
      for (int v = sink; v != src; v = prev_node[v])
	amount = MIN (amount, net->arcs[prev_node[v]][prev_arc[v]].cap);
      for (int v = sink; v != src; v = prev_node[v])
	net->push (prev_node[v], prev_arc[v], amount);
    }
}

/* Give one unit of flow to each component that carries flow without
   being reached from ENTRY: along a shortest path (in edges) from a
   reached block into it, and from it to EXIT.  FLOW is per graph edge;
   ACTIVE says which graph edges may carry flow.  */

static void
join_isolated (lp_graph *g, gcov_type *flow, const bool *active)
{
  int nb = g->n_blocks;
  auto_vec<gcov_type> through;
  through.safe_grow_cleared (nb);
  unsigned i;
  lp_edge *le;
  /* The active edges out of each block, in edge order; the virtual
     EXIT->ENTRY edge is left out (ENTRY is always reached).  */
  auto_vec<int> first, succs;	/* succs[first[B] .. first[B + 1]).  */
  first.safe_grow_cleared (nb + 1);
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (active[i])
      {
	through[le->dst] += flow[i];
	if (i != 0)
	  first[le->src + 1]++;
      }
  for (int b = 0; b < nb; b++)
    first[b + 1] += first[b];
  succs.safe_grow (first[nb]);
  {
    auto_vec<int> fill;
    fill.safe_splice (first);
    FOR_EACH_VEC_ELT (g->edges, i, le)
      if (active[i] && i != 0)
	succs[fill[le->src]++] = i;
  }

  for (int round = 0; round < nb; round++)
    {
      /* Blocks reached from ENTRY over edges with flow.  */
      auto_vec<bool> reached;
      reached.safe_grow_cleared (nb);
      auto_vec<int> work;
      reached[ENTRY_BLOCK] = true;
      work.safe_push (ENTRY_BLOCK);
      while (!work.is_empty ())
	{
	  int b = work.pop ();
	  for (int k = first[b]; k < first[b + 1]; k++)
	    {
	      int e = succs[k];
	      if (flow[e] > 0 && !reached[g->edges[e].dst])
		{
		  reached[g->edges[e].dst] = true;
		  work.safe_push (g->edges[e].dst);
		}
	    }
	}
      int lost = -1;
      for (int b = 0; b < nb && lost < 0; b++)
	if (!reached[b] && through[b] > 0)
	  lost = b;
      if (lost < 0)
	return;

      /* BFS from every reached block to LOST, then from LOST to EXIT,
	 over any active edge.  */
      auto_vec<int> via;
      via.safe_grow (nb);
      bool ok = true;
      for (int leg = 0; leg < 2 && ok; leg++)
	{
	  for (int b = 0; b < nb; b++)
	    via[b] = -2;
	  work.truncate (0);
	  int target = leg == 0 ? lost : EXIT_BLOCK;
	  if (leg == 0)
	    {
	      for (int b = 0; b < nb; b++)
		if (reached[b])
		  {
		    via[b] = -1;
		    work.safe_push (b);
		  }
	    }
	  else
	    {
	      via[lost] = -1;
	      work.safe_push (lost);
	    }
	  for (unsigned head = 0; head < work.length () && via[target] == -2;
	       head++)
	    {
	      int b = work[head];
	      for (int k = first[b]; k < first[b + 1]; k++)
		{
		  int e = succs[k];
		  if (via[g->edges[e].dst] == -2)
		    {
		      via[g->edges[e].dst] = e;
		      work.safe_push (g->edges[e].dst);
		    }
		}
	    }
	  if (via[target] == -2)
	    {
	      ok = false;
	      break;
	    }
	  for (int b = target; via[b] >= 0; b = g->edges[via[b]].src)
	    {
	      flow[via[b]] += 1;
	      through[b] += 1;
	    }
	}
      if (!ok)
	return;			/* Unreachable code: leave it.  */
      /* Close the circulation.  */
      flow[0] += 1;
      through[ENTRY_BLOCK] += 1;
    }
}

/* The cost per unit of running a block of SIZE instructions that got no
   sample.  */

static int
zero_inc_cost (int size)
{
  int c = COST_INC_ZERO_PER_INSN * MAX (size, 1);
  return MIN (c, COST_INC_ZERO_MAX);
}

/* Fill COUNT (per edge of G) with a flow close to WEIGHT (per block;
   -1 where unknown) and EDGE_WEIGHT (per edge of G, -1 where unknown;
   NULL: none known).  SIZE is each block's estimated number of
   instructions.  Edges G ignores get 0.  */

void
lp_infer_flow (lp_graph *g, const gcov_type *weight, const int *size,
	       const gcov_type *edge_weight, gcov_type *count)
{
  int nb = g->n_blocks;
  int n = 2 * nb + 2;
  flow_net net (n);
  auto_vec<gcov_type> excess, deficit;
  excess.safe_grow_cleared (n);
  deficit.safe_grow_cleared (n);

  /* The function's first block: the target of ENTRY's edge.  */
  auto_vec<bool> first;
  first.safe_grow_cleared (nb);
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (!le->ignore && !le->fake && le->src == ENTRY_BLOCK)
      first[le->dst] = true;

  for (int b = 0; b < nb; b++)
    {
      int in = 2 * b, out = 2 * b + 1;
      if (weight[b] < 0)
	net.add (in, out, FLOW_INF, 0);
      else
	{
	  /* Saturated at once: W units may be given back at DEC, the
	     last one of any block but the first at COST_DEC_LAST.  */
	  int dec = first[b] ? COST_DEC_ENTRY : COST_DEC;
	  int inc = first[b] ? COST_INC_ENTRY : COST_INC;
	  gcov_type w = weight[b];
	  if (!first[b] && w > 0)
	    {
	      /* All but the last unit at DEC, that one dearer (above).  */
	      if (w > 1)
		net.add_estimate (in, out, w - 1, dec, excess.address (),
				  deficit.address ());
	      net.add_estimate (in, out, 1, COST_DEC_LAST, excess.address (),
				deficit.address ());
	    }
	  else
	    net.add_estimate (in, out, w, dec, excess.address (),
			      deficit.address ());
	  if (!weight[b])
	    inc = zero_inc_cost (size[b]);
	  net.add (in, out, FLOW_INF, inc);
	}
    }

  auto_vec<int> arc_of, est_arc_of;
  auto_vec<bool> active;
  arc_of.safe_grow_cleared (g->edges.length ());
  est_arc_of.safe_grow_cleared (g->edges.length ());
  active.safe_grow_cleared (g->edges.length ());
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      count[i] = 0;
      if (le->ignore)
	continue;
      active[i] = true;
      /* The virtual edge is free: it carries the calls.  Where the
	 samples leave a choice, flow takes the edges GCC's static
	 estimate finds likely.  */
      int cost = COST_EDGE;
      int from = 2 * le->src + 1, to = 2 * le->dst;
      est_arc_of[i] = -1;
      if (i == 0)
	cost = 0;
      else if (edge_weight && edge_weight[i] >= 0)
	{
	  est_arc_of[i] = net.add_estimate (from, to, edge_weight[i],
					    COST_DEC_EDGE, excess.address (),
					    deficit.address ());
	  cost += COST_INC_EDGE;
	}
      else if (le->e && !le->fake && le->e->probability.initialized_p ())
	{
	  int p = le->e->probability.to_reg_br_prob_base ();
	  cost += (p < REG_BR_PROB_BASE / 2) + (p < REG_BR_PROB_BASE / 10);
	}
      arc_of[i] = net.add (from, to, FLOW_INF, cost);
    }

  successive_shortest_paths (&net, excess.address (), deficit.address ());

  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (active[i])
      {
	int from = 2 * le->src + 1;
	count[i] = net.flow (from, arc_of[i]);
	if (est_arc_of[i] >= 0)
	  count[i] += net.flow (from, est_arc_of[i]);
      }
  join_isolated (g, count, active.address ());
}
