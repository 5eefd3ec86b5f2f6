/* lean.h: lean generate builds, metadata out of the loaded image
   (lean.cc).  */

#ifndef LATEPGO_LEAN_H
#define LATEPGO_LEAN_H

/* One instrumented function of the file, as lean.cc needs it.  */
struct lp_lean_fn
{
  tree counters;
  unsigned HOST_WIDE_INT name_ref;
  unsigned HOST_WIDE_INT checksum;
  int n_counters;
};

extern void lp_lean_finish (const vec<lp_lean_fn> &, const char *, size_t,
			    tree);

#endif /* LATEPGO_LEAN_H */
