/* coverage-inline.h: coverage=function for the functions GCC inlined
   before the latepgo pass (coverage-inline.cc).  */

#ifndef LATEPGO_COVERAGE_INLINE_H
#define LATEPGO_COVERAGE_INLINE_H

/* A function that has a byte in this file but whose own body was not
   instrumented here: it needs a record of its own.  */
struct lp_inline_only_fn
{
  char *name;			/* Its profile name; caller frees.  */
  tree bytes;
};

extern tree lp_coverage_own_byte (tree);
extern void lp_coverage_inline_instances (tree);
extern void lp_coverage_inline_finish (vec<lp_inline_only_fn> *);

#endif /* LATEPGO_COVERAGE_INLINE_H */
