/* section-var.h: variables in the profile sections (section-var.cc).  */

#ifndef LATEPGO_SECTION_VAR_H
#define LATEPGO_SECTION_VAR_H

extern tree lp_build_section_var (const char *, tree, const char *);

#endif /* LATEPGO_SECTION_VAR_H */
