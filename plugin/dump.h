/* dump.h: the dump file (dump.cc).  */

#ifndef LATEPGO_DUMP_H
#define LATEPGO_DUMP_H

#include "cfg-graph.h"

extern void lp_dump_open (const char *);
extern void lp_dump_function (const char *, const char *, lp_graph *, int);
extern void lp_dump_close (void);
extern FILE *lp_dump_stream (void);

#endif /* LATEPGO_DUMP_H */
