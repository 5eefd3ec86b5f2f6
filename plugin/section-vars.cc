/* section-vars.cc: the variables generate mode puts into named
   sections for the runtime and the tools (generate.cc, lean.cc):
   static, artificial, kept although no code refers to them, and
   initialized with address differences that cost no dynamic
   relocation.  */

#include "gcc-common.h"
#include "section-vars.h"

/* A static, artificial, used-only-by-sections variable.  */

tree
lp_build_section_var (const char *name, tree type, const char *section)
{
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL,
			 get_identifier (name), type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  DECL_NONALIASED (var) = 1;
  set_decl_section_name (var, section);
  SET_DECL_ASSEMBLER_NAME (var, get_identifier (name));
  return var;
}

/* Keep VAR although nothing refers to it: as __attribute__((used,
   retain)), so that linkers that collect sections reached only through
   __start_ symbols (lld's default -z start-stop-gc with --gc-sections)
   keep the records and names too (SHF_GNU_RETAIN).  */

void
lp_mark_retained (tree var)
{
  DECL_PRESERVE_P (var) = 1;
  DECL_ATTRIBUTES (var) = tree_cons (get_identifier ("retain"), NULL_TREE,
				     DECL_ATTRIBUTES (var));
}

/* (long) &A - (long) &B as an initializer: an assembler-time constant
   for A and B in this object, a link-time one otherwise.  */

tree
lp_build_addr_diff (tree a, tree b)
{
  tree type = long_long_integer_type_node;
  return build2 (MINUS_EXPR, type,
		 fold_convert (type, build_fold_addr_expr (a)),
		 fold_convert (type, build_fold_addr_expr (b)));
}
