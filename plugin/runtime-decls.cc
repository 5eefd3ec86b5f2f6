/* runtime-decls.cc: declarations of the runtime's symbols (libprof,
   latepgo-abi.h) that instrumented code refers to.  Generate mode
   (generate.cc), value profiles (values.cc) and per-thread counters
   (shard.cc) all declare them the same way.  */

#include "gcc-common.h"
#include "../libprof/latepgo-abi.h"
#include "runtime-decls.h"

/* The indirect-call helpers' declarations, plain and atomic, and that
   of what memop table blocks refer to.  GC roots (lp_runtime_decls_roots,
   registered by plugin_init).  */
static tree helper_decls[2];
static tree memop_tables_decl;

const struct ggc_root_tab lp_runtime_decls_roots[] = {
  { &helper_decls[0], 2, sizeof (tree), gt_ggc_mx_tree_node,
    gt_pch_nx_tree_node },
  { &memop_tables_decl, 1, sizeof (tree), gt_ggc_mx_tree_node,
    gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* The declaration of NAME, a hidden variable of TYPE in the runtime.  */

tree
lp_runtime_var_decl (const char *name, tree type)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
			  type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  varpool_node::get_create (decl);
  return decl;
}

/* The declaration of NAME, a hidden, nothrow, leaf function of FNTYPE
   in the runtime.  */

tree
lp_runtime_fn_decl (const char *name, tree fntype)
{
  tree decl = build_fn_decl (name, fntype);
  TREE_NOTHROW (decl) = 1;
  DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("leaf"), NULL, NULL);
  /* Built late, so force the assembler name (as gcov's decls).  */
  DECL_ASSEMBLER_NAME (decl);
  return decl;
}

/* The declaration of the indirect-call helper (latepgo-abi.h), ATOMIC
   or plain: hidden, nothrow, leaf.  Made once per compilation.  */

tree
lp_icall_helper_decl (bool atomic)
{
  int k = atomic ? 1 : 0;
  if (helper_decls[k])
    return helper_decls[k];
  tree fntype = build_function_type_list (void_type_node, ptr_type_node,
					  build_pointer_type (ptr_type_node),
					  NULL_TREE);
  helper_decls[k] = lp_runtime_fn_decl (atomic
					? LATEPGO_ICALL_TARGET_ATOMIC_SYMBOL
					: LATEPGO_ICALL_TARGET_SYMBOL, fntype);
  return helper_decls[k];
}

/* The declaration of what the table blocks of memop nodes refer to
   (latepgo-abi.h): extern hidden const char
   LATEPGO_MEMOP_TABLES_SYMBOL.  */

tree
lp_memop_tables_decl (void)
{
  if (memop_tables_decl)
    return memop_tables_decl;
  memop_tables_decl = lp_runtime_var_decl (LATEPGO_MEMOP_TABLES_SYMBOL,
					   char_type_node);
  TREE_READONLY (memop_tables_decl) = 1;
  return memop_tables_decl;
}

/* Whether FNDECL is one of the indirect-call helpers: they return and
   touch only value nodes, never the program's memory.  */

bool
lp_runtime_helper_p (tree fndecl)
{
  for (unsigned k = 0; k < ARRAY_SIZE (helper_decls); k++)
    if (helper_decls[k] && fndecl == helper_decls[k])
      return true;
  return false;
}
