/* index-table.h: a hash index over an array the caller owns.

   Open addressing with linear probing, kept at most half full.  Each
   used slot holds an element's index + 1 (0 = empty) and the element's
   hash, so the table grows without asking the caller for keys.  The
   caller compares keys itself:

     uint64_t h = ...hash of KEY...;
     size_t s;
     for (s = index_table_start (&t, h); t.slots[s];
	  s = index_table_next (&t, s))
       if (t.hashes[s] == h && ...element t.slots[s] - 1 has KEY...)
	 return ...found...;
     ...append the new element at index I...;
     index_table_add (&t, s, h, I);  */

#ifndef LATEPGO_INDEX_TABLE_H
#define LATEPGO_INDEX_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct index_table
{
  uint32_t *slots;		/* Element index + 1, or 0.  */
  uint64_t *hashes;		/* The element's hash, where slots[] != 0.  */
  size_t mask;			/* Number of slots - 1.  */
  size_t count;			/* Used slots.  */
};

void index_table_init (struct index_table *t);
void index_table_free (struct index_table *t);

/* The first slot to look at for HASH.  */
size_t index_table_start (const struct index_table *t, uint64_t hash);

static inline size_t
index_table_next (const struct index_table *t, size_t s)
{
  return (s + 1) & t->mask;
}

/* Put element INDEX of hash HASH into empty slot S (where a lookup of
   HASH stopped); the table may grow, which moves every slot.  */
void index_table_add (struct index_table *t, size_t s, uint64_t hash,
		      uint32_t index);

#endif
