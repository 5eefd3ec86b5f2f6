/* memcmp-version.h: memcmp and bcmp versioned for their common sizes
   (memcmp-version.cc).  */

#ifndef LATEPGO_MEMCMP_VERSION_H
#define LATEPGO_MEMCMP_VERSION_H

extern bool lp_memcmp_call_p (const gimple *);
extern void lp_memcmp_attach_sizes (gimple *, const gcov_type *, gcov_type);
extern void lp_memcmp_version_register (const char *);

#endif /* LATEPGO_MEMCMP_VERSION_H */
