/* vect-guard.h: counts the vectorizer of GCC 12 would divide by zero
   (vect-guard.cc).  */

#ifndef LATEPGO_VECT_GUARD_H
#define LATEPGO_VECT_GUARD_H

/* Register, for the plugin NAME, the pass that runs just before GCC's
   loop vectorizer in a build that reads a profile.  */
void lp_vect_guard_register (const char *name);

#endif
