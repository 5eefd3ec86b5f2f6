/* hot-inline.cc: the inlining limit raised for functions that make
   hot calls (use and sample-use modes).

   GCC's inliner at -O2 inlines a function not declared inline only
   when the call grows the caller by less than max-inline-insns-auto
   (15 insns), hot or not (ipa-inline.cc:want_inline_small_function_p);
   only a "big speedup" estimate lets a larger callee in.  LLVM's
   inliner gives a call site that its profile calls hot a threshold 200
   times its default.  That is most of what separates the two PGO
   builds of SQLite: clang's folds the hot record comparators and cell
   parsers into their callers, GCC's calls them (bench/compare.py).

   GCC reads the limit from the function that holds the call
   (opt_for_fn (e->caller->decl, ...)), also once that function was
   itself inlined somewhere (inline clones share its decl).  So a
   function with a hot call gets an optimization node of its own, the
   same as the one it had but for a larger max-inline-insns-auto.  Its
   calls that the profile does not call hot are unaffected where it
   matters: GCC does not inline a cold call that grows the code
   (CIF_UNLIKELY_CALL), and the larger limit only lets in what fits.
   Nodes that differ only in params do not stop inlining between
   functions (ipa-inline.cc:can_inline_edge_by_limits_p compares flags,
   not params).

   The same node raises inline-unit-growth, the share by which inlining
   may grow the whole unit (40% at -O2): GCC reads it from the function
   the call is inlined into too (ipa-inline.cc:compute_max_insns, where
   = the caller).  In a large C++ unit the 40% is spent before the hot
   calls of functions with hot calls are reached (json: basic_json's
   destructor and json_value::destroy calling each other, the SAX
   parser's start_object and start_array, std::map's insert position,
   the lexer's get()), and GCC then refuses them whatever their count;
   the larger growth applies only to calls inlined into functions with
   hot calls.

   A call is hot when its count is at least the profile's hot count
   (profile-read.h; a sample profile's from its probe counts,
   sample-read.h).  Coverage profiles say nothing of hotness.  */

#include "gcc-common.h"
#include "hot-inline.h"
#include "sample-read.h"
#include "dump.h"
#include "arguments.h"
#include "profile-read.h"
#include "../format/raw-format.h"

/* The limit for functions with hot calls, measured (callgrind, the
   bench's small inputs; doc/hot-inline.md): of 60, 90, 120, 170, 250
   and 300, 120 gave SQLite its fewest instructions but one (170:
   0.2% fewer, json 0.4% more), and json and zlib no more than
   without.  */
#define HOT_AUTO_LIMIT 120

/* The unit growth allowed for calls inlined into functions with hot
   calls, measured the same way (doc/hot-inline.md): json's
   instructions 270.81M at 40% (GCC's), 263.90M at 60%, 260.34M at 80%,
   259.17M at 100%; its binary grows 6.6%, 9.6% and 12.7% over 40%'s.
   SQLite, zlib and stl are unchanged: their units stay under the 40%
   anyway.  */
#define HOT_UNIT_GROWTH 80

/* Whether NODE makes a call counted at least HOT times.  */

static bool
has_hot_call (cgraph_node *node, gcov_type hot)
{
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    if (e->count.ipa ().initialized_p ()
	&& e->count.ipa ().to_gcov_type () >= hot)
      return true;
  for (cgraph_edge *e = node->indirect_calls; e; e = e->next_callee)
    if (e->count.ipa ().initialized_p ()
	&& e->count.ipa ().to_gcov_type () >= hot)
      return true;
  return false;
}

/* The optimization node FROM with max-inline-insns-auto at least
   HOT_AUTO_LIMIT and inline-unit-growth at least HOT_UNIT_GROWTH (a
   larger value given on the command line or in an optimize attribute
   stays).  RAISED holds the nodes made, by the node they were made
   from: one per distinct original, so GCC's per-node caches (optabs)
   stay few.  It lives for one call of lp_raise_hot_inline_limits only:
   it is not a GC root, and the decls keep the nodes alive.  */

static tree
raised_node (hash_map<tree, tree> *raised, tree from)
{
  const cl_optimization *o = TREE_OPTIMIZATION (from);
  if (o->x_param_max_inline_insns_auto >= HOT_AUTO_LIMIT
      && o->x_param_inline_unit_growth >= HOT_UNIT_GROWTH)
    return from;
  bool existed;
  tree &slot = raised->get_or_insert (from, &existed);
  if (!existed)
    {
      slot = make_node (OPTIMIZATION_NODE);
      cl_optimization *to = TREE_OPTIMIZATION (slot);
      *to = *o;
      to->x_param_max_inline_insns_auto
	= MAX (o->x_param_max_inline_insns_auto, HOT_AUTO_LIMIT);
      to->x_param_inline_unit_growth
	= MAX (o->x_param_inline_unit_growth, HOT_UNIT_GROWTH);
    }
  return slot;
}

void
lp_raise_hot_inline_limits (const vec<cgraph_node *> &annotated)
{
  gcov_type hot = (latepgo_opts.sample_use_path
		   ? lp_samples_summary.hot_count : lp_summary.hot_count);
  /* A coverage profile's counts are 0 or 1: every call that ran would
     look hot (doc/coverage.md).  */
  if (latepgo_opts.no_hot_inline || !hot
      || (lp_profile_variant & LP_VARIANT_BYTE_COVERAGE))
    return;
  hash_map<tree, tree> raised;
  int n_raised = 0;
  for (cgraph_node *node : annotated)
    {
      if (!has_hot_call (node, hot))
	continue;
      tree from = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (node->decl);
      if (!from)
	from = optimization_default_node;
      tree to = raised_node (&raised, from);
      if (to == from)
	continue;
      DECL_FUNCTION_SPECIFIC_OPTIMIZATION (node->decl) = to;
      n_raised++;
      if (FILE *dump = lp_dump_stream ())
	fprintf (dump, "hot-calls %s max-inline-insns-auto=%d "
		 "inline-unit-growth=%d\n", node->asm_name (),
		 TREE_OPTIMIZATION (to)->x_param_max_inline_insns_auto,
		 TREE_OPTIMIZATION (to)->x_param_inline_unit_growth);
    }
  if (FILE *dump = lp_dump_stream ())
    fprintf (dump, "unit hot-call-functions=%d hot-count=%" PRId64 "\n",
	     n_raised, (int64_t) hot);
}
