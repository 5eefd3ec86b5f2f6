/* names.h: which functions, their profile and symbol names (names.cc).  */

#ifndef LATEPGO_NAMES_H
#define LATEPGO_NAMES_H

extern char *lp_profile_name (tree fndecl);
extern const char *lp_symbol_name (tree fndecl);
extern const char *lp_static_name_prefix (void);
extern unsigned HOST_WIDE_INT lp_md5_low64 (const void *, size_t);
extern bool lp_skip_function_p (cgraph_node *);

#endif /* LATEPGO_NAMES_H */
