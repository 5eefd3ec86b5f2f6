/* entry-guard.h: a guarded block at a function's entry
   (entry-guard.cc).  */

#ifndef LATEPGO_ENTRY_GUARD_H
#define LATEPGO_ENTRY_GUARD_H

extern void lp_entry_guard (basic_block *, basic_block *, basic_block *,
			    edge *);

#endif /* LATEPGO_ENTRY_GUARD_H */
