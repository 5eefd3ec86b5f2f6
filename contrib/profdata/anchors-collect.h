/* anchors-collect.h: the CFG anchors of training binaries, written
   beside a merged profile (anchors-collect.c).  */

#ifndef LATEPGO_ANCHORS_COLLECT_H
#define LATEPGO_ANCHORS_COLLECT_H

#include <stddef.h>

struct anchors_set;

struct anchors_set *anchors_set_new (void);
/* Add the records of PATH: a linked binary whose generate build left
   its .latepgo_anchors section, an anchors file, or a directory, whose
   linked binaries with that section are all added.  Exits with a
   message naming PATH when it has none or they are corrupt.  */
void anchors_set_add_file (struct anchors_set *set, const char *path);
/* Write SET's records, each (name, hash) once, to PATH (atomically);
   returns how many.  */
size_t anchors_set_write (struct anchors_set *set, const char *path);
size_t anchors_set_size (const struct anchors_set *set);
void anchors_set_free (struct anchors_set *set);

#endif /* LATEPGO_ANCHORS_COLLECT_H */
