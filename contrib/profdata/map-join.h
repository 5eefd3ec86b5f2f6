/* map-join.h: joining lean raw profiles with the maps of the binaries
   that wrote them (map-join.c, doc/lean.md).  */

#ifndef LATEPGO_MAP_JOIN_H
#define LATEPGO_MAP_JOIN_H

#include "profile.h"

struct map_set;

struct map_set *map_set_new (void);
void map_set_free (struct map_set *set);
size_t map_set_size (const struct map_set *set);

/* Add the map of PATH, a lean binary (--binary) or the map extracted
   from one (--map); exit with a message naming PATH when it has none,
   no build id, or a corrupt map.  */
void map_set_add (struct map_set *set, const char *path);

/* Replace every lean profile of the raw PROF (opened with
   lp_profile_open_lean) by the profile a non-lean build of the same
   binary writes: records and names from the map with its build id.
   Return 0, or -1 with ERR set.  */
int map_join (struct lp_profile *prof, const struct map_set *set,
	      struct lp_err *err);

#endif /* LATEPGO_MAP_JOIN_H */
