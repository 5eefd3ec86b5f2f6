/* values.cc: value profiling of memory operations and indirect calls.

   GCC's -fprofile-use does two things with value profiles that matter
   for real programs: it versions a memcpy/memset whose size is not a
   constant for its most common size (then expanded inline) and picks
   the expansion strategy from the average size
   (value-prof.cc:gimple_stringops_transform, stringop_block_profile);
   and it turns a hot indirect call into a guarded direct call to its
   usual target, which the inliner may then inline (ipa-profile.cc).

   latepgo profiles:
   - memop sizes as LLVM's memop value profile: per call site one value
     node per range of sizes (latepgo-abi.h, LLVM's ranges), linked at
     compile time so that counting is one add, written as value data of
     kind LP_VK_MEMOP, each range as its representative value;
   - indirect calls by target address, as LLVM and GCC do: the runtime
     keeps per call site a list of the targets called and their counts
     (latepgo-abi.h), written as LLVM's value data, in which
     latepgo-profdata and llvm-profdata turn each address into the name
     of the function there (its record's FunctionPointer).  So a hot
     target is known wherever it is defined: in another file, a C++
     virtual function, a callback from a table;
   - the function's first run: its rank in the order functions first ran
     (GCC's time profile), which -freorder-functions uses to place
     functions that run together next to each other.
   In use mode the counts become the histograms and first-run times
   GCC's own transformations read: an indirect call's targets become a
   histogram of their GCC profile ids (a hash of the target's name,
   given to every function here too), from which ipa-profile makes the
   call speculative when one target dominates (GCC's thresholds), in
   this file, or with -flto in any file of the program (not an
   indirect call in tail position whose other targets are hot:
   tail-icall.cc); a memop's sizes
   become the histograms of its most common sizes and its average
   size.  The sites are part of the checksum.  */

#include "gcc-common.h"
#include "values.h"
#include "sample-oracle.h"
#include "cfg-graph.h"
#include "value-sites.h"
#include "dump.h"
#include "entry-guard.h"
#include "names.h"
#include "arguments.h"
#include "profile-read.h"
#include "promote.h"
#include "memcmp-version.h"
#include "runtime-decls.h"
#include "section-vars.h"
#include "sample-read.h"
#include "renamed-unit.h"
#include "shard.h"
#include "tail-icall.h"
#include "value-prof.h"
#include "warning-options.h"
#include "../libprof/latepgo-abi.h"

/* The most targets of an indirect call handed to GCC (its histograms
   track up to 32).  */
#define MAX_TARGETS 16

/* The functions of this file with a body, sorted by profile name;
   built once per pass (lp_values_begin), for sample-use to find a
   callee by name.  */
struct known_fn
{
  cgraph_node *node;
  char *name;
  unsigned HOST_WIDE_INT hash;	/* MD5 of NAME, low 64 bits.  */
};
static vec<known_fn> known_fns;

/* The runtime's clock, a GC root (lp_values_roots, registered by
   plugin_init).  */
static tree clock_decl;

const struct ggc_root_tab lp_values_roots[] = {
  { &clock_decl, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static int
compare_known (const void *pa, const void *pb)
{
  return strcmp (((const known_fn *) pa)->name,
		 ((const known_fn *) pb)->name);
}

/* The profile id GCC finds indirect-call targets by (ipa-profile.cc,
   init_node_map; streamed with -flto): GCC sets it only in its own
   profiling builds, so derive it from the function's profile name's
   MD5, which is also how the profile names an indirect call's target
   (nonzero, 31 bits, as GCC's).  */

static int
profile_id_of_hash (unsigned HOST_WIDE_INT hash)
{
  return (hash & 0x7fffffff) ? (int) (hash & 0x7fffffff) : 1;
}

/* Before the first function of the pass (after lp_use_begin): the
   functions of this file, each with its profile id, so that an
   indirect call of any file of the program can be made speculative to
   it.  The id comes from the name the profile knows the function by,
   the one before its file was renamed if it was (renamed-unit.cc): a
   profile names a call's targets so.  */

void
lp_values_begin (void)
{
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    if (!lp_skip_function_p (node))
      {
	char *name = lp_known_profile_name (node);
	known_fn c = { node, name, lp_md5_low64 (name, strlen (name)) };
	known_fns.safe_push (c);
	node->profile_id = profile_id_of_hash (c.hash);
      }
  known_fns.qsort (compare_known);
}

/* The function of this file whose profile name is NAME, or NULL
   (between lp_values_begin and lp_values_end).  */

cgraph_node *
lp_known_function (const char *name)
{
  known_fn key = { NULL, CONST_CAST (char *, name), 0 };
  const known_fn *c
    = (const known_fn *) bsearch (&key, known_fns.address (),
				  known_fns.length (), sizeof (known_fn),
				  compare_known);
  return c ? c->node : NULL;
}

void
lp_values_end (void)
{
  for (known_fn &c : known_fns)
    free (c.name);
  known_fns.release ();
}

/* Whether the record of NODE should carry its address, for the
   profile to name the targets of indirect calls: when an indirect call
   may reach it (its address is taken, or it is public), and taking its
   address keeps nothing alive that would not be anyway (an inline
   function of a COMDAT group is kept only if its address is taken).  */

bool
lp_indirect_target_p (cgraph_node *node)
{
  return (node->address_taken
	  || (TREE_PUBLIC (node->decl) && !DECL_COMDAT (node->decl)
	      && !DECL_EXTERNAL (node->decl)));
}

/* Fill SITE_INDEX, per value site of G, with the index of the same site
   in a profile from before memcmp and bcmp were profiled (matched by
   G->checksum_before_cmp): the memops' indices without those calls, -1
   for them.  */

void
lp_sites_before_cmp (const lp_graph *g, vec<int> *site_index)
{
  int memops = 0;
  for (const lp_value_site &s : g->value_sites)
    site_index->safe_push (s.icall ? s.index : s.cmp ? -1 : memops++);
}

/* The declaration of the runtime helper of an indirect call, plain or
   atomic as the counters are updated: the value nodes are shared by
   all threads, whatever the counters.  */

static tree
icall_helper_decl (void)
{
  return lp_icall_helper_decl (latepgo_opts.atomic);
}

/* Before GSI: the count of the value node at byte AT of NODE (a
   pointer; struct latepgo_value_node's second u64) += 1, as a relaxed
   atomic add with ATOMIC.  */

static void
add_to_node_count (gimple_stmt_iterator *gsi, tree node, HOST_WIDE_INT at,
		   bool atomic)
{
  tree u64 = long_long_unsigned_type_node;
  tree pu64 = build_pointer_type (u64);
  if (atomic)
    {
      tree addr = make_temp_ssa_name (pu64, NULL, "PROF_value_count");
      gsi_insert_before (gsi, gimple_build_assign (addr, POINTER_PLUS_EXPR,
						   node, size_int (at + 8)),
			 GSI_SAME_STMT);
      tree f = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      gsi_insert_before (gsi, gimple_build_call
				(f, 3, addr, build_int_cst (u64, 1),
				 build_int_cst (integer_type_node,
						MEMMODEL_RELAXED)),
			 GSI_SAME_STMT);
      return;
    }
  tree ref = build2 (MEM_REF, u64, node, build_int_cst (pu64, at + 8));
  tree c = make_temp_ssa_name (u64, NULL, "PROF_value_count");
  tree c1 = make_temp_ssa_name (u64, NULL, "PROF_value_count");
  gsi_insert_before (gsi, gimple_build_assign (c, ref), GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_assign (c1, PLUS_EXPR, c,
					       build_int_cst (u64, 1)),
		     GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_assign (unshare_expr (ref), c1),
		     GSI_SAME_STMT);
}

/* Where the nodes of memop site SITE start in the current function's
   memop nodes, in bytes: after the table block (latepgo-abi.h).  */

static HOST_WIDE_INT
memop_site_at (int site)
{
  return ((HOST_WIDE_INT) sizeof (struct latepgo_value_node)
	  * LATEPGO_MEMOP_BUCKETS * (site + 1));
}

/* The address of the first node of memop site SITE in NODES.  */

static tree
memop_site_nodes (tree nodes, int site)
{
  return build_fold_addr_expr
	   (build4 (ARRAY_REF, long_long_unsigned_type_node, nodes,
		    size_int (memop_site_at (site)
			      / sizeof (unsigned long long)),
		    NULL_TREE, NULL_TREE));
}

/* A memop's inline size count (count_memop_size): its first
   statement, "IDX = MIN (SIZE, LATEPGO_MEMOP_RANGES_LAST)", its last,
   and its nodes, for lp_memop_count_branches.  */
struct memop_count
{
  gimple *clamp;
  gimple *last;
  tree nodes;
};

/* The memop counts of the current function (generate mode).  */
static vec<memop_count> memop_counts;

/* Before GSI: count SIZE (u64) at memop site SITE of the current
   function, whose memop nodes and their table block are BLOCK, inline
   (latepgo-abi.h):
     w = ((unsigned char *) &BLOCK)[8 + MIN (SIZE, LATEPGO_MEMOP_RANGES_LAST)];
     ((u64 *) &BLOCK)[w + 1 + <the site's first node, in words>] += 1;
   (the count of the range's node)
   atomically with update=atomic (the nodes are shared by all threads,
   whatever the counters).  No call: a call clobbered the caller's
   registers at every memcpy of a loop, and the table cost the STL
   bench's training run less than the call to a helper reading it.
   The table in BLOCK, not the runtime's: one address for the load
   and the add, so one register less, or one address load less, per
   count (STL training run 70.81M -> 70.59M instructions, SQLite's
   162.95M -> 162.84M).  */

static void
count_memop_size (gimple_stmt_iterator *gsi, tree block, int site,
		  tree size)
{
  tree u64 = long_long_unsigned_type_node;
  tree pu64 = build_pointer_type (u64);
  tree idx = make_temp_ssa_name (u64, NULL, "PROF_memop_idx");
  gimple *clamp = gimple_build_assign (idx, MIN_EXPR, size,
				       build_int_cst
					 (u64, LATEPGO_MEMOP_RANGES_LAST));
  gsi_insert_before (gsi, clamp, GSI_SAME_STMT);
  tree at = make_temp_ssa_name (sizetype, NULL, "PROF_memop_idx");
  gsi_insert_before (gsi, gimple_build_assign (at, NOP_EXPR, idx),
		     GSI_SAME_STMT);
  tree block_addr = build_fold_addr_expr (block);
  tree entry = make_temp_ssa_name (TREE_TYPE (block_addr), NULL,
				   "PROF_memop_table");
  gsi_insert_before (gsi, gimple_build_assign (entry, POINTER_PLUS_EXPR,
					       block_addr, at),
		     GSI_SAME_STMT);
  tree range = make_temp_ssa_name (unsigned_char_type_node, NULL,
				   "PROF_memop_words");
  tree puchar = build_pointer_type (unsigned_char_type_node);
  gsi_insert_before (gsi, gimple_build_assign
			    (range, build2 (MEM_REF, unsigned_char_type_node,
					    entry,
					    build_int_cst
					      (puchar,
					       LATEPGO_MEMOP_TABLE_AT))),
		     GSI_SAME_STMT);
  tree off = make_temp_ssa_name (sizetype, NULL, "PROF_memop_off");
  gsi_insert_before (gsi, gimple_build_assign (off, NOP_EXPR, range),
		     GSI_SAME_STMT);
  tree bytes = make_temp_ssa_name (sizetype, NULL, "PROF_memop_off");
  gsi_insert_before (gsi, gimple_build_assign
			    (bytes, MULT_EXPR, off,
			     size_int (sizeof (unsigned long long))),
		     GSI_SAME_STMT);
  tree node = make_temp_ssa_name (pu64, NULL, "PROF_memop_node");
  gsi_insert_before (gsi, gimple_build_assign (node, POINTER_PLUS_EXPR,
					       block_addr, bytes),
		     GSI_SAME_STMT);
  add_to_node_count (gsi, node, memop_site_at (site), latepgo_opts.atomic);
  gimple_stmt_iterator last = *gsi;
  gsi_prev (&last);
  memop_count m = { clamp, gsi_stmt (last),
		    memop_site_nodes (block, site) };
  memop_counts.safe_push (m);
}

/* Generate mode, once the function's counters are in (the CFG may
   change): turn the clamp of each memop size count into a branch,
     if (SIZE > LATEPGO_MEMOP_RANGES_LAST) <count the last range's node>
     else <the count, with IDX = SIZE>
   A compare and a branch the size almost never takes, where MIN_EXPR
   was a constant moved into a register, a compare and a conditional
   move, in a register more (STL training run: 70.95M -> 70.81M
   instructions).  */

void
lp_memop_count_branches (void)
{
  if (memop_counts.is_empty ())
    return;
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  for (const memop_count &m : memop_counts)
    {
      basic_block bb = gimple_bb (m.clamp);
      gimple_stmt_iterator gsi = gsi_for_stmt (m.clamp);
      gsi_prev (&gsi);
      edge to_count = (gsi_end_p (gsi) ? split_block_after_labels (bb)
		       : split_block (bb, gsi_stmt (gsi)));
      basic_block count_bb = to_count->dest;
      edge to_join = split_block (count_bb, m.last);
      basic_block join = to_join->dest;

      /* BB: if (SIZE > LAST) -> BIG_BB.  */
      tree size = gimple_assign_rhs1 (m.clamp);
      tree last = gimple_assign_rhs2 (m.clamp);
      gsi = gsi_last_bb (bb);
      gcond *cond = gimple_build_cond (GT_EXPR, size, last, NULL_TREE,
				       NULL_TREE);
      if (gsi_end_p (gsi))
	{
	  gsi = gsi_start_bb (bb);
	  gsi_insert_before (&gsi, cond, GSI_NEW_STMT);
	}
      else
	gsi_insert_after (&gsi, cond, GSI_NEW_STMT);
      to_count->flags = (to_count->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
      to_count->probability = profile_probability::very_likely ();
      basic_block big_bb = create_empty_bb (bb);
      if (current_loops)
	add_bb_to_loop (big_bb, bb->loop_father);
      edge to_big = make_edge (bb, big_bb, EDGE_TRUE_VALUE);
      to_big->probability = profile_probability::very_unlikely ();
      big_bb->count = bb->count.apply_probability (to_big->probability);
      count_bb->count = bb->count - big_bb->count;
      edge big_to_join = make_edge (big_bb, join, EDGE_FALLTHRU);
      big_to_join->probability = profile_probability::always ();

      /* BIG_BB: the last range's node, at a constant offset.  */
      gsi = gsi_start_bb (big_bb);
      gimple *nop = gimple_build_nop ();
      gsi_insert_before (&gsi, nop, GSI_NEW_STMT);
      tree nodes = make_temp_ssa_name (TREE_TYPE (m.nodes), NULL,
				       "PROF_memop_node");
      gsi_insert_before (&gsi, gimple_build_assign (nodes, m.nodes),
			 GSI_SAME_STMT);
      add_to_node_count (&gsi, nodes,
			 (HOST_WIDE_INT) sizeof (struct latepgo_value_node)
			 * (LATEPGO_MEMOP_BUCKETS - 1), latepgo_opts.atomic);
      gsi_remove (&gsi, true);

      /* COUNT_BB: IDX = SIZE.  */
      gsi = gsi_for_stmt (m.clamp);
      gimple_assign_set_rhs_from_tree (&gsi, size);
      update_stmt (gsi_stmt (gsi));
    }
  memop_counts.truncate (0);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
}

/* A static variable PREFIX<fn> of TYPE for the values of the current
   function (NODE): TU-local, 64-bit aligned, in SECTION unless NULL;
   the caller gives it its initializer and finalizes it.  */

static tree
build_value_var (cgraph_node *node, const char *prefix, tree type,
		 const char *section)
{
  char *name = concat (prefix, lp_symbol_name (node->decl), NULL);
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
			 type);
  free (name);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  TREE_ADDRESSABLE (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  SET_DECL_ALIGN (var, 64);
  if (section)
    set_decl_section_name (var, section);
  return var;
}

/* The value nodes of the memop sites of the current function (NODE),
   SITES of them, after their table block (latepgo-abi.h):
   u64 __profvm_<fn>[(SITES + 1) * 3 * LATEPGO_MEMOP_BUCKETS] in
   LATEPGO_SEC_VMOP: the table block, its reference to the runtime's
   LATEPGO_MEMOP_TABLES_SYMBOL and the node words of each size up to
   LATEPGO_MEMOP_RANGES_LAST (bytes, in u64s, x86_64's little-endian
   order), then the sites' nodes as u64 triples (value, count, next),
   each site's holding its ranges' representative values, count 0 and
   no link: the runtime links them, so that the object needs no
   relocation for them.  8-aligned and never more (DECL_USER_ALIGN):
   the runtime reads the section as one array of blocks.  */

static tree
build_memop_nodes (cgraph_node *node, int sites)
{
  tree u64 = long_long_unsigned_type_node;
  const int block_words = 3 * LATEPGO_MEMOP_BUCKETS;
  int words = block_words * (sites + 1);
  tree type = build_array_type (u64, build_index_type (size_int (words - 1)));
  tree var = build_value_var (node, "__profvm_", type, LATEPGO_SEC_VMOP);
  DECL_USER_ALIGN (var) = 1;
  vec<constructor_elt, va_gc> *elts = NULL;
  CONSTRUCTOR_APPEND_ELT (elts, size_int (0),
			  fold_convert (u64, lp_build_addr_diff
					       (lp_memop_tables_decl (), var)));
  gcc_assert (!BYTES_BIG_ENDIAN
	      && LATEPGO_MEMOP_TABLE_AT + LATEPGO_MEMOP_RANGES_LAST + 1
		 <= 8 * block_words);
  for (int w = LATEPGO_MEMOP_TABLE_AT / 8; w < block_words; w++)
    {
      unsigned HOST_WIDE_INT bytes = 0;
      for (int b = 7; b >= 0; b--)
	{
	  int size = 8 * w + b - LATEPGO_MEMOP_TABLE_AT;
	  bytes <<= 8;
	  if (size <= LATEPGO_MEMOP_RANGES_LAST)
	    bytes |= 3 * latepgo_memop_bucket (size);
	}
      if (bytes)
	CONSTRUCTOR_APPEND_ELT (elts, size_int (w), build_int_cstu (u64, bytes));
    }
  for (int n = 0; n < LATEPGO_MEMOP_BUCKETS * sites; n++)
    CONSTRUCTOR_APPEND_ELT (elts, size_int (block_words + 3 * n),
			    build_int_cstu (u64, latepgo_memop_bucket_min
						   (n % LATEPGO_MEMOP_BUCKETS)));
  DECL_INITIAL (var) = build_constructor (type, elts);
  varpool_node::finalize_decl (var);
  return var;
}

/* The first nodes of the current function's indirect-call sites, one
   per site (u64 __profvn_<fn>[3 * sites], zero: value, count, next of
   each), or NULL_TREE; set by build_site_heads for
   lp_inline_icall_targets.  */
static tree first_nodes;

/* The site index of each indirect-call helper call of the current
   function (lp_instrument_values), for lp_inline_icall_targets.  */
static hash_map<gimple *, int> *icall_site_index;

/* The list heads of the value sites of G (of the current function,
   NODE): void *__profvp_<fn>[G's indirect calls + memops], in
   LATEPGO_SEC_VALS (latepgo-abi.h), those of the memops the first of
   their nodes in MEMOP_NODES, those of the indirect calls their own
   first node in FIRST_NODES (__profvn_<fn>, zero, in .bss), reserved
   here so that the inline check of a call's first target needs neither
   a head's load nor its null test: the node's address is a link-time
   constant.  Its value 0 says that no target has taken it yet; the
   runtime gives it to the site's first target.  The cost is a dynamic
   relocation per site in a PIE; passing the first node to the runtime
   instead, for it to link on the site's first call, left the heads
   zero but made every later call of the runtime dearer: SQLite's
   training run (bench small input) 163.39M instructions this way,
   164.14M that way, 165.93M before either.  */

static tree
build_site_heads (cgraph_node *node, const lp_graph *g, tree memop_nodes)
{
  tree u64 = long_long_unsigned_type_node;
  int heads = g->n_icall_sites + g->n_memop_sites;
  tree type = build_array_type (ptr_type_node,
				build_index_type (size_int (heads - 1)));
  tree var = build_value_var (node, "__profvp_", type, LATEPGO_SEC_VALS);
  vec<constructor_elt, va_gc> *elts = NULL;
  if (g->n_icall_sites)
    {
      tree ntype = build_array_type (u64, build_index_type
					    (size_int (3 * g->n_icall_sites
						       - 1)));
      first_nodes = build_value_var (node, "__profvn_", ntype, NULL);
      DECL_INITIAL (first_nodes) = build_constructor (ntype, NULL);
      varpool_node::finalize_decl (first_nodes);
      for (int i = 0; i < g->n_icall_sites; i++)
	CONSTRUCTOR_APPEND_ELT (elts, size_int (i),
				fold_convert (ptr_type_node,
					      fold_build_pointer_plus_hwi
						(build_fold_addr_expr
						   (first_nodes), 3 * 8 * i)));
    }
  for (int m = 0; m < g->n_memop_sites; m++)
    CONSTRUCTOR_APPEND_ELT (elts, size_int (g->n_icall_sites + m),
			    fold_convert (ptr_type_node,
					  memop_site_nodes (memop_nodes, m)));
  DECL_INITIAL (var) = build_constructor (type, elts);
  varpool_node::finalize_decl (var);
  return var;
}

/* Value sites a lean build of this file left unprofiled.  */
static unsigned lean_icall_sites, lean_memop_sites;

/* Say once per file that a lean build left indirect calls or memops
   unprofiled: a use build will not promote or version them.  */

void
lp_values_lean_warning (void)
{
  if (lean_icall_sites)
    warning (lp_warning_option (LP_WARN_LEAN_ICALL),
	     "latepgo: lean builds do not profile indirect-call targets: "
	     "%u indirect calls of this file will not be promoted; "
	     "train without %<-fplugin-arg-latepgo-lean%> to profile them",
	     lean_icall_sites);
  if (lean_memop_sites)
    warning (lp_warning_option (LP_WARN_LEAN_MEMOP),
	     "latepgo: lean builds do not profile memop sizes: %u memcpy, "
	     "memmove, mempcpy, memset, bzero, memcmp or bcmp calls of this "
	     "file will not be versioned for their usual size; train without "
	     "%<-fplugin-arg-latepgo-lean%> to profile them",
	     lean_memop_sites);
  lean_icall_sites = lean_memop_sites = 0;
}

/* Generate mode: before each site of G, count its value: a memop's size
   into the site's nodes, an indirect call's target into its list, by
   the runtime helpers.  Returns the list heads of the function (NODE)
   or NULL_TREE if it has no value sites (or a lean build leaves them
   unprofiled).  */

tree
lp_instrument_values (cgraph_node *node, lp_graph *g)
{
  tree u64 = long_long_unsigned_type_node;
  unsigned i;
  lp_value_site *s;

  first_nodes = NULL_TREE;
  if (icall_site_index)
    icall_site_index->empty ();
  /* A lean build has no records, through which the runtime finds the
     nodes and names the targets (doc/lean.md): it profiles no values,
     and says so (lp_values_lean_warning) unless no-values asked it.  */
  if (latepgo_opts.lean_dropped_values)
    {
      lean_icall_sites += g->n_icall_sites;
      lean_memop_sites += g->n_memop_sites;
    }
  if (!g->values)
    return NULL_TREE;
  if (!g->n_icall_sites && !g->n_memop_sites)
    return NULL_TREE;
  tree memop_nodes = (g->n_memop_sites
		      ? build_memop_nodes (node, g->n_memop_sites)
		      : NULL_TREE);
  tree heads = build_site_heads (node, g, memop_nodes);
  FOR_EACH_VEC_ELT (g->value_sites, i, s)
    {
      gimple *stmt = s->stmt;
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      if (s->icall)
	{
	  tree target = gimple_call_fn (stmt);
	  if (TREE_CODE (target) == OBJ_TYPE_REF)
	    target = OBJ_TYPE_REF_EXPR (target);
	  tree fn = make_temp_ssa_name (ptr_type_node, NULL, "PROF_icall_fn");
	  gsi_insert_before (&gsi, gimple_build_assign (fn, NOP_EXPR, target),
			     GSI_SAME_STMT);
	  tree head = build4 (ARRAY_REF, ptr_type_node, heads,
			      build_int_cst (integer_type_node, s->index),
			      NULL_TREE, NULL_TREE);
	  gcall *call = gimple_build_call (icall_helper_decl (), 2, fn,
					   build_fold_addr_expr (head));
	  if (!icall_site_index)
	    icall_site_index = new hash_map<gimple *, int>;
	  icall_site_index->put (call, s->index);
	  gimple_set_location (call, gimple_location (stmt));
	  gsi_insert_before (&gsi, call, GSI_SAME_STMT);
	}
      else
	{
	  int size_arg;
	  lp_memop_site_p (stmt, &size_arg);
	  tree size64 = make_temp_ssa_name (u64, NULL, "PROF_memop_size");
	  gsi_insert_before (&gsi, gimple_build_assign
				     (size64, NOP_EXPR,
				      gimple_call_arg (stmt, size_arg)),
			     GSI_SAME_STMT);
	  count_memop_size (&gsi, memop_nodes, s->index, size64);
	}
    }
  return heads;
}

/* At the end of BB, "if (LHS CODE RHS)": true to a new block, which it
   returns, false to ELSE_BB; TAKEN is the share of BB's executions
   that go to the new block.  ELSE_BB's count grows by the others.  */

static basic_block
branch_to_new_block (basic_block bb, enum tree_code code, tree lhs,
		     tree rhs, basic_block else_bb, profile_probability taken)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  gsi_insert_after (&gsi, gimple_build_cond (code, lhs, rhs,
					     NULL_TREE, NULL_TREE),
		    GSI_NEW_STMT);
  basic_block next = create_empty_bb (bb);
  if (current_loops)
    add_bb_to_loop (next, bb->loop_father);
  edge e = make_edge (bb, next, EDGE_TRUE_VALUE);
  e->probability = taken;
  edge other = make_edge (bb, else_bb, EDGE_FALSE_VALUE);
  other->probability = taken.invert ();
  next->count = bb->count.apply_probability (taken);
  else_bb->count += bb->count.apply_probability (other->probability);
  return next;
}

/* The u64 field at byte OFFSET (latepgo-abi.h, struct
   latepgo_value_node: value 0, count 8, next 16) of the node at byte
   AT of NODE, loaded at the end of BB into a new SSA name of TYPE.  */

static tree
load_node_field (basic_block bb, tree node, HOST_WIDE_INT at, int offset,
		 tree type, const char *name)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  tree v = make_temp_ssa_name (type, NULL, name);
  gimple *g = gimple_build_assign
    (v, build2 (MEM_REF, type, node,
		build_int_cst (build_pointer_type (type), at + offset)));
  if (gsi_end_p (gsi))
    {
      gsi = gsi_start_bb (bb);
      gsi_insert_after (&gsi, g, GSI_NEW_STMT);
    }
  else
    gsi_insert_after (&gsi, g, GSI_NEW_STMT);
  return v;
}

/* HIT_BB (empty): the count of the node at byte AT of NODE += 1
   (atomically with ATOMIC), then on to JOIN.  */

static void
count_node (basic_block hit_bb, tree node, HOST_WIDE_INT at, bool atomic,
	    basic_block join)
{
  gimple_stmt_iterator gsi = gsi_start_bb (hit_bb);
  add_to_node_count (&gsi, node, at, atomic);
  make_single_succ_edge (hit_bb, join, EDGE_FALLTHRU);
}

/* How many nodes of a site's list inline_first_targets tests inline.
   Training runs (callgrind, the bench's small inputs), instructions
   and text size with 2 / 3 / 4 nodes: stl 72.39M / 70.64M / 70.37M
   (104,437 / 104,500 / 104,596 bytes), sqlite 166.28M / 165.93M /
   166.01M (1,439,199 / 1,447,743 / 1,457,479), json 349.58M /
   349.14M (2 / 3).  Three covers a virtual call with three kinds and
   most of std::function's four lambdas in stl.  */
#define INLINE_TARGET_NODES 3

/* Before the helper call CALL (lp_instrument_values) of an indirect
   call of site index SITE, the runtime's most common cases inline, its
   first INLINE_TARGET_NODES nodes, the first one at a constant address
   (build_site_heads):
     if (FIRST.value == (u64) TARGET) { FIRST.count += 1; goto done; }
     n = FIRST.next;
     if (n != 0 && n->value == (u64) TARGET) { n->count += 1; goto done; }
     n = n->next;
     if (n != 0 && n->value == (u64) TARGET) { n->count += 1; goto done; }
     helper (TARGET, &__profvp_<fn>[SITE]);
   done:
   (counts added atomically with update=atomic).  A call that keeps
   going to a few targets (std::function members, the kinds of a
   virtual call) then costs a few loads and compares instead of a call
   that clobbers the caller's registers.  */

static void
inline_first_targets (gcall *call, int site, bool atomic)
{
  tree u64 = long_long_unsigned_type_node;
  tree target = gimple_call_arg (call, 0);
  basic_block cond_bb = gimple_bb (call);

  /* COND_BB -> CALL_BB (the helper alone) -> JOIN.  */
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_prev (&gsi);
  edge to_call = (gsi_end_p (gsi) ? split_block_after_labels (cond_bb)
		  : split_block (cond_bb, gsi_stmt (gsi)));
  basic_block call_bb = to_call->dest;
  edge to_join = split_block (call_bb, call);
  basic_block join = to_join->dest;
  remove_edge (to_call);

  /* COND_BB: want = (u64) TARGET.  The first node is the site's in
     FIRST_NODES (build_site_heads), at a constant address.  */
  gsi = gsi_last_bb (cond_bb);
  tree want = make_temp_ssa_name (u64, NULL, "PROF_icall_value");
  gimple *g = gimple_build_assign (want, NOP_EXPR, target);
  if (gsi_end_p (gsi))
    {
      gsi = gsi_start_bb (cond_bb);
      gsi_insert_before (&gsi, g, GSI_NEW_STMT);
    }
  else
    gsi_insert_after (&gsi, g, GSI_NEW_STMT);
  call_bb->count = profile_count::zero ();
  basic_block node_bb = cond_bb;
  tree node = build_fold_addr_expr (first_nodes);
  HOST_WIDE_INT at = 3 * 8 * (HOST_WIDE_INT) site;
  for (int k = 0; k < INLINE_TARGET_NODES; k++)
    {
      /* CMP_BB: if (node->value == want) -> HIT_BB, else on to the next
	 node or (the last one) the helper.  Past the first, NODE_BB
	 tests the node first: if (node != 0) -> CMP_BB.  */
      basic_block cmp_bb = node_bb;
      if (k > 0)
	cmp_bb = branch_to_new_block (node_bb, NE_EXPR, node,
				      null_pointer_node, call_bb,
				      profile_probability::even ());
      tree value = load_node_field (cmp_bb, node, at, 0, u64,
				    "PROF_icall_value");
      basic_block next_bb = call_bb;
      bool last = k == INLINE_TARGET_NODES - 1;
      if (!last)
	{
	  next_bb = create_empty_bb (cmp_bb);
	  if (current_loops)
	    add_bb_to_loop (next_bb, cmp_bb->loop_father);
	  next_bb->count = profile_count::zero ();
	}
      basic_block hit_bb
	= branch_to_new_block (cmp_bb, EQ_EXPR, value, want, next_bb,
			       profile_probability::likely ());
      count_node (hit_bb, node, at, atomic, join);
      if (!last)
	{
	  node = load_node_field (next_bb, node, at, 16, ptr_type_node,
				  "PROF_icall_node");
	  at = 0;
	  node_bb = next_bb;
	}
    }
}

/* Generate mode, once the function's counters are in: give each
   indirect call's helper call its inline first-target path
   (inline_first_targets).  */

void
lp_inline_icall_targets (void)
{
  tree plain = lp_icall_helper_decl (false);
  tree atomic = lp_icall_helper_decl (true);
  auto_vec<gcall *> calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gcall *call = dyn_cast <gcall *> (gsi_stmt (gsi)))
	{
	  tree fn = gimple_call_fndecl (call);
	  if (fn && (fn == plain || fn == atomic))
	    calls.safe_push (call);
	}
  if (calls.is_empty ())
    return;
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  for (gcall *call : calls)
    inline_first_targets (call, *icall_site_index->get (call),
			  gimple_call_fndecl (call) == atomic);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
}

/* A representative size of memop bucket B, for the average: the size
   itself where the bucket is one size, the middle of a range, and 1024
   for "513 and more" (large enough for GCC to call the library).  */

static gcov_type
bucket_value (unsigned b)
{
  unsigned long long lo = latepgo_memop_bucket_min (b);
  if (b == LATEPGO_MEMOP_BUCKETS - 1)
    return 1024;
  unsigned long long hi = latepgo_memop_bucket_min (b + 1) - 1;
  return (lo + hi) / 2;
}

/* Whether memop bucket B holds one size only.  */

static bool
exact_bucket_p (unsigned b)
{
  return (b < LATEPGO_MEMOP_BUCKETS - 1
	  && latepgo_memop_bucket_min (b + 1) == latepgo_memop_bucket_min (b) + 1);
}

/* Write the nonzero COUNT per memop bucket to DUMP, " SIZE:N" for a
   bucket of one size, " SIZE+:N" for a range from SIZE.  */

static void
dump_bucket_counts (FILE *dump, const gcov_type *count)
{
  for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
    if (count[b])
      fprintf (dump, " %llu%s:%" PRId64, latepgo_memop_bucket_min (b),
	       exact_bucket_p (b) ? "" : "+", (int64_t) count[b]);
}

/* A histogram of TYPE on STMT for VALUE with N counters.  */

static histogram_value
add_histogram (gimple *stmt, enum hist_type type, tree value, unsigned n)
{
  histogram_value h = gimple_alloc_histogram_value (cfun, type, stmt, value);
  h->n_counters = n;
  h->hvalue.counters = XCNEWVEC (gcov_type, n);
  gimple_add_histogram_value (cfun, stmt, h);
  return h;
}

/* Fill the TOPN-format histogram H (all, number of pairs, then value and
   count pairs, most common first) from the N (VALUE, COUNT) pairs.  */

static void
fill_topn (histogram_value h, gcov_type all, gcov_type *value,
	   gcov_type *count, unsigned n)
{
  /* Insertion sort by count: N is at most 16.  */
  unsigned order[MAX_TARGETS + LATEPGO_MEMOP_BUCKETS];
  for (unsigned i = 0; i < n; i++)
    {
      unsigned j = i;
      for (; j > 0 && count[order[j - 1]] < count[i]; j--)
	order[j] = order[j - 1];
      order[j] = i;
    }
  h->hvalue.counters[0] = all;
  h->hvalue.counters[1] = n;
  for (unsigned i = 0; i < n; i++)
    {
      h->hvalue.counters[2 + 2 * i] = value[order[i]];
      h->hvalue.counters[3 + 2 * i] = count[order[i]];
    }
}

/* V of TOTAL profiled events as a share of ALL, the count of the
   site's block (GCC checks histograms against it), rounded.  */

static gcov_type
scale_to_block (gcov_type v, gcov_type total, gcov_type all)
{
  return MIN ((gcov_type) ((double) v * all / total + 0.5), all);
}

/* The name of the function of this file whose profile name has MD5
   HASH, for dumps; NULL if there is none.  */

static const char *
known_name (unsigned HOST_WIDE_INT hash)
{
  for (const known_fn &c : known_fns)
    if (c.hash == hash)
      return lp_symbol_name (c.node->decl);
  return NULL;
}

/* Use mode: attach to the indirect call S (site SITE of its function)
   the histogram of the targets of REC's indirect call ICALL (value
   data), the most called first, scaled to the
   call's block count; a target in another file counts as well as one
   of this file (ipa-profile finds it by profile id with -flto).  */

static void
annotate_icall (const lp_value_site *s, int icall, unsigned site,
		const lp_profile_record *rec, FILE *dump)
{
  lp_value_count v[MAX_TARGETS];
  gcov_type total = 0;
  unsigned n = lp_profile_icall_targets (rec, icall, v, MAX_TARGETS, &total);
  for (unsigned k = 0; k < n; k++)
    lp_oracle_note_icall (s->stmt, v[k].value, v[k].count);
  if (dump)
    {
      fprintf (dump, "  value site %u targets", site);
      for (unsigned k = 0; k < n; k++)
	{
	  const char *name = known_name (v[k].value);
	  if (name)
	    fprintf (dump, " %s:%" PRId64, name, (int64_t) v[k].count);
	  else
	    fprintf (dump, " %016" PRIx64 ":%" PRId64, (uint64_t) v[k].value,
		     (int64_t) v[k].count);
	}
      fputc ('\n', dump);
    }
  profile_count bbc = gimple_bb (s->stmt)->count.ipa ();
  if (n == 0 || total <= 0 || !bbc.initialized_p ()
      || bbc.to_gcov_type () <= 0)
    return;
  gcov_type all = bbc.to_gcov_type ();
  gcov_type value[MAX_TARGETS], count[MAX_TARGETS], top = 0;
  for (unsigned k = 0; k < n; k++)
    {
      value[k] = profile_id_of_hash (v[k].value);
      count[k] = scale_to_block (v[k].count, total, all);
      top = MAX (top, count[k]);
    }
  if (lp_tail_icall_unpromoted_p (s->stmt, all, top))
    {
      if (dump)
	fprintf (dump, "  value site %u not promoted: tail call, other "
		 "targets %" PRId64 " calls\n", site, (int64_t) (all - top));
      return;
    }
  fill_topn (add_histogram (s->stmt, HIST_TYPE_INDIR_CALL,
			    gimple_call_fn (s->stmt), 2 + 2 * n),
	     all, value, count, n);
}

/* Use mode: attach to each site of G the histograms native
   -fprofile-use would have read from its value profile in REC, scaled
   to the site's annotated block count so that GCC's consistency checks
   hold even for racy training counts: for a memop the most common
   exact sizes and the average size, for an indirect call its targets.
   Then run GCC's value transformations (ipa-profile later makes the
   indirect calls speculative).  SITE_INDEX, unless NULL, gives each
   site's index among REC's sites of its kind, or -1 for a site REC
   does not describe (salvage.cc: a changed function's sites found in
   its training version); NULL: the sites of each kind are REC's in
   order.  */

void
lp_annotate_values (lp_graph *g, const lp_profile_record *rec,
		    const int *site_index, FILE *dump)
{
  unsigned i;
  lp_value_site *s;
  bool any_memop = false;

  if (!g->values)
    return;
  FOR_EACH_VEC_ELT (g->value_sites, i, s)
    {
      gcov_type c[LATEPGO_MEMOP_BUCKETS], total = 0;
      int index = site_index ? site_index[i] : s->index;
      if (index < 0)
	continue;
      if (s->icall)
	{
	  annotate_icall (s, index, i, rec, dump);
	  continue;
	}
      lp_profile_memop_sizes (rec, index, c);
      for (int b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
	total += c[b];
      if (dump)
	{
	  fprintf (dump, "  value site %u sizes", i);
	  dump_bucket_counts (dump, c);
	  fputc ('\n', dump);
	}
      for (int b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
	lp_oracle_note_size (s->stmt, bucket_value (b), c[b]);
      profile_count bbc = gimple_bb (s->stmt)->count.ipa ();
      if (total <= 0 || !bbc.initialized_p () || bbc.to_gcov_type () <= 0)
	continue;
      gcov_type all = bbc.to_gcov_type ();
      auto scale = [all, total] (gcov_type v) -> gcov_type
	{
	  return scale_to_block (v, total, all);
	};
      if (s->cmp)
	{
	  /* GCC has no transformation of its own for these: ours runs
	     after inlining (memcmp-version.cc).  */
	  gcov_type scaled[LATEPGO_MEMOP_BUCKETS];
	  for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
	    scaled[b] = scale (c[b]);
	  lp_memcmp_attach_sizes (s->stmt, scaled, all);
	  continue;
	}

      gcov_type value[LATEPGO_MEMOP_BUCKETS];
      gcov_type count[LATEPGO_MEMOP_BUCKETS];
      unsigned n = 0;

      int size_arg;
      lp_memop_site_p (s->stmt, &size_arg);
      tree size = gimple_call_arg (s->stmt, size_arg);
      gcov_type sum = 0;
      for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
	{
	  sum += scale (c[b]) * bucket_value (b);
	  if (c[b] && exact_bucket_p (b))
	    {
	      value[n] = latepgo_memop_bucket_min (b);
	      count[n++] = scale (c[b]);
	    }
	}
      fill_topn (add_histogram (s->stmt, HIST_TYPE_TOPN_VALUES, size,
				2 + 2 * n), all, value, count, n);
      histogram_value avg = add_histogram (s->stmt, HIST_TYPE_AVERAGE,
					   size, 2);
      avg->hvalue.counters[0] = sum;
      avg->hvalue.counters[1] = all;
      any_memop = true;
    }

  if (any_memop)
    lp_run_memop_transforms ();
}

/* Run GCC's value transformations on the current function, whose memop
   calls have histograms: version a call for its most common size.  */

void
lp_run_memop_transforms (void)
{
  if (!flag_value_profile_transformations)
    return;
  /* Dominators computed while the fake edges were in are stale, and the
     transformations split blocks.  */
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  /* The versioned calls need their virtual operands renamed, as
     tree_profiling's final update does.  */
  if (gimple_value_profile_transformations () && need_ssa_update_p (cfun))
    update_ssa (TODO_update_ssa);
  free_dominance_info (CDI_DOMINATORS);
}

/* The fewest samples of a memop call's sizes that sample-use acts on:
   with fewer, one stalled call could decide the most common size.  */
#define MIN_SIZE_SAMPLES 4

/* Sample-use mode: attach to the memop call STMT the histograms of its
   sizes from the N (size, samples) pairs a sample profile saw at the
   call (latepgo-profgen: samples at the call instruction), scaled to
   the call's block count: the most common exact sizes and the average
   size, as an instrumented profile would give, so that GCC versions
   the call for a dominant size and picks the expansion for the
   average.  Only calls whose size is the third argument (DX at the
   call) qualify.  A memcmp or bcmp call gets its counts per memop
   bucket instead, as from an instrumented profile, for
   memcmp-version.cc.  Returns whether histograms were attached.  */

bool
lp_annotate_sampled_memop (gimple *stmt, const lp_size_count *sizes,
			   unsigned n, FILE *dump)
{
  int size_arg;
  if (!lp_memop_site_p (stmt, &size_arg) || size_arg != 2)
    return false;
  gcov_type total = 0;
  for (unsigned i = 0; i < n; i++)
    total += sizes[i].count;
  profile_count bbc = gimple_bb (stmt)->count.ipa ();
  if (total < MIN_SIZE_SAMPLES || !bbc.initialized_p ()
      || bbc.to_gcov_type () <= 0)
    return false;
  gcov_type all = bbc.to_gcov_type ();

  if (lp_memcmp_call_p (stmt))
    {
      gcov_type bucket[LATEPGO_MEMOP_BUCKETS] = {};
      for (unsigned i = 0; i < n; i++)
	bucket[latepgo_memop_bucket (sizes[i].size)]
	  += scale_to_block (sizes[i].count, total, all);
      lp_memcmp_attach_sizes (stmt, bucket, all);
      if (dump)
	dump_bucket_counts (dump, bucket);
      return true;
    }

  /* The most common sizes (fill_topn orders them); a size beyond any
     stringop strategy counts as 1 MiB in the average, which then cannot
     overflow.  */
  const unsigned max_values = 8;
  gcov_type value[max_values], count[max_values];
  unsigned nv = 0;
  double sum = 0;
  for (unsigned i = 0; i < n; i++)
    {
      gcov_type c = scale_to_block (sizes[i].count, total, all);
      sum += (double) c * MIN (sizes[i].size,
			       (unsigned HOST_WIDE_INT) 1 << 20);
      /* No size beyond INT_MAX is a real copy: not a value to test.  */
      if (sizes[i].size > INT_MAX)
	continue;
      /* Keep the MAX_VALUES largest: replace the smallest kept.  */
      unsigned k = nv;
      if (nv == max_values)
	{
	  k = 0;
	  for (unsigned j = 1; j < nv; j++)
	    if (count[j] < count[k])
	      k = j;
	  if (count[k] >= c)
	    continue;
	}
      else
	nv++;
      value[k] = (gcov_type) sizes[i].size;
      count[k] = c;
    }
  tree size = gimple_call_arg (stmt, size_arg);
  histogram_value h = add_histogram (stmt, HIST_TYPE_TOPN_VALUES, size,
				     2 + 2 * nv);
  fill_topn (h, all, value, count, nv);
  histogram_value avg = add_histogram (stmt, HIST_TYPE_AVERAGE, size, 2);
  avg->hvalue.counters[0] = (gcov_type) (sum + 0.5);
  avg->hvalue.counters[1] = all;
  if (dump && nv)
    fprintf (dump, " most-common=%" PRId64 ":%" PRId64,
	     (int64_t) h->hvalue.counters[2], (int64_t) h->hvalue.counters[3]);
  if (dump)
    fprintf (dump, " average=%" PRId64,
	     (int64_t) ((avg->hvalue.counters[0] + all / 2) / all));
  return true;
}

/* Sample-use mode: attach to the indirect call STMT the N callees a
   sample profile saw it reach (TARGETS, in samples), as the histogram
   of the instrumented profile would be, scaled to the call's block
   count: ipa-profile then makes the call speculative when one callee
   has most of the samples.  Callees not defined here (so that GCC
   could not call them directly) still count in the total.  Returns the
   number of callees attached.  */

int
lp_annotate_sampled_icall (gimple *stmt, const lp_call_target *targets,
			   unsigned n, FILE *dump)
{
  if (!lp_icall_site_p (stmt) || n == 0)
    return 0;
  profile_count bbc = gimple_bb (stmt)->count.ipa ();
  if (!bbc.initialized_p () || bbc.to_gcov_type () <= 0)
    return 0;
  gcov_type all = bbc.to_gcov_type ();
  gcov_type total = 0;
  for (unsigned i = 0; i < n; i++)
    total += targets[i].count;
  if (total <= 0)
    return 0;

  gcov_type value[MAX_TARGETS], count[MAX_TARGETS];
  unsigned k = 0;
  for (unsigned i = 0; i < n && k < MAX_TARGETS; i++)
    {
      cgraph_node *node = lp_known_function (targets[i].name);
      if (dump)
	fprintf (dump, " %s:%" PRId64 "%s", targets[i].name,
		 (int64_t) targets[i].count, node ? "" : "(not here)");
      if (!node || targets[i].count <= 0)
	continue;
      value[k] = node->profile_id;
      count[k++] = scale_to_block (targets[i].count, total, all);
    }
  if (k)
    fill_topn (add_histogram (stmt, HIST_TYPE_INDIR_CALL,
			      gimple_call_fn (stmt), 2 + 2 * k),
	       all, value, count, k);
  return k;
}

/* extern hidden unsigned long long __latepgo_first_run_clock.  */

static tree
get_clock_decl (void)
{
  if (clock_decl)
    return clock_decl;
  clock_decl = lp_runtime_var_decl (LATEPGO_CLOCK_SYMBOL,
				    long_long_unsigned_type_node);
  TREE_ADDRESSABLE (clock_decl) = 1;
  return clock_decl;
}

/* Generate mode: at the entry of the current function,
     if (COUNTERS[last] == 0) COUNTERS[last] = ++__latepgo_first_run_clock;
   as GCC's time profiler (tree-profile.cc:gimple_gen_time_profiler).
   The clock is incremented atomically with update=atomic; otherwise a
   race between threads can only give two functions the same rank.  */

void
lp_instrument_first_run (lp_graph *g, tree counters)
{
  if (!g->values || !g->first_run)
    return;
  tree u64 = long_long_unsigned_type_node;
  tree ref = lp_counter_home_ref (counters,
				 build_int_cst (integer_type_node,
						lp_record_counters (g) - 1));
  tree clock = get_clock_decl ();

  basic_block cond_bb, update_bb, join_bb;
  edge skip;
  lp_entry_guard (&cond_bb, &update_bb, &join_bb, &skip);

  gimple_stmt_iterator gsi = gsi_start_bb (cond_bb);
  tree cur = make_temp_ssa_name (u64, NULL, "PROF_first_run");
  gsi_insert_after (&gsi, gimple_build_assign (cur, ref), GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_cond (EQ_EXPR, cur,
					     build_int_cst (u64, 0),
					     NULL_TREE, NULL_TREE),
		    GSI_NEW_STMT);

  gsi = gsi_start_bb (update_bb);
  tree now = make_temp_ssa_name (u64, NULL, "PROF_first_run");
  if (latepgo_opts.atomic)
    {
      tree f = builtin_decl_explicit (BUILT_IN_ATOMIC_ADD_FETCH_8);
      gcall *call = gimple_build_call (f, 3, build_fold_addr_expr (clock),
				       build_int_cst (u64, 1),
				       build_int_cst (integer_type_node,
						      MEMMODEL_RELAXED));
      gimple_call_set_lhs (call, now);
      gsi_insert_after (&gsi, call, GSI_NEW_STMT);
    }
  else
    {
      tree old = make_temp_ssa_name (u64, NULL, "PROF_first_run");
      gsi_insert_after (&gsi, gimple_build_assign (old, clock), GSI_NEW_STMT);
      gsi_insert_after (&gsi, gimple_build_assign (now, PLUS_EXPR, old,
						   build_int_cst (u64, 1)),
			GSI_NEW_STMT);
      gsi_insert_after (&gsi, gimple_build_assign (clock, now), GSI_NEW_STMT);
    }
  gsi_insert_after (&gsi, gimple_build_assign (unshare_expr (ref), now),
		    GSI_NEW_STMT);
}

/* What a value site's profile is, for matching a site of a changed
   function to its training version's (salvage.cc): its kind and its
   number of counters, now none for either kind (a memop's sizes had
   LATEPGO_MEMOP_BUCKETS counters before they were value data; such a
   site of an older training never matches).  */

unsigned HOST_WIDE_INT
lp_value_site_key (const lp_value_site *s)
{
  auto_vec<unsigned char> bytes;
  bytes.safe_push (s->icall ? 'i' : s->cmp ? 'c' : 'm');
  for (int k = 0; k < 4; k++)
    bytes.safe_push (0);
  return lp_md5_low64 (bytes.address (), bytes.length ());
}

/* Use mode: the first-run rank of NODE from REC, for GCC's function
   ordering (-fprofile-reorder-functions), as profile.cc reads the time
   profile.  REC has one when its hash has the first-run tag: a record
   with values, matched (G's) or salvaged (the old version's).  */

void
lp_annotate_first_run (const lp_profile_record *rec, cgraph_node *node,
		       FILE *dump)
{
  if (!latepgo_has_first_run (rec->hash))
    return;
  gcov_type t = lp_profile_first_run (rec);
  if (t <= 0 || t >= INT_MAX / 2)
    return;
  node->tp_first_run = (int) t;
  if (dump)
    fprintf (dump, "  first run %d\n", node->tp_first_run);
}

/* Use mode, after every function is annotated: functions that ran but
   have no first-run rank (too small, inline or COMDAT: see
   LP_FIRST_RUN_MIN_BLOCKS) take the earliest rank of the callers that
   ran, as they first ran right after one of them; so GCC's function
   ordering places them next to their callers instead of after every
   ranked function.  Repeated for chains of such functions.  */

void
lp_inherit_first_run (void)
{
  cgraph_node *node;
  bool changed = true;
  for (int round = 0; changed && round < 8; round++)
    {
      changed = false;
      FOR_EACH_DEFINED_FUNCTION (node)
	{
	  if (node->tp_first_run || !node->count.ipa ().nonzero_p ())
	    continue;
	  int best = 0;
	  for (cgraph_edge *e = node->callers; e; e = e->next_caller)
	    if (e->caller->tp_first_run
		&& e->count.ipa ().nonzero_p ()
		&& (!best || e->caller->tp_first_run < best))
	      best = e->caller->tp_first_run;
	  if (best)
	    {
	      node->tp_first_run = best;
	      changed = true;
	      if (lp_dump_stream ())
		fprintf (lp_dump_stream (), "first run %s %d inherited\n",
			 lp_symbol_name (node->decl), best);
	    }
	}
    }
}
