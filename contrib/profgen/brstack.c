/* brstack.c: a branch-stack sample's records into ranges and branches
   (brstack.h).  */

#include "brstack.h"
#include "tool-util.h"

size_t
lbr_entries (const struct branch_sample *s, struct lbr_entry *out,
	     struct lbr_stats *st)
{
  size_t n = 0;
  /* The target of a record from outside into a binary, waiting for
     the record that left.  */
  int pending = 0, pending_bin = -1;
  uint64_t pending_to = 0;

  for (size_t i = 0; i < s->num; i++)
    {
      const struct branch_record *r = &s->records[i];
      int src_in = r->from_bin >= 0, dst_in = r->to_bin >= 0;
      struct lbr_entry e = { r->from_bin, r->to_bin, r->from, r->to, 0 };

      if (!src_in && !dst_in)
	continue;
      if (src_in && !dst_in)
	{
	  if (!pending)
	    {
	      if (n == 0)
		{
		  st->leading_outgoing++;
		  e.to_bin = -1;
		  out[n++] = e;
		  continue;
		}
	      st->cut++;
	      break;
	    }
	  e.to_bin = pending_bin;
	  e.to = pending_to;
	  e.artificial = 1;
	  pending = 0;
	}
      else
	{
	  if (pending)
	    {
	      st->cut++;
	      break;
	    }
	  if (!src_in)
	    {
	      pending = 1;
	      pending_bin = r->to_bin;
	      pending_to = r->to;
	      continue;
	    }
	}
      out[n++] = e;
    }
  return n;
}

void
lbr_ranges (const struct lbr_entry *e, size_t num, uint64_t count,
	    void (*range_fn) (void *, int, uint64_t, uint64_t, uint64_t),
	    void *ctx, struct lbr_stats *st)
{
  for (size_t i = 1; i < num; i++)
    {
      if (e[i].to_bin < 0)
	continue;
      if (e[i].to_bin != e[i - 1].from_bin)
	{
	  st->cross_binary = lp_sat_add (st->cross_binary, count);
	  continue;
	}
      if (e[i].to > e[i - 1].from)
	{
	  st->backward = lp_sat_add (st->backward, count);
	  continue;
	}
      st->ranges = lp_sat_add (st->ranges, count);
      range_fn (ctx, e[i].to_bin, e[i].to, e[i - 1].from, count);
    }
}
