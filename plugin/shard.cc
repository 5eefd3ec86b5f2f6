/* shard.cc: counter references, and per-thread shards (update=atomic).

   Every counter update of generate mode goes through lp_counter_ref.
   Without shards it is COUNTERS[IDX].  With shards (update=atomic, on
   targets with native TLS) it is the same counter in the calling
   thread's copy of the counters section (libprof/prof-shard.c):

     entry:  d = __latepgo_shard_delta;
	     if (d == 0)			(unlikely)
	       d = __latepgo_shard_init ();
	     base = &COUNTERS p+ d;
	     ...
	     (*base)[IDX] += 1			(plain adds)

   so threads never write the same counter and need no atomic
   instruction; the runtime adds the shards up.  The prologue is
   emitted by lp_shard_end, after every update was placed, and only if
   one refers to BASE.

   With runtime counter relocation (relocate.cc) BASE is instead the
   function's counters moved by the runtime's bias, shards are not
   used, and the first-run counter (lp_counter_home_ref) is relocated
   too.  */

#include "gcc-common.h"
#include "shard.h"
#include "entry-guard.h"
#include "relocate.h"
#include "arguments.h"
#include "runtime-decls.h"
#include "varasm.h"
#include "target.h"
#include "../libprof/latepgo-abi.h"

static tree delta_decl;
static tree init_decl;

const struct ggc_root_tab lp_shard_roots[] = {
  { &delta_decl, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &init_decl, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* The current function's BASE (an SSA name defined by the prologue),
   or NULL_TREE when counters are updated in place.  */
static tree shard_base;
static bool shard_base_used;
/* Whether BASE is the relocated section rather than a shard.  */
static bool relocating;

/* Whether this compilation counts into per-thread shards.  */

static bool
lp_shards_p (void)
{
  return latepgo_opts.atomic && !latepgo_opts.atomic_add && targetm.have_tls;
}

/* The runtime's thread-local delta and init function.  Initial-exec in
   code for shared objects, so that reading the delta is one load from
   the thread pointer rather than a __tls_get_addr call; the default
   (local-exec) in executables.  */

static void
init_decls (void)
{
  if (delta_decl)
    return;
  delta_decl = lp_runtime_var_decl (LATEPGO_SHARD_DELTA_SYMBOL,
				    long_integer_type_node);
  enum tls_model model = decl_default_tls_model (delta_decl);
  if (model < TLS_MODEL_INITIAL_EXEC)
    model = TLS_MODEL_INITIAL_EXEC;
  set_decl_tls_model (delta_decl, model);
  init_decl = lp_runtime_fn_decl (LATEPGO_SHARD_INIT_SYMBOL,
				  build_function_type_list
				    (long_integer_type_node, NULL_TREE));
}

/* Start instrumenting the current function, whose counter array is
   COUNTERS.  */

void
lp_shard_begin (tree counters)
{
  shard_base = NULL_TREE;
  shard_base_used = false;
  relocating = lp_relocation_p ();
  if (relocating)
    {
      shard_base = make_temp_ssa_name (build_pointer_type
					 (TREE_TYPE (counters)),
				       NULL, "PROF_reloc");
      return;
    }
  if (!lp_shards_p ())
    return;
  init_decls ();
  shard_base = make_temp_ssa_name (build_pointer_type (TREE_TYPE (counters)),
				   NULL, "PROF_shard");
}

/* Whether counter updates of the current function go to a shard: plain
   adds, whatever the update mode.  */

bool
lp_shard_active_p (void)
{
  return shard_base != NULL_TREE && !relocating;
}

/* The counter IDX (a constant or an SSA name) of COUNTERS, as an
   lvalue: in the thread's shard, or in place.  */

tree
lp_counter_ref (tree counters, tree idx)
{
  tree u64 = long_long_unsigned_type_node;
  tree array = counters;
  if (shard_base)
    {
      shard_base_used = true;
      array = build2 (MEM_REF, TREE_TYPE (counters), shard_base,
		      build_int_cst (TREE_TYPE (shard_base), 0));
    }
  return build4 (ARRAY_REF, u64, array, idx, NULL_TREE, NULL_TREE);
}

/* The counter IDX of COUNTERS in its home, never a shard: the section,
   or with relocation where the runtime moved it.  For the first-run
   counter, which is not summed over threads.  */

tree
lp_counter_home_ref (tree counters, tree idx)
{
  if (relocating)
    return lp_counter_ref (counters, idx);
  return build4 (ARRAY_REF, long_long_unsigned_type_node, counters, idx,
		 NULL_TREE, NULL_TREE);
}

/* Finish the current function: define BASE at its entry if anything
   refers to it (see above).  */

void
lp_shard_end (tree counters)
{
  tree base = shard_base;
  shard_base = NULL_TREE;
  if (!base)
    return;
  if (!shard_base_used)
    {
      release_ssa_name (base);
      return;
    }
  if (relocating)
    {
      lp_relocation_prologue (base, counters);
      return;
    }

  basic_block cond_bb, init_bb, join_bb;
  edge skip;
  lp_entry_guard (&cond_bb, &init_bb, &join_bb, &skip);

  tree ltype = long_integer_type_node;
  tree d_tls = make_temp_ssa_name (ltype, NULL, "PROF_shard_delta");
  tree d_init = make_temp_ssa_name (ltype, NULL, "PROF_shard_delta");
  tree d = make_temp_ssa_name (ltype, NULL, "PROF_shard_delta");

  gimple_stmt_iterator gsi = gsi_start_bb (cond_bb);
  gsi_insert_after (&gsi, gimple_build_assign (d_tls, delta_decl),
		    GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_cond (EQ_EXPR, d_tls,
					     build_int_cst (ltype, 0),
					     NULL_TREE, NULL_TREE),
		    GSI_NEW_STMT);

  gsi = gsi_start_bb (init_bb);
  gcall *call = gimple_build_call (init_decl, 0);
  gimple_call_set_lhs (call, d_init);
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);

  gphi *phi = create_phi_node (d, join_bb);
  add_phi_arg (phi, d_tls, skip, UNKNOWN_LOCATION);
  add_phi_arg (phi, d_init, single_succ_edge (init_bb), UNKNOWN_LOCATION);

  gsi = gsi_start_bb (join_bb);
  lp_define_moved_base (&gsi, base, counters, d, "PROF_shard_delta");
}
