/* sample-ext-load.c: an extensible binary sample profile, decoded by
   format/sample-ext-read.c, into latepgo-profdata's sample profile
   (sample-prof.h), every count multiplied by the input's weight.
   Built directly rather than through the text form: an inlinee with an
   MD5 name would read as a body line there.  */

#define _GNU_SOURCE
#include "sample-prof.h"
#include "sample-ext.h"
#include "tool-util.h"

#include <stdlib.h>
#include <string.h>

static void
load_body (struct sp_func *f, const struct lp_sx_profile *x,
	   const struct lp_sx_func *g, uint64_t weight)
{
  f->total = lp_sat_add (f->total, lp_sat_mul (g->total, weight));
  if (x->probes)
    {
      f->hash = g->checksum;
      f->has_hash = 1;
    }
  if (g->attrs)
    {
      f->attrs = g->attrs;
      f->has_attrs = 1;
    }
  for (size_t i = 0; i < g->num_recs; i++)
    {
      const struct lp_sx_rec *r = &x->recs[g->first_rec + i];
      struct sp_rec *d = sp_rec_at (f, r->line, r->disc);
      d->count = lp_sat_add (d->count, lp_sat_mul (r->count, weight));
      for (size_t t = 0; t < r->num_targets; t++)
	{
	  const struct lp_sx_target *tg = &x->targets[r->first_target + t];
	  sp_add_target (d, x->names[tg->name], x->name_len[tg->name],
			 lp_sat_mul (tg->count, weight));
	}
    }
  for (size_t i = 0; i < g->num_calls; i++)
    {
      const struct lp_sx_func *k = &x->funcs[g->first_call + i];
      struct sp_func *c = sp_call_at (f, k->line, k->disc, x->names[k->ctx],
				      x->name_len[k->ctx]);
      load_body (c, x, k, weight);
    }
}

int
sp_load_ext (struct sp_profile *p, const unsigned char *buf, size_t len,
	     uint64_t weight, char *err, size_t errlen)
{
  struct lp_sx_profile x;
  struct lp_err e;
  if (lp_sx_decode (buf, len, &x, &e) < 0)
    {
      snprintf (err, errlen, "%s", e.msg);
      return -1;
    }
  p->md5_names = x.md5;
  p->preinlined = -1;		/* See sample-prof.h.  */
  for (size_t i = 0; i < x.num_top; i++)
    {
      const struct lp_sx_func *g = &x.funcs[i];
      char *name = x.cs ? lp_sx_context_name (&x, g->ctx)
			: strndup (x.names[g->ctx], x.name_len[g->ctx]);
      if (!name)
	lp_fatal (NULL, "out of memory");
      /* A profile the file gives twice adds up, as in LLVM's reader.  */
      struct sp_func *f = sp_top (p, name);
      free (name);
      f->head = lp_sat_add (f->head, lp_sat_mul (g->head, weight));
      load_body (f, &x, g, weight);
    }
  lp_sx_free (&x);
  return 0;
}
