/* runtime-decls.h: declarations of the runtime's symbols
   (runtime-decls.cc).  */

#ifndef LATEPGO_RUNTIME_DECLS_H
#define LATEPGO_RUNTIME_DECLS_H

extern tree lp_runtime_var_decl (const char *, tree);
extern tree lp_runtime_fn_decl (const char *, tree);
extern tree lp_icall_helper_decl (bool);
extern tree lp_memop_tables_decl (void);
extern bool lp_runtime_helper_p (tree);
extern const struct ggc_root_tab lp_runtime_decls_roots[];

#endif /* LATEPGO_RUNTIME_DECLS_H */
