/* latepgo.h: declarations shared by the plugin's source files.

   The plugin is one SIMPLE_IPA pass placed right after GCC's "profile"
   pass (so after early inlining and the early optimizations).  Per
   function it builds the instrumentation graph (cfg-graph.cc): the CFG
   plus fake edges, a maximum spanning tree over estimated edge costs,
   and a CFG checksum.  Generate mode (generate.cc) puts a counter on
   every edge off the tree and emits LLVM-layout profile records.
   Files: latepgo.cc (plugin_init, arguments, pass), cfg-graph.cc,
   generate.cc, names.cc (profile names, MD5), dump.cc.  */

#ifndef LATEPGO_H
#define LATEPGO_H

/* The mode and options given with -fplugin-arg-latepgo-*.  */
struct latepgo_options
{
  bool generate;		/* -fplugin-arg-latepgo-generate[=PATH] */
  const char *profile_path;	/* PATH of generate=PATH, or NULL.  */
  bool atomic;			/* update=atomic */
  bool exact_calls;		/* exact-calls: fake edges after calls.  */
  const char *use_path;		/* use=FILE */
  bool mismatch_error;		/* mismatch=error */
  bool partial_training;	/* partial-training */
  const char *dump_path;	/* dump=FILE */
  vec<const char *> prefix_map; /* prefix-map=OLD=NEW, as OLD, NEW pairs.  */
};

extern struct latepgo_options latepgo_opts;

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
  unsigned HOST_WIDE_INT checksum;
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
extern void lp_build_graph (lp_graph *, bool exact_calls);
extern void lp_release_graph (lp_graph *);

/* names.cc */
extern char *lp_profile_name (tree fndecl);
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

/* use.cc */
extern void lp_use_begin (void);
extern void lp_use_function (cgraph_node *, lp_graph *, const char *);
extern void lp_use_finish (void);
extern void lp_use_set_fdo_flags (void);

/* dump.cc */
extern void lp_dump_open (const char *);
extern void lp_dump_function (const char *, const char *, lp_graph *, int);
extern void lp_dump_close (void);
extern FILE *lp_dump_stream (void);

#endif /* LATEPGO_H */
