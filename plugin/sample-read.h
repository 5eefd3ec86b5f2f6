/* sample-read.h: the text sample profile (sample-read.cc).  */

#ifndef LATEPGO_SAMPLE_READ_H
#define LATEPGO_SAMPLE_READ_H

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
  /* By call probe id: how often the callee's context-sensitive records
     at that call site ("[... @ F:ID @ G]") were entered, summed.  A
     call probe's count is the larger of this and the others.  */
  hash_map<int_hash<int, -1, -2>, gcov_type> *context_calls;
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
  /* Its function's CFG matched the checksum in this compilation
     (sample-use.cc): its contexts may be used.  */
  mutable bool matched;
};

struct lp_sample_summary
{
  gcov_type max_count;		/* The largest summed probe count.  */
  /* The smallest of the largest summed probe counts that make up 99%
     of the sum of all of them: LLVM's hot count (the profile summary's
     990000 cutoff), as the indexed profile's summary gives it.  */
  gcov_type hot_count;
};

extern lp_sample_summary lp_samples_summary;

/* The probe counts of the context-sensitive records whose context ends
   with one context (sample-read.cc, contexts).  */
struct lp_sample_context
{
  unsigned HOST_WIDE_INT checksum;
  hash_map<int_hash<int, -1, -2>, gcov_type> *counts;	/* By probe id.  */
  /* How often the records were entered, summed (their head
     estimates).  */
  gcov_type head;
  int n_records;
  int n_conflicts;		/* Records with another checksum.  */
  /* A record of exactly this context is marked to be inlined.  */
  bool should_be_inlined;
};

/* LLVM's context attribute bits (!Attributes): the function was inlined
   at this context in the profiled binary; a pre-inliner decided it
   should be inlined there.  */
#define LP_CONTEXT_WAS_INLINED 1
#define LP_CONTEXT_SHOULD_BE_INLINED 2

/* A call site of a function that calling contexts name: "main:2" of
   "[main:2 @ foo]" (sample-read.cc, context_sites).  */
struct lp_context_site
{
  int site;			/* The call probe id.  */
  int n_contexts;		/* The context records naming it.  */
  const char *context;		/* The first of them, "[main:2 @ foo]".  */
};

struct lp_probe_frame;
extern bool lp_samples_have_contexts (void);
extern const vec<lp_context_site> *lp_samples_context_sites (const char *);
extern bool lp_samples_preinlined (void);
extern bool lp_samples_context_usable (const lp_sample_context *,
				       unsigned HOST_WIDE_INT);
extern const lp_sample_context *lp_samples_context (const lp_probe_frame *,
						     unsigned, unsigned *);

extern bool lp_samples_load (const char *);
extern const lp_sample_function *lp_samples_lookup (const char *);
extern const lp_sample_function *lp_samples_lookup_guid
  (unsigned HOST_WIDE_INT);

#endif /* LATEPGO_SAMPLE_READ_H */
