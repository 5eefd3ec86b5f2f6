/* section-var.cc: the variables generate mode emits into the profile
   sections (generate.cc: counters, records, names, marks; coverage.cc:
   coverage bytes).  */

#include "gcc-common.h"
#include "section-var.h"

/* A static, artificial variable NAME of TYPE in SECTION, used only
   through the section.  */

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
