/* promote.h: counters of closed loops kept in registers (promote.cc).  */

#ifndef LATEPGO_PROMOTE_H
#define LATEPGO_PROMOTE_H

extern bool lp_promote_begin (void);
extern void lp_promote_end (bool);
extern gimple_seq lp_counter_add_seq (tree, tree, tree);
extern bool lp_queue_counter (tree, int, edge,
			      hash_map<int_hash<int, -1, -2>, bool> *);

#endif /* LATEPGO_PROMOTE_H */
