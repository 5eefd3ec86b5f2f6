/* pass.h: the latepgo pass (pass.cc).  */

#ifndef LATEPGO_PASS_H
#define LATEPGO_PASS_H

extern opt_pass *lp_make_pass (gcc::context *, const char *, const char *);

#endif /* LATEPGO_PASS_H */
