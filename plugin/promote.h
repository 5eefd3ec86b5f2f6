/* promote.h: counters of closed loops kept in registers (promote.cc).  */

#ifndef LATEPGO_PROMOTE_H
#define LATEPGO_PROMOTE_H

/* At most this many counters are promoted to one loop, and at most so
   many that their flushes on the loop's exit edges (one per counter
   and exit) number LP_FLUSHES_PER_LOOP (promote.cc).  */
#define LP_PROMOTIONS_PER_LOOP 20
#define LP_FLUSHES_PER_LOOP 512

extern bool lp_promote_begin (void);
extern void lp_promote_end (bool);
extern gimple_seq lp_counter_add_seq (tree, tree, tree);
extern void lp_plan_promotions (lp_graph *, vec<class loop *> *);
extern bool lp_queue_counter (tree, int, edge, class loop *);

#endif /* LATEPGO_PROMOTE_H */
