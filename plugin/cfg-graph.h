/* cfg-graph.h: the instrumentation graph (cfg-graph.cc).  */

#ifndef LATEPGO_CFG_GRAPH_H
#define LATEPGO_CFG_GRAPH_H

#include "value-sites.h"

/* Functions smaller than this (blocks, ENTRY and EXIT included), and
   inline or COMDAT ones, keep their first-run counter at 0: the check
   at their entry makes them bigger, so GCC inlines them less, and runs
   in every caller it still inlines them into, for an order that matters
   little for code that is usually inlined.  */
#define LP_FIRST_RUN_MIN_BLOCKS 6

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
  int n_icall_sites;
  int n_memop_sites;
  int n_cmp_sites;		/* Of the memop sites, memcmp and bcmp.  */
  /* Whether values are profiled: the first-run counter follows the
     N_COUNTERS edge counters, and CHECKSUM covers the value sites.  */
  bool values;
  /* With values, whether the first-run counter (the last one) is set
     (see LP_FIRST_RUN_MIN_BLOCKS); else it stays 0.  */
  bool first_run;
  unsigned HOST_WIDE_INT checksum;
  /* The checksum of the graph alone, as without value profiles.  */
  unsigned HOST_WIDE_INT checksum_plain;
  /* With values and memops, the checksum latepgo gave the same graph
     when memop sizes were counters (values.cc), else 0: a profile of
     that older layout is recognized by it (use.cc).  */
  unsigned HOST_WIDE_INT checksum_memop_counters;
  /* With values and memcmp or bcmp sites, the checksum latepgo gave the
     same graph before it profiled their sizes, else 0 (use.cc).  */
  unsigned HOST_WIDE_INT checksum_before_cmp;
};


extern void lp_build_graph (lp_graph *, bool exact_calls, bool values);
extern void lp_release_graph (lp_graph *);
extern int lp_compare_cost_desc (const void *, const void *);
extern int lp_solve_flow (lp_graph *, gcov_type *);
extern int lp_solve_flow_unreturned (lp_graph *, gcov_type *);

/* The number of counters of G's profile record.  */
static inline int
lp_record_counters (const lp_graph *g)
{
  return g->n_counters + (g->values ? 1 : 0);
}

#endif /* LATEPGO_CFG_GRAPH_H */
