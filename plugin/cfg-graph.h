/* cfg-graph.h: the instrumentation graph (cfg-graph.cc).  */

#ifndef LATEPGO_CFG_GRAPH_H
#define LATEPGO_CFG_GRAPH_H

/* One edge of the instrumentation graph.  E is NULL for the virtual
   EXIT->ENTRY edge that closes the flow and is always on the tree.  */
struct lp_edge
{
  edge e;
  int src, dst;			/* Block indices (after compact_blocks).  */
  double cost;			/* Estimated cost of counting this edge.  */
  unsigned fake : 1;		/* EDGE_FAKE, or the virtual edge.  */
  unsigned on_tree : 1;
  unsigned ignore : 1;		/* Neither on the tree nor countable.  */
  unsigned critical : 1;
  int counter;			/* Counter index, or -1.  */
};

/* A statement whose values are profiled (values.cc): the size of a
   memop (LATEPGO_MEMOP_BUCKETS counters), or the target of an indirect
   call (no counters: the runtime's list of targets, ICALL_INDEX among
   the function's indirect-call sites).  */
struct lp_value_site
{
  gimple *stmt;
  bool icall;
  int icall_index;
  int n_counters;
};

/* The instrumentation graph of the current function.  */
struct lp_graph
{
  auto_vec<lp_edge> edges;
  int n_blocks;			/* Including ENTRY and EXIT.  */
  int n_fake;			/* Fake edges, including the virtual one.  */
  int n_tree;
  int n_counters;
  int n_ignored;
  int n_promoted;		/* Counters promoted out of loops.  */
  /* Value-profiled statements (values.cc), in block order.  */
  auto_vec<lp_value_site> value_sites;
  int n_value_counters;
  int n_icall_sites;
  /* Whether values are profiled: the value sites' counters follow the
     N_COUNTERS edge counters, then the first-run counter, and CHECKSUM
     covers them.  */
  bool values;
  /* With values, whether the first-run counter (the last one) is set
     (see LP_FIRST_RUN_MIN_BLOCKS); else it stays 0.  */
  bool first_run;
  unsigned HOST_WIDE_INT checksum;
  /* The checksum of the graph alone, as without value counters.  */
  unsigned HOST_WIDE_INT checksum_plain;
};


extern void lp_build_graph (lp_graph *, bool exact_calls, bool values);
extern void lp_release_graph (lp_graph *);
extern int lp_solve_flow (lp_graph *, gcov_type *);

/* The number of counters of G's profile record.  */
static inline int
lp_record_counters (const lp_graph *g)
{
  return g->n_counters + (g->values ? g->n_value_counters + 1 : 0);
}

#endif /* LATEPGO_CFG_GRAPH_H */
