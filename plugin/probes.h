/* probes.h: pseudo probes (probes.cc).  */

#ifndef LATEPGO_PROBES_H
#define LATEPGO_PROBES_H

extern void lp_probe_numbering (vec<basic_block> *, vec<gimple *> *);
extern int lp_probes_function (cgraph_node *, const char *,
			       unsigned HOST_WIDE_INT);
extern int lp_probe_marker_id (gimple *, bool *);
extern void lp_probes_finish (void);

/* A frame of a probe's inline path: a function (its GUID) and the call
   probe it was inlined at in the previous frame (0 for the first).  */
struct lp_probe_frame
{
  unsigned HOST_WIDE_INT guid;
  int call_site;
};
extern void lp_probe_marker_paths (void (*) (void *, gimple *, int, bool,
					     const lp_probe_frame *,
					     unsigned),
				   void *);
extern void lp_probes_register (const char *);

#endif /* LATEPGO_PROBES_H */
