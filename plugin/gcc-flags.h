/* gcc-flags.h: GCC's own flags (gcc-flags.cc).  */

#ifndef LATEPGO_GCC_FLAGS_H
#define LATEPGO_GCC_FLAGS_H

extern bool lp_adopt_gcc_modes (const char *);
extern bool lp_adopt_gcc_flags (void);

extern bool lp_file_profiled_p (const char *);
extern void lp_clean_producer (const char *, const char *);

#endif /* LATEPGO_GCC_FLAGS_H */
