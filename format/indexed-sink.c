/* indexed-sink.c: lp_indexed_read, the tools' reading of an indexed
   profile through the parser of indexed-read.c: each record's counts
   in host byte order and its value sites, for a sink (profile.h).  */

#include "profile.h"
#include "indexed-read.h"
#include "le.h"
#include "tool-util.h"

#include <stdlib.h>
#include <string.h>

struct sink_state
{
  struct lp_profile *prof;
  lp_sink_fn sink;
  void *ctx;
  struct lp_site_buf sites;
  uint64_t *counts;
  size_t counts_cap;
  struct lp_record_in in;
};

/* lp_indexed_kind_fn: decode one kind's sites into S->in.  */
static void
decode_kind (void *ctx, uint32_t kind, uint32_t num_sites,
	     const unsigned char *site_values, const unsigned char *pairs)
{
  struct sink_state *s = ctx;
  struct lp_site *sites = lp_site_buf_reset (&s->sites, kind, num_sites);

  for (uint32_t i = 0; i < num_sites; i++)
    for (unsigned v = 0; v < site_values[i]; v++, pairs += 16)
      lp_site_add (&sites[i], le_read_u64 (pairs), le_read_u64 (pairs + 8));
  s->in.num_sites[kind] = num_sites;
  s->in.sites[kind] = sites;
}

/* lp_indexed_record_fn: count REC, and hand it to the sink if any.  */
static void
take_record (void *ctx, const struct lp_indexed_record *rec)
{
  struct sink_state *s = ctx;

  s->prof->num_records++;
  if (!s->sink)
    return;
  memset (&s->in, 0, sizeof s->in);
  s->in.name = rec->name;
  s->in.name_len = rec->name_len;
  s->in.name_md5 = rec->name_md5;
  s->in.hash = rec->hash;
  s->in.num_counts = rec->num_counts;
  if (rec->num_counts > s->counts_cap)
    {
      s->counts_cap = rec->num_counts;
      s->counts = xrealloc (s->counts, s->counts_cap * 8);
    }
  for (uint32_t c = 0; c < rec->num_counts; c++)
    s->counts[c] = le_read_u64 (rec->counts + 8 * c);
  s->in.counts = s->counts;
  lp_indexed_values (rec, decode_kind, s);
  s->sink (s->ctx, &s->in);
}

int
lp_indexed_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
		 struct lp_err *err)
{
  struct lp_indexed idx;
  struct sink_state s;
  enum lp_indexed_status st;

  memset (&s, 0, sizeof s);
  s.prof = prof;
  s.sink = sink;
  s.ctx = ctx;
  prof->num_records = 0;
  st = lp_indexed_open (&idx, prof->data, prof->size, err);
  prof->variant = idx.variant;
  if (st == LP_INDEXED_OK)
    st = lp_indexed_walk (&idx, take_record, &s, err);
  lp_site_buf_free (&s.sites);
  free (s.counts);
  return st == LP_INDEXED_OK ? 0 : -1;
}
