/* shard.h: counter references, per-thread shards (shard.cc).  */

#ifndef LATEPGO_SHARD_H
#define LATEPGO_SHARD_H

extern void lp_shard_begin (tree);
extern bool lp_shard_active_p (void);
extern tree lp_counter_ref (tree, tree);
extern tree lp_counter_home_ref (tree, tree);
extern void lp_shard_end (tree);
extern const struct ggc_root_tab lp_shard_roots[];

#endif /* LATEPGO_SHARD_H */
