/* probes-lto.h: pseudo probes under -flto (probes-lto.cc).  */

#ifndef LATEPGO_PROBES_LTO_H
#define LATEPGO_PROBES_LTO_H

extern void lp_probes_lto_guard (const char *, const char *);
extern void lp_probes_lto_register (const char *);

#endif /* LATEPGO_PROBES_LTO_H */
