/* use.cc: use mode.  Rebuild the generate build's instrumentation
   graph, check its checksum against the profile, derive every edge and
   block count from the counters by flow conservation, and annotate the
   CFG the way native -fprofile-use does (profile.cc:
   compute_branch_probabilities, tree_profiling), so that GCC's
   inliner, block layout, hot/cold splitting, unrolling and
   vectorizer see measured counts.  Order and traps:
   doc/data-path.md sections 7 and 9.  */

#include "gcc-common.h"
#include "use.h"
#include "sample-inline.h"
#include "annotate.h"
#include "cfg-graph.h"
#include "coverage.h"
#include "dump.h"
#include "hot-inline.h"
#include "arguments.h"
#include "profile-read.h"
#include "names.h"
#include "renamed-unit.h"
#include "report.h"
#include "salvage.h"
#include "sample-read.h"
#include "values.h"
#include "../libprof/latepgo-abi.h"

static int n_matched, n_mismatched, n_missing, n_inconsistent;
static auto_vec<cgraph_node *> annotated;
/* Functions of this translation unit's own (neither COMDAT nor
   external inline copies of functions defined elsewhere too) that
   matched the profile.  With none, the unit was not in the training
   build at all (a program that was not run, a file that was not
   linked): the warning says so.  */
static int n_own_matched;
/* Functions without a record, for the unit's warning.  They keep
   static estimates, as stale functions do: every function of the
   training build has a record, zero counts when it never ran, so a
   function without one is new since training (or its file was not
   trained), and nothing says how often it runs now: taken as never
   run, a new helper that hot code calls would go to .text.unlikely
   and be optimized for size.  */
static auto_vec<cgraph_node *> missing_nodes;
/* Functions whose profile is stale, for the unit's one warning.  */
static auto_vec<tree> stale_decls;
/* Functions the profile says never ran (entry count 0), which
   lp_use_finish gives their static estimates back when a function
   without a usable profile calls them (see wake_callees).  */
static hash_set<cgraph_node *> never_run_nodes;
static bool stale_sampled;
/* Stale functions whose counts salvage.cc mapped onto their new CFG,
   and the sum of the shares of their training counts it placed.  */
static int n_salvaged;
static double salvaged_placed;
static auto_vec<tree> salvaged_decls;

/* Native -fprofile-use turns these optimizations on unless the user
   chose otherwise (opts.cc:enable_fdo_optimizations).  Called from
   plugin_init, before option processing finishes.  Not set here:
   flag_branch_probabilities (set at the end of our pass, see
   lp_use_finish), and
   flag_inline_functions (it changes the early inliner, so the CFG we
   checksum; -O2 has it on already).  */

void
lp_use_set_fdo_flags (void)
{
#define SET_IF_UNSET(FLAG, VALUE) \
  do { if (!global_options_set.x_##FLAG) global_options.x_##FLAG = (VALUE); } \
  while (0)
  /* A sample profile gives no trip counts: its counts are not
     reliable_p, so loops get no iteration estimate from it, and
     -funroll-loops would unroll hot loops blind (sqlite: .text 1047K
     -> 954K and Ir 0.943 -> 0.939 of plain without it, over three
     perf sessions; json unchanged).  Peeling wants the same
     estimates.  */
  bool counted = !latepgo_opts.sample_use_path;
  SET_IF_UNSET (flag_unroll_loops, counted);
  SET_IF_UNSET (flag_peel_loops, counted);
  SET_IF_UNSET (flag_tracer, 1);
  SET_IF_UNSET (flag_ipa_cp, 1);
  SET_IF_UNSET (flag_ipa_cp_clone, 1);
  SET_IF_UNSET (flag_ipa_bit_cp, 1);
  SET_IF_UNSET (flag_predictive_commoning, 1);
  SET_IF_UNSET (flag_split_loops, 1);
  SET_IF_UNSET (flag_unswitch_loops, 1);
  SET_IF_UNSET (flag_gcse_after_reload, 1);
  SET_IF_UNSET (flag_tree_loop_vectorize, 1);
  SET_IF_UNSET (flag_tree_slp_vectorize, 1);
  SET_IF_UNSET (flag_version_loops_for_strides, 1);
  SET_IF_UNSET (flag_vect_cost_model, VECT_COST_MODEL_DYNAMIC);
  SET_IF_UNSET (flag_tree_loop_distribute_patterns, 1);
  SET_IF_UNSET (flag_loop_interchange, 1);
  SET_IF_UNSET (flag_unroll_jam, 1);
  SET_IF_UNSET (flag_tree_loop_distribution, 1);
  SET_IF_UNSET (flag_profile_reorder_functions, 1);
  SET_IF_UNSET (flag_value_profile_transformations, 1);
  /* What -funroll-loops enables through EnabledBy, which only runs in
     the option handlers.  */
  if (global_options.x_flag_unroll_loops)
    {
      SET_IF_UNSET (flag_web, 1);
      SET_IF_UNSET (flag_rename_registers, 1);
    }
  /* What finish_options derives from them (opts.cc): without it, cunroll
     neither peels nor grows loops whose trip counts the profile gives.  */
  SET_IF_UNSET (flag_cunroll_grow_size,
		(global_options.x_flag_unroll_loops
		 || global_options.x_flag_peel_loops
		 || global_options.x_optimize >= 3));
#undef SET_IF_UNSET
}

/* Samples measure time, not runs, and rarely run code runs slowly
   (cache misses, mispredicted branches): next to the hottest block, a
   cold block's samples per instruction overstate how often it ran.
   With GCC's hot threshold (the largest count / hot-bb-count-fraction)
   a sample profile made about twice as many functions hot as the
   instrumented profile of the same runs (sqlite: 227 to 284 against
   117), spreading the hot code and the inlining budget; so for sample
   profiles the threshold is this many times higher (sqlite callgrind
   instructions 0.956 -> 0.943 of plain over three perf sessions, json
   unchanged).  */
#define SAMPLE_HOT_SCALE 2

/* Set profile_info from the profile before any function is annotated:
   GCC's hotness queries read it and cache the threshold on first use
   (predict.cc:get_hot_bb_threshold).  gcov's sum_max is the sum over
   runs of the largest counter; a merged LLVM profile knows only the
   largest counter of the sum, which is the same for one run and a
   fair stand-in for many.  */

void
lp_use_begin (void)
{
  gcov_summary *s = XCNEW (gcov_summary);
  s->runs = 1;
  s->sum_max = (latepgo_opts.sample_use_path
		? lp_samples_summary.max_count * SAMPLE_HOT_SCALE
		: lp_summary.max_block_count);
  profile_info = s;
  if (!latepgo_opts.sample_use_path)
    lp_renamed_unit_detect ();
}

/* The record of NAME for checksum HASH, or NULL; *NAME_FOUND says
   whether NAME has any record.  */

static const lp_profile_record *
find_record (const char *name, unsigned HOST_WIDE_INT hash, bool *name_found)
{
  const vec<lp_profile_record> *recs = lp_profile_lookup (name);
  *name_found = recs && !recs->is_empty ();
  if (!recs)
    return NULL;
  for (const lp_profile_record &r : *recs)
    if (r.hash == hash)
      return &r;
  return NULL;
}

/* If NAME's profile has a record of G as latepgo wrote it before memop
   sizes were value data (its memops' sizes as counters in the record,
   doc/data-path.md section 4), say so: the function is then stale
   (salvaged with anchors, else a mismatch), and only training again
   gives it its profile back.  A warning under -Wcoverage-mismatch as
   GCC's for a stale profile.  */

static void
older_memop_layout (tree decl, const char *name, const lp_graph *g)
{
  bool name_found;
  const lp_profile_record *old
    = find_record (name, g->checksum_memop_counters, &name_found);
  if (old
      && old->n_counters == (unsigned) (lp_record_counters (g)
					+ LATEPGO_MEMOP_BUCKETS
					  * (g->n_memop_sites
					     - g->n_cmp_sites)))
    warning_at (DECL_SOURCE_LOCATION (decl), OPT_Wcoverage_mismatch,
		"latepgo: the profile of %qD is from an older latepgo, which "
		"counted memop sizes as counters: it does not match; train "
		"again with this latepgo", decl);
}

/* Annotate the current function with a never-run profile: keep the
   guessed shape, make every count globally zero (as branch_prob does
   for functions whose entry count is 0).  */

static void
annotate_never_run (void)
{
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    bb->count = bb->count.global0 ();
}

/* Record loop iteration counts while they are exact, as branch_prob
   does after reading a profile.  */

static void
record_loop_bounds (void)
{
  if (!current_loops)
    return;
  for (auto loop : loops_list (cfun, 0))
    if (loop->header->count > 0 && loop->header->count.reliable_p ())
      {
	gcov_type nit = expected_loop_iterations_unbounded (loop);
	widest_int bound = widest_int::from (wi::shwi (nit, HOST_BITS_PER_WIDE_INT),
					       SIGNED);
	loop->any_estimate = false;
	record_niter_bound (loop, bound, true, false);
      }
}

/* The stale profile of the current function (NODE, profile name NAME,
   new graph G) mapped onto its new CFG (salvage.cc).  On success the
   function is annotated, G released, and the result true.  */

static bool
salvage (cgraph_node *node, lp_graph *g, const char *name)
{
  if (latepgo_opts.no_salvage || latepgo_opts.mismatch_error)
    return false;
  FILE *dump = lp_dump_stream ();
  auto_vec<gcov_type> count;
  count.safe_grow_cleared (g->edges.length ());
  auto_vec<bool> firm_zero;
  firm_zero.safe_grow_cleared (g->n_blocks);
  auto_vec<int> site_index;
  lp_salvage_result res;
  lp_salvage_function (g, name, lp_profile_lookup (name), count.address (),
		       firm_zero.address (), &site_index, &res);
  if (dump)
    {
      if (res.no_anchors)
	fputs ("  profile stale, no anchors\n", dump);
      else
	fprintf (dump, "  profile stale, %s: blocks matched=%d old=%d new=%d "
		 "placed=%.3f%s\n", res.ok ? "salvaged" : "too weak",
		 res.matched, res.old_blocks, res.new_blocks, res.placed,
		 res.never_run ? " never-run" : "");
    }
  if (!res.ok)
    return false;
  lp_release_graph (g);
  n_salvaged++;
  if (!DECL_COMDAT (node->decl) && !DECL_EXTERNAL (node->decl))
    n_own_matched++;
  salvaged_placed += res.placed;
  salvaged_decls.safe_push (node->decl);
  if (res.never_run)
    {
      if (latepgo_opts.partial_training)
	return true;
      annotate_never_run ();
      never_run_nodes.add (node);
    }
  else
    /* Counts of matched blocks were measured, and the rest follow from
       them by flow, as a matching profile's follow from its counters:
       GCC gets them as exact counts, with trip counts (sqlite year-old
       profile: 121.8M instructions, against 123.5M with a sample
       profile's quality and 122.2M with a fresh profile).  A zero that
       nothing measured, on code new since training, stays a guess.  */
    lp_annotate_counts (g, count.address (), dump, false, NULL,
			firm_zero.address ());
  profile_status_for_fn (cfun) = PROFILE_READ;
  update_max_bb_count ();
  if (!res.never_run)
    {
      record_loop_bounds ();
      if (!site_index.is_empty ())
	lp_annotate_values (g, res.rec, site_index.address (), dump);
      lp_annotate_first_run (res.rec, node, dump);
    }
  compute_function_frequency ();
  if (dump)
    lp_dump_line_counts (dump);
  annotated.safe_push (node);
  return true;
}

/* Annotate the current function (NODE, profile name NAME, graph G)
   from a coverage profile (coverage-use.cc): a function that never ran
   as with a full profile's zero entry count, one that ran keeps its
   static estimates (and with block coverage loses its never-run
   blocks).  Consumes G's fake edges.  */

static void
use_coverage (cgraph_node *node, lp_graph *g, const char *name)
{
  tree decl = node->decl;
  switch (lp_coverage_use_function (g, name))
    {
    case LP_COVERAGE_MISSING:
      n_missing++;
      missing_nodes.safe_push (node);
      return;
    case LP_COVERAGE_STALE:
      lp_use_mismatch (decl, false);
      return;
    case LP_COVERAGE_NEVER_RUN:
      n_matched++;
      if (!DECL_COMDAT (decl) && !DECL_EXTERNAL (decl))
	n_own_matched++;
      if (latepgo_opts.partial_training)
	return;
      annotate_never_run ();
      never_run_nodes.add (node);
      profile_status_for_fn (cfun) = PROFILE_READ;
      update_max_bb_count ();
      compute_function_frequency ();
      annotated.safe_push (node);
      return;
    case LP_COVERAGE_RAN:
      n_matched++;
      if (!DECL_COMDAT (decl) && !DECL_EXTERNAL (decl))
	n_own_matched++;
      update_max_bb_count ();
      annotated.safe_push (node);
      return;
    }
}

/* The record of NAME whose checksum and number of counters are G's,
   or NULL; *NAME_FOUND says whether NAME has any record.  Besides a
   record of G as this latepgo writes it, *NO_VALUES says it is one
   made without value counters (no-values, lean), which has the record
   of the graph alone, and *BEFORE_CMP one from before memcmp and bcmp
   sizes were profiled, whose other sites keep their values.  */

static const lp_profile_record *
matching_record (const char *name, const lp_graph *g, bool *name_found,
		 bool *no_values, bool *before_cmp)
{
  *no_values = *before_cmp = false;
  const lp_profile_record *rec = find_record (name, g->checksum, name_found);
  if (!rec && g->values)
    {
      rec = find_record (name, g->checksum_plain, name_found);
      *no_values = rec != NULL;
    }
  if (!rec && g->checksum_before_cmp)
    {
      rec = find_record (name, g->checksum_before_cmp, name_found);
      *before_cmp = rec != NULL;
    }
  /* A no-values record has no first-run counter.  */
  if (rec
      && rec->n_counters != (unsigned) (lp_record_counters (g)
					- (*no_values ? 1 : 0)))
    {
      rec = NULL;
      *no_values = *before_cmp = false;
    }
  return rec;
}

/* Whether the profile has a record that fits G for the current
   function (NODE, profile name NAME, as lp_use_function looks it up).
   pass.cc asks it of the graph without fake edges after calls: a
   profile trained with no-exact-calls, or lean, has that graph's.  */

bool
lp_use_profile_fits_p (cgraph_node *node, const lp_graph *g, const char *name)
{
  if (lp_coverage_profile_p ())
    return false;
  char *old_name = lp_old_profile_name (node->decl, name);
  bool name_found, no_values, before_cmp;
  bool fits = matching_record (old_name ? old_name : name, g, &name_found,
			       &no_values, &before_cmp) != NULL;
  free (old_name);
  return fits;
}

/* Annotate the current function (NODE, profile name NAME, graph G).
   Consumes G's fake edges.  */

static void
use_function (cgraph_node *node, lp_graph *g, const char *name)
{
  FILE *dump = lp_dump_stream ();
  bool name_found;
  tree decl = node->decl;
  if (lp_coverage_profile_p ())
    {
      use_coverage (node, g, name);
      return;
    }
  bool no_values, before_cmp;
  const lp_profile_record *rec
    = matching_record (name, g, &name_found, &no_values, &before_cmp);
  if (no_values)
    g->values = false;
  auto_vec<int> sites_before_cmp;
  if (before_cmp)
    lp_sites_before_cmp (g, &sites_before_cmp);
  if (!rec && g->checksum_memop_counters)
    older_memop_layout (decl, name, g);
  if (!rec)
    {
      /* Stale profile: the function changed since training.  */
      if (name_found && salvage (node, g, name))
	return;
      lp_release_graph (g);
      if (name_found)
	{
	  if (dump)
	    fputs ("  profile mismatch\n", dump);
	  lp_use_mismatch (decl, false);
	  return;
	}
      n_missing++;
      if (dump)
	fputs ("  profile missing\n", dump);
      missing_nodes.safe_push (node);
      return;
    }

  n_matched++;
  if (!DECL_COMDAT (decl) && !DECL_EXTERNAL (decl))
    n_own_matched++;
  auto_vec<gcov_type> count;
  count.safe_grow_cleared (g->edges.length ());
  unsigned i;
  lp_edge *le;
  if (dump)
    fputs ("  profile match counters=", dump);
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (le->counter >= 0)
      {
	count[i] = lp_profile_counter (rec, le->counter);
	if (dump)
	  fprintf (dump, "%s%" PRId64, le->counter ? "," : "",
		   (int64_t) count[i]);
      }
  if (dump)
    fputc ('\n', dump);

  int clamped = lp_solve_flow (g, count.address ());
  int unreturned = lp_solve_flow_unreturned (g, count.address ());
  if (unreturned >= 0)
    {
      clamped = unreturned;
      if (dump)
	fputs ("  ran without returning: entry count 1\n", dump);
    }
  if (clamped)
    {
      n_inconsistent++;
      if (dump)
	fprintf (dump, "  inconsistent counts: %d clamped\n", clamped);
    }
  lp_release_graph (g);

  gcov_type entry = count[0];	/* The virtual EXIT->ENTRY edge.  */
  if (entry == 0 && latepgo_opts.partial_training)
    return;
  if (entry == 0)
    {
      annotate_never_run ();
      never_run_nodes.add (node);
    }
  else
    lp_annotate_counts (g, count.address (), dump, false, NULL, NULL);
  profile_status_for_fn (cfun) = PROFILE_READ;
  update_max_bb_count ();
  if (entry > 0)
    {
      record_loop_bounds ();
      lp_annotate_values (g, rec, (sites_before_cmp.is_empty () ? NULL
				   : sites_before_cmp.address ()), dump);
      lp_annotate_first_run (rec, node, dump);
    }
  compute_function_frequency ();
  if (dump)
    lp_dump_line_counts (dump);
  annotated.safe_push (node);
}

/* Annotate the current function (NODE, profile name NAME, graph G),
   under its name before its file was renamed if it was (see
   renamed-unit.cc).  Consumes G's fake edges.  */

void
lp_use_function (cgraph_node *node, lp_graph *g, const char *name)
{
  char *old_name = lp_old_profile_name (node->decl, name);
  if (!old_name)
    {
      use_function (node, g, name);
      return;
    }
  if (FILE *dump = lp_dump_stream ())
    fprintf (dump, "  profile name %s\n", old_name);
  use_function (node, g, old_name);
  free (old_name);
}

/* Annotate the current function (NODE, graph G) with the flow COUNT
   inferred from a sample profile (sample-use.cc); blocks with
   KEEP_GUESS keep their static branch probabilities.  G is released.  */

void
lp_use_annotate_sampled (cgraph_node *node, lp_graph *g, gcov_type *count,
			 const bool *keep_guess, const bool *firm_zero)
{
  FILE *dump = lp_dump_stream ();
  lp_release_graph (g);
  n_matched++;
  lp_annotate_counts (g, count, dump, true, keep_guess, firm_zero);
  profile_status_for_fn (cfun) = PROFILE_READ;
  update_max_bb_count ();
  compute_function_frequency ();
  if (dump)
    lp_dump_line_counts (dump);
  annotated.safe_push (node);
}

/* A function whose profile (SAMPLED: sample profile) is stale: an
   error with mismatch=error, else one warning for the whole unit at
   the end (lp_use_finish).  */

void
lp_use_mismatch (tree decl, bool sampled)
{
  n_mismatched++;
  stale_decls.safe_push (decl);
  stale_sampled = sampled;
  if (latepgo_opts.mismatch_error)
    error_at (DECL_SOURCE_LOCATION (decl),
	      "latepgo: the %s of %qD does not match its control flow (the "
	      "source or the options changed since %s)",
	      sampled ? "sample profile" : "profile", decl,
	      sampled ? "the profiled build" : "training");
}

/* A function without samples (sample-use.cc).  */

void
lp_use_missing (void)
{
  n_missing++;
}

/* After the last function: call-graph counts, COMDAT copies without
   data, and the flag that tells the rest of GCC a profile was read.  */

/* Give NODE, annotated as never run, its static estimate back: the
   never-run counts are GCC's guessed shape made globally zero, so
   making them local again restores it (as predict.cc:drop_profile does
   for a function with zero counts that hot code calls).  */

static void
restore_static_estimate (cgraph_node *node)
{
  push_cfun (DECL_STRUCT_FUNCTION (node->decl));
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    bb->count = bb->count.guessed_local ();
  profile_status_for_fn (cfun) = PROFILE_GUESSED;
  update_max_bb_count ();
  /* For a guessed profile compute_function_frequency sets only what
     attributes and main imply; the rest would stay unlikely.  */
  node->frequency = NODE_FREQUENCY_NORMAL;
  compute_function_frequency ();
  pop_cfun ();
}

/* A never-run count says that no caller of the training build called
   the function; it says nothing about a caller the profile does not
   describe: a stale function or one that is new since training.  Such
   a caller keeps static estimates, and its calls may run.  Taken as
   never run, the callee goes to .text.unlikely and is optimized for
   size, and the caller's blocks that call it become never executed
   (predict.cc:unlikely_executed_stmt_p), a cold part of the caller
   (sqlite3VdbeExec with a year-old profile calls 43 such functions;
   54.9M instructions, 54.3M with them woken and itself not marked hot,
   see handle_missing_profiles_of_profiled; plain -O2 54.0M).  So the
   never-run callees of the functions in ROOTS (with static estimates)
   get their static estimates back, and so do their own never-run
   callees, as plain -O2 would have them; WOKEN, unless NULL, receives
   them.  */

static void
wake_callees (vec<cgraph_node *> &roots, vec<cgraph_node *> *woken)
{
  auto_vec<cgraph_node *> work;
  for (cgraph_node *node : roots)
    work.safe_push (node);
  while (!work.is_empty ())
    {
      cgraph_node *node = work.pop ();
      for (cgraph_edge *e = node->callees; e; e = e->next_callee)
	{
	  cgraph_node *callee = e->callee->ultimate_alias_target ();
	  if (!never_run_nodes.contains (callee))
	    continue;
	  never_run_nodes.remove (callee);
	  restore_static_estimate (callee);
	  if (FILE *dump = lp_dump_stream ())
	    fprintf (dump, "static estimate for never-run %s: called by %s "
		     "without a profile\n", callee->dump_asm_name (),
		     node->dump_asm_name ());
	  work.safe_push (callee);
	  if (woken)
	    woken->safe_push (callee);
	}
    }
}

/* The same for measured calls: a function annotated with counts that
   calls a function the training run never called, with a nonzero
   count, makes a call the training run did not have.  A salvaged
   function's counts come partly from flow over code that changed
   (sqlite: lookupName now calls sqlite3ColumnIndex where it had a
   loop), and a matched one may call another function than it did: its
   checksum covers its CFG, not its callees.  Such a callee gets its
   static estimate back, and so do its own never-run callees; left
   never run, GCC's handle_missing_profiles would drop its profile
   anyway, with a "Missing counts for called function" warning that no
   option silences.  Call-graph edges must have been rebuilt.  The
   functions woken are added to WOKEN.  */

static void
wake_callees_with_calls (vec<cgraph_node *> *woken)
{
  unsigned first = woken->length ();
  for (cgraph_node *node : annotated)
    for (cgraph_edge *e = node->callees; e; e = e->next_callee)
      {
	cgraph_node *callee = e->callee->ultimate_alias_target ();
	if (!e->count.ipa ().nonzero_p ()
	    || !never_run_nodes.contains (callee))
	  continue;
	never_run_nodes.remove (callee);
	restore_static_estimate (callee);
	if (FILE *dump = lp_dump_stream ())
	  fprintf (dump, "static estimate for never-run %s: called by %s "
		   "with count %" PRId64 "\n", callee->dump_asm_name (),
		   node->dump_asm_name (),
		   (int64_t) e->count.ipa ().to_gcov_type ());
	woken->safe_push (callee);
      }
  auto_vec<cgraph_node *> roots;
  for (unsigned i = first; i < woken->length (); i++)
    roots.safe_push ((*woken)[i]);
  wake_callees (roots, woken);
}

/* GCC's handle_missing_profiles, for the functions of a profile: one
   whose count is 0 or unknown while a caller's measured count is not
   lost its counts (a COMDAT copy without data), gets its profile
   dropped to the static estimate, and is marked hot when the calls
   are.  The functions in UNANNOTATED never had counts: marked hot, all
   of their code counts as hot (predict.cc:maybe_hot_count_p goes by
   the function's frequency for a guessed profile): every call site
   looks hot to the inliner, error paths are optimized for speed
   (sqlite3VdbeExec with a year-old profile and its callees woken by
   wake_callees: 57.8M instructions marked hot, 54.3M not; plain -O2
   54.0M), and GCC warns "Missing counts for called function" for
   each, with no option to silence it.  So they are kept out: for the
   call, their count says they ran, and then their own count comes
   back.  */

static void
handle_missing_profiles_of_profiled (vec<cgraph_node *> &unannotated)
{
  auto_vec<profile_count> saved;
  for (cgraph_node *node : unannotated)
    {
      saved.safe_push (node->count);
      node->count = profile_count::from_gcov_type (1).guessed ();
    }
  handle_missing_profiles ();
  unsigned i;
  cgraph_node *node;
  FOR_EACH_VEC_ELT (unannotated, i, node)
    node->count = saved[i];
}

/* The names of DECLS for a warning: the first three, then how many
   more.  Caller frees.  */

static char *
decl_list (const vec<tree> &decls)
{
  obstack ob;
  gcc_obstack_init (&ob);
  unsigned shown = MIN (decls.length (), 3u);
  for (unsigned i = 0; i < shown; i++)
    {
      const char *n = lang_hooks.decl_printable_name (decls[i], 2);
      obstack_grow (&ob, i ? ", '" : "'", i ? 3 : 1);
      obstack_grow (&ob, n, strlen (n));
      obstack_1grow (&ob, '\'');
    }
  if (decls.length () > shown)
    {
      char more[40];
      snprintf (more, sizeof more, " and %u more", decls.length () - shown);
      obstack_grow (&ob, more, strlen (more));
    }
  obstack_1grow (&ob, '\0');
  char *res = xstrdup ((char *) obstack_finish (&ob));
  obstack_free (&ob, NULL);
  return res;
}

/* The unit's warnings, one line for each kind of trouble: a unit none
   of whose own functions matched (UNPROFILED), stale functions,
   functions the profile lacks.  */

static void
warn_unit (bool unprofiled, bool sampled)
{
  int total = n_matched + n_salvaged + n_mismatched + n_missing;
  const char *file = main_input_filename ? main_input_filename : "-";

  if (unprofiled)
    {
      /* COMDAT copies may still have matched: they were trained in
	 other files.  */
      int kept = n_missing + n_mismatched;
      if (kept == total)
	warning (OPT_Wmissing_profile,
		 "latepgo: no function of %qs has a profile in %qs (the "
		 "file was not part of the training run); its %d functions "
		 "keep static estimates", file, latepgo_opts.use_path, kept);
      else
	warning (OPT_Wmissing_profile,
		 "latepgo: no function of %qs has a profile in %qs (the "
		 "file was not part of the training run); %d of its %d "
		 "functions keep static estimates", file,
		 latepgo_opts.use_path, kept, total);
      return;
    }
  if (n_salvaged)
    {
      char *names = decl_list (salvaged_decls);
      warning (OPT_Wcoverage_mismatch,
	       "latepgo: %d of %d functions have a stale profile that was "
	       "salvaged (%d%% of their training counts placed on the "
	       "changed code): %s", n_salvaged, total,
	       (int) (100 * salvaged_placed / n_salvaged + 0.5), names);
      free (names);
    }
  if (n_mismatched && !latepgo_opts.mismatch_error)
    {
      char *names = decl_list (stale_decls);
      warning (OPT_Wcoverage_mismatch,
	       "latepgo: %d of %d functions use static estimates because "
	       "their %s is stale: %s", n_mismatched, total,
	       stale_sampled ? "sample profile" : "profile", names);
      free (names);
    }
  if (n_missing && !sampled)
    {
      auto_vec<tree> decls;
      for (cgraph_node *node : missing_nodes)
	decls.safe_push (node->decl);
      char *names = decl_list (decls);
      warning (OPT_Wmissing_profile,
	       "latepgo: %d of %d functions are not in the profile and keep "
	       "static estimates: %s", n_missing, total, names);
      free (names);
    }
}

void
lp_use_finish (void)
{
  bool sampled = latepgo_opts.sample_use_path != NULL;
  bool unprofiled = !sampled && n_own_matched == 0 && n_missing > 0;
  /* Before the call graph's counts and the hot-call limits below: the
     copies change both.  */
  if (sampled)
    lp_sample_inline_contexts (&annotated);
  auto_vec<cgraph_node *> unannotated;
  for (cgraph_node *node : missing_nodes)
    unannotated.safe_push (node);
  for (tree decl : stale_decls)
    if (cgraph_node *node = cgraph_node::get (decl))
      unannotated.safe_push (node);
  /* The functions woken join UNANNOTATED: measured calls may reach
     them too now.  */
  auto_vec<cgraph_node *> woken;
  wake_callees (unannotated, &woken);
  for (cgraph_node *node : annotated)
    {
      push_cfun (DECL_STRUCT_FUNCTION (node->decl));
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }
  wake_callees_with_calls (&woken);
  for (cgraph_node *node : woken)
    unannotated.safe_push (node);
  handle_missing_profiles_of_profiled (unannotated);
  lp_inherit_first_run ();

  /* Set late: earlier, GCC's own profile pass would run and overwrite
     our counts; never, and the IPA inliner asserts on read counts
     (doc/data-path.md section 9).  Both copies cc1 reads it from, and
     functions with their own optimize attribute.  */
  global_options.x_flag_branch_probabilities = 1;
  TREE_OPTIMIZATION (optimization_default_node)->x_flag_branch_probabilities
    = 1;
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      tree opts = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (node->decl);
      if (opts)
	TREE_OPTIMIZATION (opts)->x_flag_branch_probabilities = 1;
    }

  warn_unit (unprofiled, sampled);
  if (FILE *dump = lp_dump_stream ())
    fprintf (dump, "unit matched=%d stale=%d missing=%d unprofiled=%d%s\n",
	     n_matched, n_mismatched, n_missing, unprofiled ? 1 : 0,
	     n_missing && !sampled ? " missing-static" : "");
  if (n_salvaged && lp_dump_stream ())
    fprintf (lp_dump_stream (), "unit salvaged=%d placed=%.3f\n",
	     n_salvaged, salvaged_placed / n_salvaged);
  if (n_inconsistent && lp_dump_stream ())
    fprintf (lp_dump_stream (), "inconsistent functions: %d\n",
	     n_inconsistent);
  /* After the flags above: the nodes it makes copy them.  */
  lp_raise_hot_inline_limits (annotated);
  lp_report_unit (n_matched, n_mismatched, n_missing, unprofiled,
		  n_inconsistent, n_salvaged);
  annotated.release ();
  missing_nodes.release ();
  stale_decls.release ();
  salvaged_decls.release ();
  never_run_nodes.empty ();
  lp_renamed_unit_end ();
}
