/* relocate.h: runtime counter relocation (relocate.cc).  */

#ifndef LATEPGO_RELOCATE_H
#define LATEPGO_RELOCATE_H

extern bool lp_relocation_p (void);
extern void lp_relocation_prologue (tree, tree);
extern void lp_define_moved_base (gimple_stmt_iterator *, tree, tree, tree,
				  const char *);
extern const struct ggc_root_tab lp_relocate_roots[];

#endif /* LATEPGO_RELOCATE_H */
