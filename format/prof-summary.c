/* prof-summary.c: the profile summary (doc/indexed-format.md section 3, LLVM's
   InstrProfSummaryBuilder): counts of functions and blocks, maxima, and
   for each cutoff the minimum count of the hottest blocks that make up
   that fraction of the total.  Counter value 2^64-1 is skipped as
   LLVM does.  */

#include "profile.h"
#include "tool-util.h"

#include <stdlib.h>
#include <string.h>

const uint32_t lp_default_cutoffs[LP_NUM_CUTOFFS] = {
  10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000,
  800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999
};

static int
cmp_desc (const void *pa, const void *pb)
{
  uint64_t a = *(const uint64_t *) pa, b = *(const uint64_t *) pb;
  return a > b ? -1 : a < b;
}

void
lp_summary_entries (struct lp_summary *sum, uint64_t *all, size_t n,
		    const uint32_t *cutoffs, size_t num_cutoffs)
{
  /* Walk the counts from the largest down (doc/indexed-format.md
     section 3).  */
  if (n > 1)
    qsort (all, n, sizeof *all, cmp_desc);
  size_t i = 0;
  uint64_t cur_sum = 0, count = 0, seen = 0;
  for (size_t c = 0; c < num_cutoffs && c < LP_NUM_CUTOFFS; c++)
    {
      unsigned __int128 d = (unsigned __int128) sum->total_count * cutoffs[c];
      uint64_t desired = (uint64_t) (d / 1000000);
      while (cur_sum < desired && i < n)
	{
	  /* One histogram bucket: all equal counts at once.  */
	  uint64_t v = all[i], freq = 0;
	  while (i < n && all[i] == v)
	    i++, freq++;
	  count = v;
	  cur_sum += v * freq;
	  seen += freq;
	}
      sum->entries[c].cutoff = cutoffs[c];
      sum->entries[c].min_count = count;
      sum->entries[c].num_blocks = seen;
    }
  sum->num_entries = num_cutoffs < LP_NUM_CUTOFFS ? num_cutoffs
						   : LP_NUM_CUTOFFS;
}

void
lp_summary_compute (struct lp_summary *sum, struct lp_record **recs,
		    size_t num, int cs, const uint32_t *cutoffs,
		    size_t num_cutoffs)
{
  uint64_t *all;
  size_t n = 0, total_counters = 0;

  memset (sum, 0, sizeof *sum);
  for (size_t i = 0; i < num; i++)
    if (!(recs[i]->hash & LP_CS_HASH_BIT) == !cs)
      total_counters += recs[i]->num_counts;
  all = xmalloc ((total_counters + 1) * sizeof *all);

  for (size_t i = 0; i < num; i++)
    {
      const struct lp_record *r = recs[i];
      if (!(r->hash & LP_CS_HASH_BIT) != !cs)
	continue;
      sum->num_functions++;
      for (uint32_t c = 0; c < r->num_counts; c++)
	{
	  uint64_t v = r->counts[c];
	  if (v == UINT64_MAX)
	    continue;
	  all[n++] = v;
	  sum->num_blocks++;
	  sum->total_count += v;  /* Wraps like LLVM's.  */
	  if (v > sum->max_block_count)
	    sum->max_block_count = v;
	  if (c == 0)
	    {
	      if (v > sum->max_function_count)
		sum->max_function_count = v;
	    }
	  else if (v > sum->max_internal_count)
	    sum->max_internal_count = v;
	}
    }

  lp_summary_entries (sum, all, n, cutoffs, num_cutoffs);
  free (all);
}
