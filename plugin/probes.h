/* probes.h: pseudo probes (probes.cc).  */

#ifndef LATEPGO_PROBES_H
#define LATEPGO_PROBES_H

extern void lp_probe_numbering (vec<basic_block> *, vec<gimple *> *);
extern int lp_probes_function (cgraph_node *, const char *,
			       unsigned HOST_WIDE_INT);
extern int lp_probe_marker_id (gimple *, bool *);
extern void lp_probes_finish (void);
extern void lp_probes_register (const char *);

#endif /* LATEPGO_PROBES_H */
