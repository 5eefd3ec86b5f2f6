/* symtab.c: name MD5 -> name map over a store's records, used to print
   indirect-call targets by name in the text format.  */

#include "profile.h"
#include "tool-util.h"

#include <stdlib.h>

void
lp_symtab_init (struct lp_symtab *tab, struct lp_record **recs, size_t num)
{
  size_t n = 16;
  while (n < 2 * num)
    n *= 2;
  tab->mask = n - 1;
  tab->slots = xcalloc (n, sizeof *tab->slots);
  for (size_t i = 0; i < num; i++)
    {
      size_t s = (size_t) recs[i]->name_md5 & tab->mask;
      while (tab->slots[s] && tab->slots[s]->name_md5 != recs[i]->name_md5)
	s = (s + 1) & tab->mask;
      if (!tab->slots[s])
	tab->slots[s] = recs[i];
    }
}

void
lp_symtab_free (struct lp_symtab *tab)
{
  free (tab->slots);
  tab->slots = NULL;
}

/* Return the record named by MD5, or NULL.  */
const struct lp_record *
lp_symtab_lookup (const struct lp_symtab *tab, uint64_t md5)
{
  size_t s = (size_t) md5 & tab->mask;
  while (tab->slots[s])
    {
      if (tab->slots[s]->name_md5 == md5)
	return tab->slots[s];
      s = (s + 1) & tab->mask;
    }
  return NULL;
}
