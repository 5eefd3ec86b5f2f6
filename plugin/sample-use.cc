/* sample-use.cc: sample-use mode (sample-use=FILE).  Annotate each
   function from a probe-based sample profile of a probes build
   (latepgo-profgen's output).

   The probe build changed no code, so this build reaches our pass with
   the same CFG (no CFG fixup here either, early function splitting
   left on): the graph and the probe numbering of probes.cc are rebuilt
   and the profile's !CFGChecksum must equal the graph's plain checksum.
   A block's estimate is the largest of its block probe's count and
   the counts of its calls (their call probes', or the entry counts of
   the callee copies inlined there in the profiled build).  Estimates
   are then made consistent by flow inference (sample-flow.cc); where
   the profile has branch directions ("#branch" lines, from the flags
   register at conditional jumps), they split the counts of the
   branches they name and the flow runs again with those edge
   estimates (branch_edge_weights).  The counts are annotated with
   sample quality, but for blocks that firmly never ran
   (find_firm_zeros), which get a precise zero.
   A function's "#first-sample" rank becomes its first-run time (GCC's
   time profile), which orders the functions in the output.
   Functions without samples keep GCC's static estimates, as with
   -fprofile-partial-training: a sample profile says little about code
   that did not happen to be sampled.  */

#include "gcc-common.h"
#include "sample-use.h"
#include "value-sites.h"
#include "cfg-graph.h"
#include "dump.h"
#include "probes.h"
#include "sample-flow.h"
#include "sample-read.h"
#include "stale-contexts.h"
#include "use.h"
#include "values.h"

/* A block that got no sample is firmly never executed (GCC's precise
   zero, which moves it to the function's cold part as an instrumented
   zero does) when it is FIRM_ZERO_MIN_SIZE instructions or more, the
   flow gave it nothing, no inlined callee of its calls got a sample,
   and it would have collected FIRM_ZERO_SAMPLES samples had it taken
   1% of its predecessors' runs.  Counts are 100 x samples per
   instruction (latepgo-profgen), so that is
   sum (predecessor counts) x size >= 10000 x FIRM_ZERO_SAMPLES.
   Smaller blocks are left to skid (sample-flow.cc), and code inlined
   later keeps its samples under its own probes.  */

#define FIRM_ZERO_MIN_SIZE 4
#define FIRM_ZERO_SAMPLES 3

static void
find_firm_zeros (lp_graph *g, const gcov_type *weight, const int *size,
		 const gcov_type *count, const bool *inlinee_ran,
		 bool *firm_zero)
{
  auto_vec<gcov_type> in;
  in.safe_grow_cleared (g->n_blocks);
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (!le->ignore)
      in[le->dst] += count[i];
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      int b = bb->index;
      if (weight[b] != 0 || in[b] != 0 || inlinee_ran[b]
	  || size[b] < FIRM_ZERO_MIN_SIZE)
	continue;
      gcov_type pred = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
	pred += in[e->src->index];
      /* pred x size >= 10000 x FIRM_ZERO_SAMPLES, without overflowing
	 on the reader's largest counts.  */
      gcov_type need = 10000 * FIRM_ZERO_SAMPLES;
      firm_zero[b] = pred >= (need + size[b] - 1) / size[b];
    }
}

/* Branch directions seen by the samples ("#branch" lines) weigh as
   BRANCH_PRIOR samples more of the direction the flow found without
   them: a branch seen a few times moves the flow a little, one seen
   often decides it.  */
#define BRANCH_PRIOR 4

/* The block of probe ID: a block probe's, or the block of a call
   probe's call (BLOCKS and CALLS as lp_probe_numbering gives them);
   -1 if ID is neither.  */

static int
probe_block (int id, const vec<basic_block> &blocks,
	     const vec<gimple *> &calls)
{
  int nb = blocks.length ();
  if (id >= 1 && id <= nb)
    return blocks[id - 1]->index;
  if (id > nb && id - nb <= (int) calls.length ())
    return gimple_bb (calls[id - nb - 1])->index;
  return -1;
}

/* Whether block B is the block of one of the N probes IDS.  */

static bool
probes_hold (int b, const int *ids, int n, const vec<basic_block> &blocks,
	     const vec<gimple *> &calls)
{
  for (int i = 0; i < n; i++)
    if (probe_block (ids[i], blocks, calls) == b)
      return true;
  return false;
}

/* Turn the branch directions of SF into estimates EDGE_WEIGHT (per
   edge of G, -1 where none) for the two-way branches they identify:
   a block of the observation's source probes with exactly two edges
   out, one into the code of each side.  The branch's count is what
   the flow COUNT gave it; the directions split it.  Returns the number
   of branches given estimates; *MATCHED is set to the number of
   observations that named one.  */

static int
branch_edge_weights (lp_graph *g, const lp_sample_function *sf,
		     const vec<basic_block> &blocks,
		     const vec<gimple *> &calls, const gcov_type *count,
		     gcov_type *edge_weight, int *matched)
{
  *matched = 0;
  int nb = g->n_blocks;
  unsigned n_edges = g->edges.length ();
  /* The two ordinary edges out of each block that has exactly two.  */
  auto_vec<int> out1, out2;
  out1.safe_grow (nb);
  out2.safe_grow (nb);
  for (int b = 0; b < nb; b++)
    out1[b] = out2[b] = -1;
  auto_vec<int> n_out;
  n_out.safe_grow_cleared (nb);
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      if (le->ignore || le->fake)
	continue;
      if (n_out[le->src]++ == 0)
	out1[le->src] = i;
      else
	out2[le->src] = i;
    }

  /* Samples seen going each way, per edge.  */
  auto_vec<gcov_type> seen;
  seen.safe_grow_cleared (n_edges);
  for (const lp_branch_obs &o : sf->branches)
    {
      int found = -1, found_side = 0;
      bool ambiguous = false;
      for (int k = 0; k < o.n_src && !ambiguous; k++)
	{
	  int s = probe_block (o.src[k], blocks, calls);
	  if (s < 0 || n_out[s] != 2)
	    continue;
	  int d1 = g->edges[out1[s]].dst, d2 = g->edges[out2[s]].dst;
	  /* Side 0 to D1 and side 1 to D2, or the other way round.  */
	  bool straight = (probes_hold (d1, o.to[0], o.n_to[0], blocks, calls)
			   && probes_hold (d2, o.to[1], o.n_to[1], blocks,
					   calls));
	  bool crossed = (probes_hold (d2, o.to[0], o.n_to[0], blocks, calls)
			  && probes_hold (d1, o.to[1], o.n_to[1], blocks,
					  calls));
	  if (!straight && !crossed)
	    continue;
	  if (straight == crossed || (found >= 0 && found != s))
	    ambiguous = true;
	  found = s;
	  found_side = straight ? 0 : 1;
	}
      if (ambiguous || found < 0)
	continue;
      ++*matched;
      seen[out1[found]] += o.count[found_side];
      seen[out2[found]] += o.count[1 - found_side];
    }

  int n_weighted = 0;
  for (i = 0; i < n_edges; i++)
    edge_weight[i] = -1;
  for (int b = 0; b < nb; b++)
    {
      if (n_out[b] != 2)
	continue;
      int e1 = out1[b], e2 = out2[b];
      gcov_type n = seen[e1] + seen[e2];
      if (!n)
	continue;
      gcov_type c1 = count[e1], c = c1 + count[e2];
      /* The flow's own split as the prior; an even one without flow.  */
      double prior = c ? (double) c1 / c : 0.5;
      double p = (seen[e1] + BRANCH_PRIOR * prior) / (n + BRANCH_PRIOR);
      edge_weight[e1] = (gcov_type) (p * c + 0.5);
      edge_weight[e2] = c - edge_weight[e1];
      n_weighted++;
    }
  return n_weighted;
}

/* Annotate the current function (NODE, profile name NAME, graph G,
   built as for a probe build).  Releases G.  */

void
lp_sample_use_function (cgraph_node *node, lp_graph *g, const char *name)
{
  FILE *dump = lp_dump_stream ();
  const lp_sample_function *sf = lp_samples_lookup (name);
  /* The probes, numbered as in the probe build: block probes, then
     call probes.  */
  auto_vec<basic_block> blocks;
  auto_vec<gimple *> calls;
  lp_probe_numbering (&blocks, &calls);
  if (!sf || sf->checksum == g->checksum_plain)
    lp_check_context_sites (node->decl, name, blocks.length () + 1,
			    calls.length ());
  if (!sf)
    {
      lp_release_graph (g);
      lp_use_missing ();
      if (dump)
	fputs ("  samples missing\n", dump);
      return;
    }
  if (sf->checksum != g->checksum_plain)
    {
      lp_release_graph (g);
      if (dump)
	fprintf (dump, "  samples mismatch checksum=0x%" PRIx64 "\n",
		 (uint64_t) sf->checksum);
      lp_use_mismatch (node->decl, true);
      return;
    }

  sf->matched = true;

  /* The order in which the training run first spent time in functions,
     for GCC's function ordering (-fprofile-reorder-functions), as an
     instrumented time profile gives it.  */
  if (sf->first_sample)
    {
      node->tp_first_run = sf->first_sample;
      if (dump)
	fprintf (dump, "  first run %d\n", node->tp_first_run);
    }

  /* A block's estimate: the largest of its block probe's count and the
     counts of the calls in it.  A call's count is that of its call
     probe where it stayed a call, plus how often the copies of the
     callee inlined there in the profiled build were entered.  Both
     undercount (samples skid past short regions; a block probe owns
     no instruction when its code merged into a neighbour), and a
     block runs at least as often as each call in it.  */
  int nb = g->n_blocks;
  auto_vec<gcov_type> weight;
  weight.safe_grow (nb);
  for (int b = 0; b < nb; b++)
    weight[b] = -1;
  auto lookup = [sf] (int id) -> gcov_type
    {
      gcov_type *c = sf->counts->get (id);
      return c ? *c : -1;
    };
  /* The calls of each call probe that its call targets say (from
     call stacks: latepgo-profgen estimates a callee's calls from each
     site from its entry count and its samples under that site), for
     direct calls too: they count a call the profiled binary made
     whatever samples fell near it.  */
  hash_map<int_hash<int, -1, -2>, gcov_type> target_calls;
  for (const lp_call_target &t : sf->targets)
    {
      bool e;
      gcov_type &slot = target_calls.get_or_insert (t.id, &e);
      slot = (e ? slot : 0) + t.count;
    }
  auto lookup_call = [sf, &target_calls] (int id) -> gcov_type
    {
      gcov_type *c = sf->counts->get (id);
      gcov_type *h = sf->inlined_calls->get (id);
      gcov_type *x = sf->context_calls->get (id);
      gcov_type *t = target_calls.get (id);
      if (!c && !h && !x && !t)
	return -1;
      gcov_type n = (c ? *c : 0) + (h ? *h : 0);
      if (t && *t > n)
	n = *t;
      return x && *x > n ? *x : n;
    };
  int id = 1;
  for (basic_block b : blocks)
    weight[b->index] = lookup (id++);
  int n_block_probes = id - 1;
  for (gimple *stmt : calls)
    {
      int b = gimple_bb (stmt)->index;
      gcov_type c = lookup_call (id++);
      if (c > weight[b])
	weight[b] = c;
    }

  /* How many instructions each block will be: a block of several
     that got no sample is firmly cold, one of a single cheap
     instruction is not (see sample-flow.cc).  */
  auto_vec<int> size;
  size.safe_grow_cleared (nb);
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	size[bb->index] += estimate_num_insns (stmt, &eni_size_weights);
      }

  int n_known = 0;
  for (int b = 0; b < nb; b++)
    n_known += weight[b] >= 0;
  if (dump)
    {
      fprintf (dump, "  samples match probes=%d known-blocks=%d/%d "
	       "weights=", n_block_probes, n_known, nb - 2);
      for (int b = 0; b < nb; b++)
	fprintf (dump, "%s%" PRId64, b ? "," : "", (int64_t) weight[b]);
      fputs (" sizes=", dump);
      for (int b = 0; b < nb; b++)
	fprintf (dump, "%s%d", b ? "," : "", size[b]);
      fputc ('\n', dump);
    }

  /* A branch none of whose targets has an estimate is split however
     the flow found cheapest, which says nothing about the branch: it
     keeps its static probabilities.  */
  auto_vec<bool> keep_guess;
  keep_guess.safe_grow_cleared (nb);
  FOR_EACH_BB_FN (bb, cfun)
    if (EDGE_COUNT (bb->succs) > 1)
      {
	bool any_known = false;
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE (e, ei, bb->succs)
	  if (!(e->flags & EDGE_FAKE) && weight[e->dest->index] >= 0)
	    any_known = true;
	keep_guess[bb->index] = !any_known;
      }

  auto_vec<gcov_type> count;
  count.safe_grow_cleared (g->edges.length ());
  lp_infer_flow (g, weight.address (), size.address (), NULL,
		 count.address ());
  /* Again with the branch directions the samples saw, which split the
     branches the flow found.  */
  if (!sf->branches.is_empty ())
    {
      auto_vec<gcov_type> edge_weight;
      edge_weight.safe_grow (g->edges.length ());
      int matched;
      int n = branch_edge_weights (g, sf, blocks, calls, count.address (),
				   edge_weight.address (), &matched);
      if (dump)
	fprintf (dump, "  samples branches=%u matched=%d directed=%d\n",
		 sf->branches.length (), matched, n);
      if (n)
	lp_infer_flow (g, weight.address (), size.address (),
		       edge_weight.address (), count.address ());
    }
  /* Blocks that firmly did not run.  */
  auto_vec<bool> inlinee_ran;
  inlinee_ran.safe_grow_cleared (nb);
  id = n_block_probes + 1;
  for (gimple *stmt : calls)
    {
      gcov_type *m = sf->inlined_max->get (id++);
      if (m && *m > 0)
	inlinee_ran[gimple_bb (stmt)->index] = true;
    }
  auto_vec<bool> firm_zero;
  firm_zero.safe_grow_cleared (nb);
  find_firm_zeros (g, weight.address (), size.address (), count.address (),
		   inlinee_ran.address (), firm_zero.address ());
  lp_use_annotate_sampled (node, g, count.address (), keep_guess.address (),
			   firm_zero.address ());

  /* Value profiles, as an instrumented profile would give them: the
     callees of indirect calls (from call stacks), and the sizes of
     memcpy/memset calls (samples at the call instruction), which GCC's
     value transformations then use.  */
  bool any_memop = false;
  id = n_block_probes + 1;
  for (gimple *stmt : calls)
    {
      auto_vec<lp_call_target> targets;
      for (const lp_call_target &t : sf->targets)
	if (t.id == id)
	  targets.safe_push (t);
      auto_vec<lp_size_count> sizes;
      for (const lp_size_count &z : sf->sizes)
	if (z.id == id)
	  sizes.safe_push (z);
      if (!targets.is_empty () && lp_icall_site_p (stmt))
	{
	  if (dump)
	    fprintf (dump, "  icall probe %d targets", id);
	  int k = lp_annotate_sampled_icall (stmt, targets.address (),
					     targets.length (), dump);
	  if (dump)
	    fprintf (dump, " attached=%d\n", k);
	}
      else if (!sizes.is_empty ())
	{
	  if (dump)
	    fprintf (dump, "  memop probe %d sizes=%u", id, sizes.length ());
	  bool ok = lp_annotate_sampled_memop (stmt, sizes.address (),
					       sizes.length (), dump);
	  any_memop |= ok;
	  if (dump)
	    fprintf (dump, " attached=%d\n", ok);
	}
      id++;
    }
  if (any_memop)
    lp_run_memop_transforms ();
}
