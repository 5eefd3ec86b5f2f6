/* latepgo.h: declarations shared by the plugin's source files.

   The plugin is one SIMPLE_IPA pass placed right after GCC's "profile"
   pass (so after early inlining and the early optimizations).  Per
   function it builds the instrumentation graph (cfg-graph.cc): the CFG
   plus fake edges, a maximum spanning tree over estimated edge costs,
   and a CFG checksum.  Generate mode (generate.cc) puts a counter on
   every edge off the tree and emits LLVM-layout profile records.
   Files (doc/data-path.md tells the whole path):
     latepgo.cc       plugin_init, arguments, the pass
     gcc-flags.cc     GCC's own PGO flags, full argument values,
		      DW_AT_producer
     auto-merge.cc    -fprofile-use merging raw profiles on first use
     names.cc         which functions, their profile and symbol names
     cfg-graph.cc     the instrumentation graph, spanning tree, checksum
     may-leave.cc     statements that may leave a function (fake edges)
     generate.cc      counters and records (generate mode)
     promote.cc       counters of closed loops kept in registers
     shard.cc         counter references, per-thread shards
     values.cc        value profiles: memop sizes, indirect calls,
		      first-run times
     profile-read.cc  the indexed profile (use mode)
     use.cc           use mode: flow solving and annotation
     report.cc        the per-file report line of a use build
     sample-read.cc   the text sample profile (sample-use mode)
     sample-flow.cc   count inference from samples (minimum-cost flow)
     sample-use.cc    sample-use mode
     probes.cc        pseudo probes
     probes-lto.cc    pseudo probes under -flto
     dump.cc          the dump file.  */

#ifndef LATEPGO_H
#define LATEPGO_H

#include "../libprof/latepgo-abi.h"

#include "options.h"

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
   call (one counter per candidate, the address-taken functions of this
   file of the call's type, and one for any other target).  */
struct lp_value_site
{
  gimple *stmt;
  bool icall;
  struct lp_candidates *candidates;	/* icall: shared, sorted by name.  */
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

/* One record of a profile: a function's counters for one checksum.  */
struct lp_profile_record
{
  unsigned HOST_WIDE_INT hash;
  unsigned n_counters;
  const void *counters;		/* Little-endian u64s inside the file.  */
};

/* What the profile's summary says about the whole program.  */
struct lp_profile_summary
{
  unsigned HOST_WIDE_INT max_function_count;
  unsigned HOST_WIDE_INT max_block_count;
};

extern lp_profile_summary lp_summary;

/* cfg-graph.cc */
extern void lp_build_graph (lp_graph *, bool exact_calls, bool values);
extern void lp_release_graph (lp_graph *);

/* may-leave.cc */
extern void lp_may_leave_begin (void);
extern void lp_may_leave_end (void);
extern bool lp_stmt_may_leave_p (gimple *);

/* promote.cc */
extern bool lp_promote_begin (void);
extern void lp_promote_end (bool);
extern gimple_seq lp_counter_add_seq (tree, tree, tree);
extern bool lp_queue_counter (tree, int, edge,
			      hash_map<int_hash<int, -1, -2>, bool> *);

/* shard.cc */
extern void lp_shard_begin (tree);
extern bool lp_shard_active_p (void);
extern tree lp_counter_ref (tree, tree);
extern void lp_shard_end (tree);
extern const struct ggc_root_tab lp_shard_roots[];

/* Samples of one callee of an indirect call probe (the profile's
   "ID: COUNT NAME:N ..." targets).  */
struct lp_call_target
{
  int id;			/* The call probe.  */
  const char *name;		/* The callee's profile name.  */
  gcov_type count;
};

/* How many samples saw the memop call at call probe ID with SIZE.  */
struct lp_size_count
{
  int id;
  unsigned HOST_WIDE_INT size;
  gcov_type count;
};

/* The most probes one side of a branch observation names.  */
#define LP_BRANCH_MAX_PROBES 4

/* Which way the conditional jumps at the end of the code of probes
   SRC went, seen by samples with the flags register ("#branch" lines
   of latepgo-profgen): COUNT[K] times to the code of probes TO[K].
   One of SRC is the branching block, one of TO[K] its successor (a
   call probe stands for its block).  */
struct lp_branch_obs
{
  int src[LP_BRANCH_MAX_PROBES], to[2][LP_BRANCH_MAX_PROBES];
  int n_src, n_to[2];
  gcov_type count[2];
};

/* A function's probe counts in a sample profile, summed over its
   instances with the same checksum (sample-read.cc).  */
struct lp_sample_function
{
  unsigned HOST_WIDE_INT checksum;
  hash_map<int_hash<int, -1, -2>, gcov_type> *counts;	/* By probe id.  */
  /* By call probe id: how often the copies of callees inlined there in
     the profiled build were entered (their head estimates).  */
  hash_map<int_hash<int, -1, -2>, gcov_type> *inlined_calls;
  /* By call probe id: the largest count anywhere in those inlinees (a
     sample anywhere in them says the call ran).  */
  hash_map<int_hash<int, -1, -2>, gcov_type> *inlined_max;
  /* Indirect call targets, by call probe id then name; no duplicates.  */
  vec<lp_call_target> targets;
  /* Sizes of memop calls, by call probe id then size; no duplicates.  */
  vec<lp_size_count> sizes;
  /* Branch directions, of all instances.  */
  vec<lp_branch_obs> branches;
  /* The function's rank by its first sample ("#first-sample", the
     smallest of its instances'), 0 if none.  */
  int first_sample;
  int n_instances;
  int n_conflicts;		/* Instances with another checksum.  */
};

struct lp_sample_summary
{
  gcov_type max_count;		/* The largest summed probe count.  */
};

extern lp_sample_summary lp_samples_summary;

/* sample-read.cc */
extern bool lp_samples_load (const char *);
extern const lp_sample_function *lp_samples_lookup (const char *);

/* sample-flow.cc */
extern void lp_infer_flow (lp_graph *, const gcov_type *, const int *,
			   const gcov_type *, gcov_type *);

/* sample-use.cc */
extern void lp_sample_use_function (cgraph_node *, lp_graph *, const char *);

/* probes.cc */
extern void lp_probe_numbering (vec<basic_block> *, vec<gimple *> *);
extern int lp_probes_function (cgraph_node *, const char *,
			       unsigned HOST_WIDE_INT);
extern void lp_probes_finish (void);
extern void lp_probes_register (const char *);

/* probes-lto.cc */
extern void lp_probes_lto_guard (const char *, const char *);
extern void lp_probes_lto_register (const char *);

/* values.cc */
/* Functions smaller than this (blocks, ENTRY and EXIT included), and
   inline or COMDAT ones, keep their first-run counter at 0: the check
   at their entry makes them bigger, so GCC inlines them less, and runs
   in every caller it still inlines them into, for an order that matters
   little for code that is usually inlined.  */
#define LP_FIRST_RUN_MIN_BLOCKS 6
extern void lp_find_value_sites (lp_graph *);
extern void lp_instrument_values (lp_graph *, tree);
extern void lp_instrument_first_run (lp_graph *, tree);
extern void lp_annotate_values (lp_graph *, const lp_profile_record *, FILE *);
extern void lp_annotate_first_run (lp_graph *, const lp_profile_record *,
				   cgraph_node *, FILE *);
extern void lp_inherit_first_run (void);
extern const struct ggc_root_tab lp_values_roots[];

extern void lp_values_begin (void);
extern int lp_annotate_sampled_icall (gimple *, const lp_call_target *,
				      unsigned, FILE *);
extern bool lp_annotate_sampled_memop (gimple *, const lp_size_count *,
				       unsigned, FILE *);
extern void lp_run_memop_transforms (void);
extern void lp_values_end (void);
extern void lp_checksum_value_sites (lp_graph *, vec<unsigned char> *);

/* The number of counters of G's profile record.  */
static inline int
lp_record_counters (const lp_graph *g)
{
  return g->n_counters + (g->values ? g->n_value_counters + 1 : 0);
}

/* gcc-flags.cc */
extern bool lp_adopt_gcc_modes (const char *);
extern bool lp_adopt_gcc_flags (void);

/* auto-merge.cc */
extern bool lp_auto_merge (const char *, const char *);
extern bool lp_file_profiled_p (const char *);
extern void lp_clean_producer (const char *, const char *);

/* names.cc */
extern char *lp_profile_name (tree fndecl);
extern const char *lp_symbol_name (tree fndecl);
extern unsigned HOST_WIDE_INT lp_md5_low64 (const void *, size_t);
extern bool lp_skip_function_p (cgraph_node *);

/* generate.cc */
extern void lp_generate_function (cgraph_node *, lp_graph *, const char *);
extern void lp_generate_finish (void);
extern const struct ggc_root_tab lp_generate_roots[];

/* profile-read.cc */
extern bool lp_profile_load (const char *);
extern const vec<lp_profile_record> *lp_profile_lookup (const char *);
extern gcov_type lp_profile_counter (const lp_profile_record *, unsigned);
extern gcov_type lp_profile_first_run (const lp_profile_record *);

/* use.cc */
extern void lp_use_begin (void);
extern void lp_use_function (cgraph_node *, lp_graph *, const char *);
extern void lp_use_finish (void);
extern void lp_use_set_fdo_flags (void);
extern void lp_use_annotate_sampled (cgraph_node *, lp_graph *, gcov_type *,
				     const bool *, const bool *);
extern void lp_use_mismatch (tree, bool);
extern void lp_use_missing (void);

/* report.cc */
extern void lp_report_unit (int, int, int, bool, int);

/* dump.cc */
extern void lp_dump_open (const char *);
extern void lp_dump_function (const char *, const char *, lp_graph *, int);
extern void lp_dump_close (void);
extern FILE *lp_dump_stream (void);

#endif /* LATEPGO_H */
