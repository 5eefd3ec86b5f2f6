/* relocate.cc: runtime counter relocation, for continuous mode
   (-fplugin-arg-latepgo-runtime-counter-relocation; doc/continuous.md).

   A continuous-mode run keeps the counters in a shared mapping of the
   profile file, so that a process killed by SIGKILL or ending in _exit
   loses no count.  ELF cannot map a file over the counters section
   itself, so, as LLVM's -runtime-counter-relocation, the code counts
   at an address the runtime chooses: each function loads the
   runtime's bias once, at its entry,

     b = __latepgo_counter_bias;	(0 until the runtime maps the file)
     base = &COUNTERS p+ b;
     ...
     (*base)[IDX] += 1

   and every counter of the function is updated through BASE
   (shard.cc's lp_counter_ref).  Per-thread shards are not used: their
   counts would live outside the file until a thread exits; update=atomic
   becomes relaxed atomic adds on the mapped counters instead.

   Built without this argument, nothing here runs and the objects are
   what they always were.  */

#include "gcc-common.h"
#include "relocate.h"
#include "arguments.h"
#include "runtime-decls.h"
#include "../libprof/latepgo-abi.h"

static tree bias_decl;

const struct ggc_root_tab lp_relocate_roots[] = {
  { &bias_decl, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* Whether this compilation relocates its counters.  */

bool
lp_relocation_p (void)
{
  return latepgo_opts.counter_relocation;
}

/* After *GSI, define BASE as &COUNTERS moved by DELTA bytes (a long):
   the per-thread shard's or the relocated counters.  The offset's
   temporary is named NAME.  */

void
lp_define_moved_base (gimple_stmt_iterator *gsi, tree base, tree counters,
		      tree delta, const char *name)
{
  tree off = make_temp_ssa_name (sizetype, NULL, name);
  gsi_insert_after (gsi, gimple_build_assign (off, NOP_EXPR, delta),
		    GSI_NEW_STMT);
  gsi_insert_after (gsi, gimple_build_assign
			   (base, POINTER_PLUS_EXPR,
			    build_fold_addr_expr (counters), off),
		    GSI_NEW_STMT);
}

/* Define BASE, a pointer to COUNTERS' type, as &COUNTERS plus the
   runtime's bias, at the entry of the current function, before
   everything the instrumentation put there.  */

void
lp_relocation_prologue (tree base, tree counters)
{
  if (!bias_decl)
    bias_decl = lp_runtime_var_decl (LATEPGO_COUNTER_BIAS_SYMBOL,
				     long_integer_type_node);

  basic_block entry = ENTRY_BLOCK_PTR_FOR_FN (cfun);
  basic_block bb = split_edge (single_succ_edge (entry));
  tree bias = make_temp_ssa_name (long_integer_type_node, NULL,
				  "PROF_reloc_bias");
  gimple_stmt_iterator gsi = gsi_start_bb (bb);
  gsi_insert_after (&gsi, gimple_build_assign (bias, bias_decl),
		    GSI_NEW_STMT);
  lp_define_moved_base (&gsi, base, counters, bias, "PROF_reloc_bias");
}
