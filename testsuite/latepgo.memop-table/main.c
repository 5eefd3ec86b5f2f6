/* main.c: table.exp's program, built without the plugin: both ()
   (sizes.c) runs once with every size from 0 to 600, and older.c's
   site counts the sizes 3 and 100.  Prints whether the runtime linked
   older.c's nodes, which follow sizes.c's table block and sites in
   the memop section, and their counts.  */

#include <stddef.h>
#include <stdio.h>
#include "latepgo-abi.h"

extern void both (size_t);
extern struct latepgo_value_node older_nodes[];
extern void older_count (unsigned long long);

int
main (void)
{
  for (size_t n = 0; n <= 600; n++)
    both (n);
  older_count (3);
  older_count (100);
  older_count (100);
  int linked = 1;
  for (unsigned b = 0; b + 1 < LATEPGO_MEMOP_BUCKETS; b++)
    if (older_nodes[b].next != &older_nodes[b + 1])
      linked = 0;
  printf ("older linked %d, size 3: %llu, 65..127: %llu\n", linked,
	  older_nodes[3].count, older_nodes[15].count);
  return 0;
}
