/* memcmp-version.cc: a memcmp or bcmp call versioned for its most
   common sizes (use mode).

   GCC versions memcpy, memmove and memset for their most common size
   from a value profile (value-prof.cc:gimple_stringops_transform), but
   not memcmp or bcmp (interesting_stringop_to_profile_p), whose size
   profiles LLVM's PGO uses as well (PGOMemOPSizeOpt.cpp, then
   ExpandMemCmp.cpp).  A call of libc's memcmp for a few bytes costs
   some 25 instructions; compared inline, a handful.

   Two kinds of versions, each behind a test of the size:

   - Exact size K, when the result only matters as zero or not zero
     (bcmp, or a memcmp result compared with zero and nothing else):
       if (n == K) r = __builtin_memcmp_eq (a, b, K);
     which GCC expands inline when the target compares K bytes by
     pieces (expand_builtin_memcmp; up to 64 bytes on x86-64).  SQLite's
     btreeOverwriteContent compares 3 or 4 bytes this way on every row
     an UPDATE rewrites in place.

   - A range of sizes [W, 2W] (W = 1, 2, 4 or 8 bytes), for any memcmp:
       if (n - W <= W) r = <compare a and b as two words of W bytes>;
     the first W bytes and the last W bytes of each (which overlap when
     n < 2W, the overlap being equal in both once the first words are),
     loaded big-endian so that comparing them as unsigned numbers orders
     them as memcmp does.  GCC expands no ordered memcmp of non-constant
     data, and LLVM only constant sizes; SQLite's collations compare
     strings of 4 to 8 bytes through memcmp.  The result is -1, 0 or 1
     (memcmp only promises its sign), or for a zero-tested result 0 or
     1.

   Which versions, as LLVM's rule for sizes (PGOMemOPSizeOpt.cpp): the
   most common exact sizes first, then the most common ranges, each
   while it has at least MIN_CALLS calls and at least MIN_PERCENT of
   the calls not yet versioned, at most MAX_VERSIONS in all.  The
   versions' results meet in a PHI with the call's.

   The same ranges for memcpy, memmove, memset and the like (the first
   and the last W bytes stored as words) were measured and left out:
   SQLite 114.42M -> 117.01M instructions.  GCC already expands those
   calls inline when the profile's average size is small (values.cc
   gives it), and the versions only added tests, most of them in
   sqlite3VdbeExec.  */

#include "gcc-common.h"
#include "target.h"
#include "gimple-fold.h"
#include "value-prof.h"
#include "dump.h"
#include "names.h"
#include "memcmp-version.h"
#include "../libprof/latepgo-abi.h"

/* LLVM's defaults (PGOMemOPSizeOpt.cpp: memop-count-threshold,
   memop-percent-threshold, memop-max-version).  */
#define MIN_CALLS 1000
#define MIN_PERCENT 40
#define MAX_VERSIONS 3

/* Whether STMT calls memcmp or bcmp.  */

bool
lp_memcmp_call_p (const gimple *stmt)
{
  return (gimple_call_builtin_p (stmt, BUILT_IN_MEMCMP)
	  || gimple_call_builtin_p (stmt, BUILT_IN_BCMP));
}

/* Whether the value of the call STMT only matters as zero or not zero:
   bcmp's, or a result compared with zero and nothing else.  */

static bool
result_only_zero_tested_p (gimple *stmt)
{
  tree res = gimple_call_lhs (stmt);
  if (gimple_call_builtin_p (stmt, BUILT_IN_BCMP))
    return true;
  use_operand_p use_p;
  imm_use_iterator iter;
  FOR_EACH_IMM_USE_FAST (use_p, iter, res)
    {
      gimple *use = USE_STMT (use_p);
      if (is_gimple_debug (use))
	continue;
      tree_code code;
      tree other;
      if (gcond *cond = dyn_cast <gcond *> (use))
	{
	  code = gimple_cond_code (cond);
	  other = (gimple_cond_lhs (cond) == res ? gimple_cond_rhs (cond)
		   : gimple_cond_lhs (cond));
	}
      else if (is_gimple_assign (use)
	       && (gimple_assign_rhs_code (use) == EQ_EXPR
		   || gimple_assign_rhs_code (use) == NE_EXPR))
	{
	  code = gimple_assign_rhs_code (use);
	  other = (gimple_assign_rhs1 (use) == res ? gimple_assign_rhs2 (use)
		   : gimple_assign_rhs1 (use));
	}
      else
	return false;
      if ((code != EQ_EXPR && code != NE_EXPR) || !integer_zerop (other))
	return false;
    }
  return true;
}

/* The smallest and largest size of memop bucket B.  */

static void
bucket_sizes (unsigned b, unsigned HOST_WIDE_INT *lo,
	      unsigned HOST_WIDE_INT *hi)
{
  *lo = latepgo_memop_bucket_min (b);
  *hi = (b + 1 < LATEPGO_MEMOP_BUCKETS
	 ? latepgo_memop_bucket_min (b + 1) - 1 : HOST_WIDE_INT_M1U);
}

/* The calls of C (counts per memop bucket) whose size is FROM to TO,
   from the buckets within; with CLEAR, those buckets' counts set to
   0.  */

static gcov_type
sizes_in (gcov_type *c, unsigned HOST_WIDE_INT from,
	  unsigned HOST_WIDE_INT to, bool clear)
{
  gcov_type in = 0;
  for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
    {
      unsigned HOST_WIDE_INT lo, hi;
      bucket_sizes (b, &lo, &hi);
      if (lo >= from && hi <= to)
	{
	  in += c[b];
	  if (clear)
	    c[b] = 0;
	}
    }
  return in;
}

/* Before the call STMT: "if (TEST)" to a new block, in which SEQ
   computes VALUE, the call's result (an SSA name) for the sizes TEST
   holds for; else to the call.  COUNT of the LEFT executions of STMT's block take
   the new block.  Afterwards STMT is alone in its block, between the
   test and the join.  */

static void
add_version (gcall *stmt, gimple_seq test_seq, tree test, gimple_seq seq,
	     tree value, gcov_type count, gcov_type left)
{
  basic_block cond_bb = gimple_bb (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_insert_seq_before (&gsi, test_seq, GSI_SAME_STMT);
  gcond *cond = gimple_build_cond (NE_EXPR, test, boolean_false_node,
				   NULL_TREE, NULL_TREE);
  gsi_insert_before (&gsi, cond, GSI_SAME_STMT);
  gimple *last = gimple_seq_last_stmt (seq);
  gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);

  profile_probability prob
    = profile_probability::probability_in_gcov_type (MIN (count, left),
						      left);
  edge e_cf = split_block (cond_bb, cond);
  basic_block fixed_bb = e_cf->dest;
  fixed_bb->count = cond_bb->count.apply_probability (prob);
  edge e_fv = split_block (fixed_bb, last);
  basic_block var_bb = e_fv->dest;
  var_bb->count = cond_bb->count - fixed_bb->count;
  edge e_vj = split_block (var_bb, stmt);
  basic_block join_bb = e_vj->dest;
  join_bb->count = cond_bb->count;

  e_cf->flags = (e_cf->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
  e_cf->probability = prob;
  edge e_cv = make_edge (cond_bb, var_bb, EDGE_FALSE_VALUE);
  e_cv->probability = prob.invert ();
  remove_edge (e_fv);
  edge e_fj = make_edge (fixed_bb, join_bb, EDGE_FALLTHRU);
  e_fj->probability = profile_probability::always ();
  e_vj->probability = profile_probability::always ();

  tree res = gimple_call_lhs (stmt);
  gphi *phi = create_phi_node (res, join_bb);
  gimple_call_set_lhs (stmt, duplicate_ssa_name (res, stmt));
  update_stmt (stmt);
  add_phi_arg (phi, gimple_call_lhs (stmt), e_vj, UNKNOWN_LOCATION);
  add_phi_arg (phi, value, e_fj, UNKNOWN_LOCATION);
}

/* Version the call STMT for the constant size K, as
   __builtin_memcmp_eq.  */

static void
version_for_size (gcall *stmt, unsigned HOST_WIDE_INT k, gcov_type count,
		  gcov_type left)
{
  tree size = gimple_call_arg (stmt, 2);
  tree size_k = build_int_cstu (TREE_TYPE (size), k);
  location_t loc = gimple_location (stmt);
  gimple_seq test_seq = NULL;
  tree test = gimple_build (&test_seq, loc, EQ_EXPR, boolean_type_node,
			    size, size_k);
  gcall *fixed = gimple_build_call (builtin_decl_explicit (BUILT_IN_MEMCMP_EQ),
				    3, gimple_call_arg (stmt, 0),
				    gimple_call_arg (stmt, 1), size_k);
  gimple_set_location (fixed, loc);
  gimple_set_vuse (fixed, gimple_vuse (stmt));
  tree value = make_ssa_name (TREE_TYPE (gimple_call_lhs (stmt)), fixed);
  gimple_call_set_lhs (fixed, value);
  gimple_seq seq = NULL;
  gimple_seq_add_stmt (&seq, fixed);
  add_version (stmt, test_seq, test, seq, value, count, left);
}

/* In SEQ: the W bytes at PTR + OFFSET (OFFSET a sizetype value or
   NULL) in WTYPE, the unsigned integer type of W bytes.  VUSE: the
   memory state the call read.  */

static tree
load_word (gimple_seq *seq, location_t loc, tree ptr, tree offset,
	   tree wtype, tree vuse)
{
  if (offset)
    ptr = gimple_build (seq, loc, POINTER_PLUS_EXPR, TREE_TYPE (ptr), ptr,
			offset);
  /* A MEM_REF's address must be an SSA name or a decl's address.  */
  if (TREE_CODE (ptr) != SSA_NAME)
    {
      tree name = make_ssa_name (TREE_TYPE (ptr));
      gimple_seq_add_stmt (seq, gimple_build_assign (name, ptr));
      ptr = name;
    }
  /* Unaligned, and of alias set 0, as memcmp reads bytes.  */
  tree char_ptr = build_pointer_type_for_mode (char_type_node, ptr_mode,
					       true);
  tree ref = build2 (MEM_REF, build_aligned_type (wtype, BITS_PER_UNIT),
		     ptr, build_int_cst (char_ptr, 0));
  tree word = make_ssa_name (wtype);
  gassign *load = gimple_build_assign (word, ref);
  gimple_set_location (load, loc);
  gimple_set_vuse (load, vuse);
  gimple_seq_add_stmt (seq, load);
  return word;
}

/* In SEQ: WORD, loaded from memory, as the number its bytes make in
   memory order (most significant first), so that numbers order as
   memcmp orders the bytes.  */

static tree
big_endian (gimple_seq *seq, location_t loc, tree word)
{
  tree wtype = TREE_TYPE (word);
  unsigned bits = TYPE_PRECISION (wtype);
  if (bits == 8 || BYTES_BIG_ENDIAN)
    return word;
  enum built_in_function swap = (bits == 16 ? BUILT_IN_BSWAP16
				 : bits == 32 ? BUILT_IN_BSWAP32
				 : BUILT_IN_BSWAP64);
  tree fn = builtin_decl_explicit (swap);
  tree arg_type = TREE_VALUE (TYPE_ARG_TYPES (TREE_TYPE (fn)));
  tree swapped = gimple_build (seq, loc, as_combined_fn (swap),
			       TREE_TYPE (TREE_TYPE (fn)),
			       gimple_convert (seq, loc, arg_type, word));
  return gimple_convert (seq, loc, wtype, swapped);
}

/* In SEQ: -1, 0 or 1 in TYPE as X is below, equal to or above Y.  */

static tree
three_way (gimple_seq *seq, location_t loc, tree type, tree x, tree y)
{
  tree gt = gimple_build (seq, loc, GT_EXPR, boolean_type_node, x, y);
  tree lt = gimple_build (seq, loc, LT_EXPR, boolean_type_node, x, y);
  return gimple_build (seq, loc, MINUS_EXPR, type,
		       gimple_convert (seq, loc, type, gt),
		       gimple_convert (seq, loc, type, lt));
}

/* Version the call STMT for the sizes W to 2W: the first and the last
   W bytes of each block compared as words, three-way unless
   ZERO_TESTED.  */

static void
version_for_range (gcall *stmt, unsigned w, bool zero_tested,
		   gcov_type count, gcov_type left)
{
  location_t loc = gimple_location (stmt);
  tree a = gimple_call_arg (stmt, 0);
  tree b = gimple_call_arg (stmt, 1);
  tree size = gimple_call_arg (stmt, 2);
  tree stype = TREE_TYPE (size);
  tree vuse = gimple_vuse (stmt);

  /* (unsigned) (n - W) <= W: W <= n <= 2W.  */
  gimple_seq test_seq = NULL;
  tree ustype = unsigned_type_for (stype);
  tree n = gimple_convert (&test_seq, loc, ustype, size);
  tree from_w = gimple_build (&test_seq, loc, MINUS_EXPR, ustype, n,
			      build_int_cst (ustype, w));
  tree test = gimple_build (&test_seq, loc, LE_EXPR, boolean_type_node,
			    from_w, build_int_cst (ustype, w));

  gimple_seq seq = NULL;
  tree wtype = build_nonstandard_integer_type (w * BITS_PER_UNIT, 1);
  tree last = gimple_convert (&seq, loc, sizetype, from_w);
  tree a1 = load_word (&seq, loc, a, NULL_TREE, wtype, vuse);
  tree b1 = load_word (&seq, loc, b, NULL_TREE, wtype, vuse);
  tree a2 = load_word (&seq, loc, a, last, wtype, vuse);
  tree b2 = load_word (&seq, loc, b, last, wtype, vuse);
  tree rtype = TREE_TYPE (gimple_call_lhs (stmt));
  tree value;
  if (zero_tested)
    {
      tree d1 = gimple_build (&seq, loc, BIT_XOR_EXPR, wtype, a1, b1);
      tree d2 = gimple_build (&seq, loc, BIT_XOR_EXPR, wtype, a2, b2);
      tree d = gimple_build (&seq, loc, BIT_IOR_EXPR, wtype, d1, d2);
      value = gimple_convert (&seq, loc, rtype,
			      gimple_build (&seq, loc, NE_EXPR,
					    boolean_type_node, d,
					    build_zero_cst (wtype)));
    }
  else
    {
      /* The first words if they differ, else the last ones (conditional
	 moves), in memory order.  The comparison stays inside each
	 COND_EXPR (GCC 12's GIMPLE allows it) so that it expands to one
	 compare and two cmoves; through a boolean it cost a sete and a
	 test more (SQLite: 114.418M -> 114.400M instructions).  */
      tree x = make_ssa_name (wtype);
      gimple_seq_add_stmt (&seq, gimple_build_assign
				   (x, COND_EXPR,
				    build2 (EQ_EXPR, boolean_type_node, a1, b1),
				    a2, a1));
      tree y = make_ssa_name (wtype);
      gimple_seq_add_stmt (&seq, gimple_build_assign
				   (y, COND_EXPR,
				    build2 (EQ_EXPR, boolean_type_node, a1, b1),
				    b2, b1));
      value = three_way (&seq, loc, rtype, big_endian (&seq, loc, x),
			 big_endian (&seq, loc, y));
    }
  add_version (stmt, test_seq, test, seq, value, count, left);
}

/* Version the memcmp or bcmp call CALL for its most common sizes, from
   the counts per memop bucket of its profile (COUNT,
   LATEPGO_MEMOP_BUCKETS of them) scaled to its block's count ALL.
   Returns the number of versions made; says which in DUMP.  */

static int
version_call (gcall *call, const gcov_type *count, gcov_type all,
	      FILE *dump)
{
  if (!lp_memcmp_call_p (call) || gimple_vdef (call)
      || stmt_could_throw_p (cfun, call) || all <= 0
      || !optimize_bb_for_speed_p (gimple_bb (call))
      || !INTEGRAL_TYPE_P (TREE_TYPE (gimple_call_arg (call, 2)))
      || TREE_CODE (gimple_call_arg (call, 2)) != SSA_NAME
      || !gimple_call_lhs (call)
      || TREE_CODE (gimple_call_lhs (call)) != SSA_NAME
      || !INTEGRAL_TYPE_P (TREE_TYPE (gimple_call_lhs (call))))
    return 0;
  bool zero_tested = result_only_zero_tested_p (call);
  gcov_type left = all;
  int made = 0;
  auto worth = [&left] (gcov_type c)
    {
      return c >= MIN_CALLS && c * 100 >= left * MIN_PERCENT;
    };

  /* The counts of the sizes not yet versioned, per bucket.  */
  gcov_type c[LATEPGO_MEMOP_BUCKETS];
  memcpy (c, count, sizeof c);

  /* Exact sizes, most common first, when GCC expands them.  */
  while (zero_tested && made < MAX_VERSIONS)
    {
      unsigned best = 0;
      unsigned HOST_WIDE_INT lo, hi;
      for (unsigned b = 1; b < LATEPGO_MEMOP_BUCKETS; b++)
	if (c[b] > c[best])
	  best = b;
      bucket_sizes (best, &lo, &hi);
      if (!worth (c[best]) || lo != hi)
	break;
      /* Size 0 folds to 0.  */
      if (lo != 0
	  && !targetm.use_by_pieces_infrastructure_p (lo, BITS_PER_UNIT,
						     COMPARE_BY_PIECES, true))
	break;
      version_for_size (call, lo, c[best], left);
      if (dump)
	fprintf (dump, "memcmp %s: versioned for size %" PRIu64 ": %"
		 PRId64 " of %" PRId64 " calls\n",
		 lp_symbol_name (current_function_decl), (uint64_t) lo,
		 (int64_t) c[best], (int64_t) left);
      left -= c[best];
      c[best] = 0;
      made++;
    }

  /* Ranges, most common first.  */
  while (made < MAX_VERSIONS)
    {
      gcov_type best_count = 0;
      unsigned best = 0;
      for (unsigned w = 1; w <= 8; w *= 2)
	{
	  gcov_type in = sizes_in (c, w, 2 * w, false);
	  if (in > best_count)
	    {
	      best_count = in;
	      best = w;
	    }
	}
      best_count = MIN (best_count, left);
      if (!best || !worth (best_count))
	break;
      version_for_range (call, best, zero_tested, best_count, left);
      if (dump)
	fprintf (dump, "memcmp %s: versioned for sizes %u to %u: %" PRId64
		 " of %" PRId64 " calls\n",
		 lp_symbol_name (current_function_decl), best, 2 * best,
		 (int64_t) best_count, (int64_t) left);
      left -= best_count;
      sizes_in (c, best, 2 * best, true);
      made++;
    }
  return made;
}

/* Use mode, where the profile is read (values.cc): attach to the memcmp
   or bcmp call STMT its counts per memop bucket (COUNT, of a block that
   ran ALL times), for the late pass below, as a histogram of GCC's
   TOPN format whose values are bucket numbers.  The inliner copies it
   with the call; a versioned call's size tests would count as the
   caller's size there and change its decisions, which is why the
   versions are made after it.  */

void
lp_memcmp_attach_sizes (gimple *stmt, const gcov_type *count, gcov_type all)
{
  unsigned n = 0;
  for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
    n += count[b] > 0;
  if (!n || all <= 0)
    return;
  histogram_value h
    = gimple_alloc_histogram_value (cfun, HIST_TYPE_TOPN_VALUES, stmt,
				    gimple_call_arg (stmt, 2));
  h->n_counters = 2 + 2 * n;
  h->hvalue.counters = XCNEWVEC (gcov_type, h->n_counters);
  h->hvalue.counters[0] = all;
  h->hvalue.counters[1] = n;
  unsigned k = 2;
  for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
    if (count[b] > 0)
      {
	h->hvalue.counters[k++] = b;
	h->hvalue.counters[k++] = count[b];
      }
  gimple_add_histogram_value (cfun, stmt, h);
}

/* The memcmp and bcmp calls of the current function with the sizes
   histogram of lp_memcmp_attach_sizes, and versions them, each from
   its histogram's shares applied to the count of its block now (an
   inlined copy's).  The histograms are removed.  */

static unsigned int
version_memcmp_calls (void)
{
  auto_vec<gcall *> calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gcall *call = dyn_cast <gcall *> (gsi_stmt (gsi)))
	if (lp_memcmp_call_p (call)
	    && gimple_histogram_value_of_type (cfun, call,
					       HIST_TYPE_TOPN_VALUES))
	  calls.safe_push (call);
  FILE *dump = lp_dump_stream ();
  bool changed = false;
  for (gcall *call : calls)
    {
      histogram_value h
	= gimple_histogram_value_of_type (cfun, call, HIST_TYPE_TOPN_VALUES);
      gcov_type count[LATEPGO_MEMOP_BUCKETS] = {};
      gcov_type hist_all = h->hvalue.counters[0];
      profile_count bbc = gimple_bb (call)->count.ipa ();
      gcov_type all = (bbc.initialized_p () ? bbc.to_gcov_type () : 0);
      for (unsigned k = 0; k < (unsigned) h->hvalue.counters[1]
			   && 3 + 2 * k < h->n_counters; k++)
	{
	  gcov_type b = h->hvalue.counters[2 + 2 * k];
	  gcov_type c = h->hvalue.counters[3 + 2 * k];
	  if (b >= 0 && b < LATEPGO_MEMOP_BUCKETS && hist_all > 0)
	    count[b] = MIN ((gcov_type) ((double) c * all / hist_all + 0.5),
			    all);
	}
      gimple_remove_histogram_value (cfun, call, h);
      if (all > 0 && version_call (call, count, all, dump))
	changed = true;
    }
  if (!changed)
    return 0;
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  return TODO_update_ssa_only_virtuals;
}

namespace {

const pass_data pass_data_memcmp_version = {
  GIMPLE_PASS,			/* type */
  "latepgo-memcmp",		/* name */
  OPTGROUP_NONE,		/* optinfo_flags */
  TV_NONE,			/* tv_id */
  PROP_cfg | PROP_ssa,		/* properties_required */
  0,				/* properties_provided */
  0,				/* properties_destroyed */
  0,				/* todo_flags_start */
  0,				/* todo_flags_finish */
};

class pass_memcmp_version : public gimple_opt_pass
{
public:
  pass_memcmp_version (gcc::context *ctxt)
    : gimple_opt_pass (pass_data_memcmp_version, ctxt)
  {}

  /* -fno-vpt turns off GCC's versions of
     memops, and these.  */
  bool gate (function *fun) final override
  {
    return fun->value_histograms != NULL && flag_value_profile_transformations;
  }

  unsigned int execute (function *) final override
  {
    return version_memcmp_calls ();
  }
};

} // anon namespace

/* Register the pass of the plugin NAME: after the first late VRP (after
   IPA inlining; the scalar cleanups and the bswap pass follow).  */

void
lp_memcmp_version_register (const char *name)
{
  static struct register_pass_info info;
  info.pass = new pass_memcmp_version (g);
  info.reference_pass_name = "vrp";
  info.ref_pass_instance_number = 1;
  info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
