/* coverage-inline.cc: coverage=function for the functions GCC's early
   inliner inlined before the latepgo pass (doc/coverage.md section 1).

   A function's own byte is stored on the edge out of its ENTRY
   (coverage.cc).  A function that IPA inlines later carries that store
   into its callers, but a copy that the early inliner made before our
   pass has none: if the function never runs out of line, its code ran
   and its byte says it did not.  So in each body we instrument, the
   statements of an inlined copy (an "instance": the statements whose
   BLOCK lies inside a BLOCK for which inlined_function_outer_scope_p
   holds; its abstract origin is the inlined function) get a store to
   the inlined function's byte where the instance starts.  Nested
   instances count for their own function too.

   Where: before the first statement of the function's instances in
   each basic block that holds such statements and is not dominated
   by another such block.  An instance that ran ran one of its
   statements, in a block B; B is such a block or is dominated by one,
   which ran before it (control left it for B, through its end or
   through a throwing call that ends it, after the store that comes
   before its first instance statement): a store ran.  A store that ran
   is followed in its block by a statement of an instance: instance
   code ran.  Usually one block per instance.

   An instance whose statements were all optimized away (a call folded
   to a constant) leaves only debug statements, and only under -g: its
   inline entry marker and begin-statement markers.  For such an
   instance, and only for it, the store goes before the first of those
   markers, so that -g changes the code only where an instance cannot
   be seen without it.  Without -g such an instance is not counted.

   Which functions: those with a body of their own at our pass, which
   this file instruments (before or after its callers: both take the
   same byte from the map below) and which have a record: without
   this, such a function whose body never ran but whose copies did
   was listed as never run.  A function with no body left (a static
   one inlined everywhere early, or an inline one) has no record and
   is listed neither way; coverage-inline-only gives it a byte made
   here, and generate.cc a record with the function's profile name
   (lp_coverage_inline_finish), as for a function of this file, at the
   price of a store per copy (doc/coverage.md section 1).  Bytes and records are TU-local, as
   every function's are, so a COMDAT function's records from several
   files and bodies merge by name in the profile.

   Not counted: C++ constructors and destructors, whose instances name
   the abstract constructor (DECL_ORIGIN), not the clone (C1, C2) that
   was inlined and whose name the profile would know; functions
   excluded from profiling as their bodies would be (attribute,
   -fprofile-exclude-files).  */

#include "gcc-common.h"
#include "coverage-inline.h"
#include "arguments.h"
#include "coverage-bytes.h"
#include "dump.h"
#include "gcc-flags.h"
#include "names.h"
#include "relocate.h"

/* The byte of each function that has one in this file; the functions
   whose own body stores to it; the functions in the order their bytes
   were made (the records' order).  */
static hash_map<tree, tree> *byte_of_fn;
static hash_set<tree> *own_fns;
static vec<tree> fns_in_order;

/* The byte of FNDECL, made on first use.  */

static tree
function_byte (tree fndecl)
{
  if (!byte_of_fn)
    {
      byte_of_fn = new hash_map<tree, tree>;
      own_fns = new hash_set<tree>;
    }
  if (tree *b = byte_of_fn->get (fndecl))
    return *b;
  tree b = lp_coverage_bytes_var (fndecl, 1);
  byte_of_fn->put (fndecl, b);
  fns_in_order.safe_push (fndecl);
  return b;
}

/* The byte of FNDECL, whose own body is instrumented in this file.  */

tree
lp_coverage_own_byte (tree fndecl)
{
  tree b = function_byte (fndecl);
  own_fns->add (fndecl);
  return b;
}

/* Whether FNDECL has a body of its own at our pass, which is then
   instrumented (before or after its callers) and has a record.  */

static bool
own_body_p (tree fndecl)
{
  cgraph_node *n = cgraph_node::get (fndecl);
  return n && n->definition && gimple_has_body_p (n->decl);
}

/* Whether instances of FNDECL are counted (see the top).  */

static bool
counted_function_p (tree fndecl)
{
  if (DECL_CXX_CONSTRUCTOR_P (fndecl) || DECL_CXX_DESTRUCTOR_P (fndecl))
    return false;
  location_t loc = DECL_SOURCE_LOCATION (fndecl);
  if (loc == BUILTINS_LOCATION || !lp_file_profiled_p (LOCATION_FILE (loc)))
    return false;
  if (!latepgo_opts.coverage_inline_only && !own_body_p (fndecl))
    return false;
  return !lookup_attribute ("no_profile_instrument_function",
			    DECL_ATTRIBUTES (fndecl));
}

/* Where an instance has a statement: the first one of INSTANCE (an
   outer-scope BLOCK) of function FN in block BB.  */
struct instance_site
{
  tree fn;
  tree instance;
  basic_block bb;
  gimple *stmt;
  bool debug;			/* STMT is a debug marker.  */
  unsigned order;		/* Its place in the walk.  */
};

/* Sites by function (DECL_UID), then in walk order.  */

static int
compare_sites (const void *pa, const void *pb)
{
  const instance_site *a = (const instance_site *) pa;
  const instance_site *b = (const instance_site *) pb;
  if (DECL_UID (a->fn) != DECL_UID (b->fn))
    return DECL_UID (a->fn) < DECL_UID (b->fn) ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order ? 1 : 0;
}

/* Append to SITES the first statement of each instance in each block
   of the current function (CALLER): its real statements, and its
   debug markers (marked debug).  */

static void
find_sites (tree caller, vec<instance_site> *sites)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      hash_set<tree> seen_real, seen_debug;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (gimple_code (stmt) == GIMPLE_LABEL)
	    continue;
	  bool debug = is_gimple_debug (stmt);
	  if (debug && !gimple_debug_begin_stmt_p (stmt)
	      && !gimple_debug_inline_entry_p (stmt))
	    continue;
	  for (tree b = gimple_block (stmt); b && TREE_CODE (b) == BLOCK;
	       b = BLOCK_SUPERCONTEXT (b))
	    {
	      if (!inlined_function_outer_scope_p (b))
		continue;
	      tree fn = block_ultimate_origin (b);
	      if (!fn || TREE_CODE (fn) != FUNCTION_DECL || fn == caller
		  || !counted_function_p (fn)
		  || (debug ? &seen_debug : &seen_real)->add (b))
		continue;
	      instance_site s = { fn, b, bb, stmt, debug, sites->length () };
	      sites->safe_push (s);
	    }
	}
    }
}

/* Keep of SITES the real ones, and the debug ones of instances that
   have no real statement left.  */

static void
drop_needless_debug_sites (vec<instance_site> *sites)
{
  hash_set<tree> with_real;
  for (const instance_site &s : *sites)
    if (!s.debug)
      with_real.add (s.instance);
  unsigned kept = 0;
  for (unsigned i = 0; i < sites->length (); i++)
    if (!(*sites)[i].debug || !with_real.contains ((*sites)[i].instance))
      (*sites)[kept++] = (*sites)[i];
  sites->truncate (kept);
}

/* Store 0 into FN's byte before the sites of FN, SITES[0..N), that
   are the first in their block and in no block dominated by another
   site's (a real site's, for a real site).  Return the number of
   stores.  */

static int
store_at_sites (const instance_site *sites, unsigned n)
{
  tree bytes = function_byte (sites[0].fn);
  tree base = NULL_TREE;
  if (lp_relocation_p ())
    base = make_temp_ssa_name (build_pointer_type (TREE_TYPE (bytes)),
			       NULL, "PROF_reloc");
  int stores = 0;
  for (unsigned i = 0; i < n; i++)
    {
      basic_block bb = sites[i].bb;
      bool needed = true;
      for (unsigned j = 0; j < n && needed; j++)
	{
	  /* A debug site never replaces a real one: the stores of the
	     copies seen without -g are the same with -g.  */
	  if (sites[j].debug && !sites[i].debug)
	    continue;
	  if (sites[j].bb == bb ? j < i
	      : dominated_by_p (CDI_DOMINATORS, bb, sites[j].bb))
	    needed = false;
	}
      if (!needed)
	continue;
      gimple_stmt_iterator gsi = gsi_for_stmt (sites[i].stmt);
      gsi_insert_before (&gsi, lp_coverage_byte_store (bytes, base, 0),
			 GSI_SAME_STMT);
      stores++;
    }
  if (base)
    lp_relocation_prologue (base, bytes);
  return stores;
}

/* Store to the byte of each function inlined into the current
   function (CALLER) where its instances start (see the top).  The
   dump gets one line per such function:
     coverage-inlined NAME stores=N  */

void
lp_coverage_inline_instances (tree caller)
{
  auto_vec<instance_site> sites;
  find_sites (caller, &sites);
  drop_needless_debug_sites (&sites);
  if (sites.is_empty ())
    return;
  sites.qsort (compare_sites);

  free_dominance_info (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  for (unsigned start = 0, end; start < sites.length (); start = end)
    {
      for (end = start + 1;
	   end < sites.length () && sites[end].fn == sites[start].fn; end++)
	;
      int stores = store_at_sites (&sites[start], end - start);
      if (FILE *dump = lp_dump_stream ())
	{
	  char *name = lp_profile_name (sites[start].fn);
	  fprintf (dump, "  coverage-inlined %s stores=%d\n", name, stores);
	  free (name);
	}
    }
  free_dominance_info (CDI_DOMINATORS);
}

/* Append to OUT the functions that have a byte in this file but no
   instrumented body here, and forget this file's bytes.  */

void
lp_coverage_inline_finish (vec<lp_inline_only_fn> *out)
{
  for (tree fn : fns_in_order)
    if (!own_fns->contains (fn))
      {
	lp_inline_only_fn f;
	f.name = lp_profile_name (fn);
	f.bytes = *byte_of_fn->get (fn);
	out->safe_push (f);
      }
  fns_in_order.release ();
  delete byte_of_fn;
  delete own_fns;
  byte_of_fn = NULL;
  own_fns = NULL;
}
