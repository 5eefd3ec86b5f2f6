/* prof-value.c: value-profile sites: insertion, merging and output
   order, following LLVM's InstrProfValueSiteRecord (values kept sorted
   by target value, counts saturating).  */

#include "profile.h"
#include "tool-util.h"
#include "lower-bound.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert (offsetof (struct lp_value, value) == 0,
		"lp_lower_bound_u64 finds values by their first member");

/* Return the index of the first value >= VALUE in SITE.  */
static uint32_t
site_lower_bound (const struct lp_site *site, uint64_t value)
{
  return lp_lower_bound_u64 (site->values, site->num, sizeof *site->values,
			     value);
}

static void
site_reserve (struct lp_site *site, uint32_t n)
{
  if (n <= site->cap)
    return;
  uint32_t cap = site->cap ? site->cap : 4;
  while (cap < n)
    cap *= 2;
  site->values = xrealloc (site->values, cap * sizeof *site->values);
  site->cap = cap;
}

void
lp_site_add (struct lp_site *site, uint64_t value, uint64_t count)
{
  uint32_t i;

  /* Readers mostly append in increasing order: check the end first.  */
  if (site->num == 0 || site->values[site->num - 1].value < value)
    i = site->num;
  else
    i = site_lower_bound (site, value);
  if (i < site->num && site->values[i].value == value)
    {
      site->values[i].count = lp_sat_add (site->values[i].count, count);
      return;
    }
  site_reserve (site, site->num + 1);
  memmove (site->values + i + 1, site->values + i,
	   (site->num - i) * sizeof *site->values);
  site->values[i].value = value;
  site->values[i].count = count;
  site->num++;
}

int
lp_site_merge (struct lp_site *dst, const struct lp_site *src,
	       uint64_t weight)
{
  struct lp_value *merged;
  uint32_t i = 0, j = 0, n = 0, cap;
  int overflow = 0;

  if (src->num == 0)
    return 0;
  cap = dst->num + src->num;
  merged = xmalloc (cap * sizeof *merged);
  while (i < dst->num || j < src->num)
    {
      if (j == src->num
	  || (i < dst->num && dst->values[i].value < src->values[j].value))
	merged[n++] = dst->values[i++];
      else
	{
	  uint64_t c = lp_sat_mul (src->values[j].count, weight);
	  if (i < dst->num && dst->values[i].value == src->values[j].value)
	    c = lp_sat_add (c, dst->values[i++].count);
	  overflow |= c == UINT64_MAX;
	  merged[n].value = src->values[j++].value;
	  merged[n++].count = c;
	}
    }
  free (dst->values);
  dst->values = merged;
  dst->num = n;
  dst->cap = cap;
  return overflow;
}

/* qsort comparator: decreasing count, then increasing value.  */
static int
cmp_output_order (const void *pa, const void *pb)
{
  const struct lp_value *a = pa, *b = pb;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  if (a->value != b->value)
    return a->value < b->value ? -1 : 1;
  return 0;
}

uint32_t
lp_site_for_output (const struct lp_site *site, struct lp_value **out,
		    size_t *cap)
{
  uint32_t n = site->num;
  if (n == 0)
    return 0;
  if (n > *cap)
    {
      *cap = n;
      *out = xrealloc (*out, n * sizeof **out);
    }
  memcpy (*out, site->values, n * sizeof **out);
  qsort (*out, n, sizeof **out, cmp_output_order);
  return n > LP_MAX_VALUES_PER_SITE ? LP_MAX_VALUES_PER_SITE : n;
}

void
lp_record_free_sites (struct lp_record *rec)
{
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      if (!rec->sites[k])
	continue;
      for (uint32_t s = 0; s < rec->num_sites[k]; s++)
	free (rec->sites[k][s].values);
      free (rec->sites[k]);
      rec->sites[k] = NULL;
    }
}

struct lp_site *
lp_site_buf_reset (struct lp_site_buf *buf, int kind, uint32_t n)
{
  if (n > buf->cap[kind])
    {
      buf->kind[kind] = xrealloc (buf->kind[kind],
				  n * sizeof *buf->kind[kind]);
      memset (buf->kind[kind] + buf->cap[kind], 0,
	      (n - buf->cap[kind]) * sizeof *buf->kind[kind]);
      buf->cap[kind] = n;
    }
  for (uint32_t i = 0; i < n; i++)
    buf->kind[kind][i].num = 0;
  return buf->kind[kind];
}

void
lp_site_buf_free (struct lp_site_buf *buf)
{
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      for (uint32_t i = 0; i < buf->cap[k]; i++)
	free (buf->kind[k][i].values);
      free (buf->kind[k]);
      buf->kind[k] = NULL;
      buf->cap[k] = 0;
    }
}
