/* index-table.c: a hash index over an array the caller owns (see
   index-table.h).  */

#include <stdlib.h>

#include "index-table.h"
#include "tool-util.h"

#define INITIAL_SLOTS 64

void
index_table_init (struct index_table *t)
{
  t->mask = INITIAL_SLOTS - 1;
  t->count = 0;
  t->slots = xcalloc (INITIAL_SLOTS, sizeof *t->slots);
  t->hashes = xmalloc (INITIAL_SLOTS * sizeof *t->hashes);
}

void
index_table_free (struct index_table *t)
{
  free (t->slots);
  free (t->hashes);
  t->slots = NULL;
  t->hashes = NULL;
}

size_t
index_table_start (const struct index_table *t, uint64_t hash)
{
  /* Fibonacci hashing: the product's high half mixes every bit of
     HASH (pids and GUIDs differ in their low bits only, or not).  */
  return (size_t) ((hash * 0x9e3779b97f4a7c15ULL) >> 32) & t->mask;
}

void
index_table_add (struct index_table *t, size_t s, uint64_t hash,
		 uint32_t index)
{
  t->slots[s] = index + 1;
  t->hashes[s] = hash;
  if (2 * ++t->count <= t->mask)
    return;

  size_t old_size = t->mask + 1;
  uint32_t *old_slots = t->slots;
  uint64_t *old_hashes = t->hashes;
  t->mask = 2 * old_size - 1;
  t->slots = xcalloc (2 * old_size, sizeof *t->slots);
  t->hashes = xmalloc (2 * old_size * sizeof *t->hashes);
  for (size_t i = 0; i < old_size; i++)
    if (old_slots[i])
      {
	size_t n = index_table_start (t, old_hashes[i]);
	while (t->slots[n])
	  n = index_table_next (t, n);
	t->slots[n] = old_slots[i];
	t->hashes[n] = old_hashes[i];
      }
  free (old_slots);
  free (old_hashes);
}
