/* section-vars.h: variables in named sections (section-vars.cc).  */

#ifndef LATEPGO_SECTION_VARS_H
#define LATEPGO_SECTION_VARS_H

extern tree lp_build_section_var (const char *, tree, const char *);
extern void lp_mark_retained (tree);
extern tree lp_build_addr_diff (tree, tree);

#endif /* LATEPGO_SECTION_VARS_H */
