/* annotate.cc: write a function's solved edge counts into its CFG, as
   native -fprofile-use does (profile.cc:compute_branch_probabilities),
   and list its line counts in the dump.  Shared by use mode (use.cc,
   counts from counters) and sample-use mode (sample-use.cc through
   lp_use_annotate_sampled, counts inferred from samples).  */

#include "gcc-common.h"
#include "annotate.h"
#include "cfg-graph.h"

/* Write the solved counts of G (COUNT per edge) into the CFG.  G's
   fake edges are gone; its real edges are still valid.  SAMPLED counts
   are estimates and get GCC's sample-profile quality (AFDO): GCC trusts
   them for hotness and layout but not as exact trip counts, and does
   not take a block without samples for never executed, unless
   FIRM_ZERO says it is (a precise zero, and edges into it never
   taken).  Exact counts (SAMPLED false) are precise, zeros included,
   unless FIRM_ZERO is given: then a zero not in FIRM_ZERO was only
   inferred (salvage.cc: new code the old profile does not cover) and
   gets a sample profile's quality, and so does a zero edge into it.
   Blocks with KEEP_GUESS set keep their static branch probabilities.
   KEEP_GUESS and FIRM_ZERO may be NULL.  */

void
lp_annotate_counts (lp_graph *g, gcov_type *count, FILE *dump, bool sampled,
		    const bool *keep_guess, const bool *firm_zero)
{
  unsigned i;
  lp_edge *le;
  int n = g->n_blocks;
  auto_vec<gcov_type> in, out;
  in.safe_grow_cleared (n);
  out.safe_grow_cleared (n);
  gcov_type entry_real = 0;

  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (!le->ignore)
      {
	in[le->dst] += count[i];
	out[le->src] += count[i];
	if (le->src == ENTRY_BLOCK && !le->fake)
	  entry_real += count[i];
      }

  /* A block's count is its inflow; with clamped inconsistent counters
     in and out can differ, and the larger is the safer bound.  ENTRY
     counts calls only, not re-entries after longjmp to a setjmp in
     this function (fake ENTRY edges).  */
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    {
      gcov_type c = MAX (in[bb->index], out[bb->index]);
      if (bb->index == ENTRY_BLOCK)
	c = entry_real;
      bb->count = profile_count::from_gcov_type (c);
      if (sampled)
	bb->count = bb->count.afdo ();
      if (firm_zero && firm_zero[bb->index] && c == 0)
	bb->count = profile_count::zero ();
      if (!sampled && firm_zero && !firm_zero[bb->index] && c == 0)
	bb->count = bb->count.afdo ();
      if (dump)
	fprintf (dump, "  annotated block %d count=%" PRId64 "%s\n",
		 bb->index, (int64_t) c,
		 sampled && bb->count == profile_count::zero ()
		 ? " never" : "");
    }

  /* Probabilities: measured where the block ran, guessed elsewhere.
     Known edges out of a block get count/outflow; abnormal edges
     (uncounted) share what is left.  */
  FOR_ALL_BB_FN (bb, cfun)
    {
      gcov_type known = 0;
      int n_abnormal = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL))
	  n_abnormal++;

      gcov_type total = bb->count.to_gcov_type ();
      if (total <= 0 || (keep_guess && keep_guess[bb->index]))
	continue;
      FOR_EACH_VEC_ELT (g->edges, i, le)
	if (!le->fake && !le->ignore && le->src == bb->index)
	  known += count[i];
      if (!n_abnormal)
	total = known;
      if (total <= 0)
	continue;
      FOR_EACH_VEC_ELT (g->edges, i, le)
	if (!le->fake && !le->ignore && le->src == bb->index)
	  {
	    le->e->probability
	      = profile_probability::probability_in_gcov_type (count[i],
							       total);
	    if (sampled)
	      le->e->probability = le->e->probability.afdo ();
	    if (sampled && firm_zero && firm_zero[le->dst] && count[i] == 0)
	      le->e->probability = profile_probability::never ();
	    if (!sampled && firm_zero && !firm_zero[le->dst] && count[i] == 0)
	      le->e->probability = le->e->probability.afdo ();
	    if (dump)
	      fprintf (dump, "  annotated edge %d->%d count=%" PRId64
		       " prob=%.4f\n", le->src, le->dst, (int64_t) count[i],
		       le->e->probability.to_reg_br_prob_base ()
		       / (double) REG_BR_PROB_BASE);
	  }
      if (n_abnormal)
	{
	  gcov_type rest = MAX (total - known, (gcov_type) 0);
	  profile_probability p
	    = profile_probability::probability_in_gcov_type (rest,
							     total * n_abnormal)
	      .guessed ();
	  FOR_EACH_EDGE (e, ei, bb->succs)
	    if (e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL))
	      e->probability = p;
	}
    }
}

/* For the dump: the count of every source line of the current
   function, as "line FILE:LINE count=C" lines sorted by position.  A
   line's count is the largest count of the blocks with a statement on
   it, so a line holding one simple statement shows how often it ran
   (the testsuite's count(N) checks).  */

void
lp_dump_line_counts (FILE *dump)
{
  hash_map<int_hash<int, -1, -2>, gcov_type> lines;
  hash_map<int_hash<int, -1, -2>, const char *> files;
  auto_vec<int> order;
  basic_block bb;

  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	/* Debug statements carry no code (and probe markers a made-up
	   file).  */
	if (is_gimple_debug (gsi_stmt (gsi)))
	  continue;
	location_t loc = gimple_location (gsi_stmt (gsi));
	if (RESERVED_LOCATION_P (loc))
	  continue;
	expanded_location x = expand_location (loc);
	if (!x.file || x.line <= 0)
	  continue;
	/* Key: line, plus a file index in the high bits.  */
	int key = x.line;
	if (strcmp (x.file, main_input_filename) != 0)
	  key += (1 << 24) * (1 + (int) (htab_hash_string (x.file) % 100));
	bool existed;
	gcov_type &c = lines.get_or_insert (key, &existed);
	/* The program-wide count: a never-run function's blocks keep
	   their guessed local counts under GUESSED_GLOBAL0, and ipa ()
	   reads those as 0.  */
	profile_count ipa = bb->count.ipa ();
	gcov_type bc = ipa.initialized_p () ? ipa.to_gcov_type () : 0;
	if (!existed)
	  {
	    c = bc;
	    files.put (key, x.file);
	    order.safe_push (key);
	  }
	else if (bc > c)
	  c = bc;
      }
  order.qsort ([] (const void *a, const void *b)
	       { return *(const int *) a - *(const int *) b; });
  for (int key : order)
    fprintf (dump, "  line %s:%d count=%" PRId64 "\n",
	     lbasename (*files.get (key)), key & ((1 << 24) - 1),
	     (int64_t) *lines.get (key));
}
