/* build-cache.h: a use build under ccache that cannot see its profile
   (build-cache.cc).  */

#ifndef LATEPGO_BUILD_CACHE_H
#define LATEPGO_BUILD_CACHE_H

extern void lp_check_build_cache (void);

#endif /* LATEPGO_BUILD_CACHE_H */
