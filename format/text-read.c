/* text-read.c: reader for the text profile format written by
   llvm-profdata merge --text (doc/indexed-format.md section 7).  Lines
   starting with '#' and empty lines are skipped everywhere.  */

#include "profile.h"
#include "md5.h"
#include "tool-util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct text_reader
{
  const char *p, *end;
  size_t line_no;               /* Number of the last line returned.  */
  const char *line;             /* Last line returned, not terminated.  */
  size_t len;
  int peeked;
  struct lp_site_buf sites;
  uint64_t *counts;
  size_t counts_cap;
};

/* Advance to the next significant line; return 0 at end of input.  */
static int
next_line (struct text_reader *r)
{
  if (r->peeked)
    {
      r->peeked = 0;
      return 1;
    }
  while (r->p < r->end)
    {
      const char *s = r->p, *nl = memchr (s, '\n', r->end - s);
      const char *e = nl ? nl : r->end;
      r->p = nl ? nl + 1 : r->end;
      r->line_no++;
      if (e > s && e[-1] == '\r')
	e--;
      if (e == s || *s == '#')
	continue;
      r->line = s;
      r->len = e - s;
      return 1;
    }
  return 0;
}

/* Make the current line be returned again by the next next_line.  */
static void
unget_line (struct text_reader *r)
{
  r->peeked = 1;
}

/* Read the next line as a number into *V; WHAT names it for errors.  */
static int
read_number (struct text_reader *r, int hex_ok, uint64_t *v, const char *what,
	     struct lp_err *err)
{
  if (!next_line (r))
    {
      lp_seterr (err, "malformed instrumentation profile data: unexpected "
		 "end of file, expected %s", what);
      return -1;
    }
  if (lp_parse_u64 (r->line, r->len, hex_ok, v) < 0)
    {
      lp_seterr (err, "line %zu: malformed instrumentation profile data: "
		 "expected %s, found '%.*s'", r->line_no, what,
		 (int) (r->len > 80 ? 80 : r->len), r->line);
      return -1;
    }
  return 0;
}

/* Parse the value-profile part of a record, if any, into IN.  */
static int
read_value_data (struct text_reader *r, struct lp_record_in *in,
		 struct lp_err *err)
{
  uint64_t nkinds;

  if (!next_line (r))
    return 0;
  if (lp_parse_u64 (r->line, r->len, 0, &nkinds) < 0)
    {
      /* Not a number: the next record's name.  */
      unget_line (r);
      return 0;
    }
  if (nkinds == 0 || nkinds > LP_NUM_VALUE_KINDS)
    {
      lp_seterr (err, "line %zu: malformed instrumentation profile data: "
		 "number of value kinds %" PRIu64 " is invalid", r->line_no,
		 nkinds);
      return -1;
    }
  for (uint64_t k = 0; k < nkinds; k++)
    {
      uint64_t kind, nsites;
      struct lp_site *sites;
      if (read_number (r, 0, &kind, "a value kind", err) < 0
	  || read_number (r, 0, &nsites, "a number of value sites", err) < 0)
	return -1;
      if (kind >= LP_NUM_VALUE_KINDS || nsites > UINT16_MAX)
	{
	  lp_seterr (err, "line %zu: malformed instrumentation profile data: "
		     "invalid value kind or site count", r->line_no);
	  return -1;
	}
      sites = lp_site_buf_reset (&r->sites, kind, nsites);
      for (uint64_t s = 0; s < nsites; s++)
	{
	  uint64_t nvalues;
	  if (read_number (r, 0, &nvalues, "a number of values", err) < 0)
	    return -1;
	  for (uint64_t v = 0; v < nvalues; v++)
	    {
	      const char *colon;
	      uint64_t value, count;
	      if (!next_line (r))
		{
		  lp_seterr (err, "malformed instrumentation profile data: "
			     "unexpected end of file in value data");
		  return -1;
		}
	      colon = NULL;
	      for (size_t i = r->len; i-- > 0;)
		if (r->line[i] == ':')
		  {
		    colon = r->line + i;
		    break;
		  }
	      if (!colon
		  || lp_parse_u64 (colon + 1, r->line + r->len - colon - 1, 0,
				   &count) < 0)
		goto bad_value;
	      if (kind == LP_VK_INDIRECT_CALL)
		{
		  size_t n = colon - r->line;
		  if (n == strlen (LP_EXTERNAL_SYMBOL)
		      && memcmp (r->line, LP_EXTERNAL_SYMBOL, n) == 0)
		    value = 0;
		  else
		    value = lp_md5low64 (r->line, n);
		}
	      else if (lp_parse_u64 (r->line, colon - r->line, 0, &value) < 0)
		goto bad_value;
	      lp_site_add (&sites[s], value, count);
	    }
	}
      in->num_sites[kind] = nsites;
      in->sites[kind] = sites;
    }
  return 0;

bad_value:
  lp_seterr (err, "line %zu: malformed instrumentation profile data: "
	     "expected VALUE:COUNT, found '%.*s'", r->line_no,
	     (int) (r->len > 80 ? 80 : r->len), r->line);
  return -1;
}

int
lp_text_read (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
	      struct lp_err *err)
{
  struct text_reader r;
  uint64_t variant = 0;
  int ret = -1;

  memset (&r, 0, sizeof r);
  r.p = (const char *) prof->data;
  r.end = r.p + prof->size;
  prof->num_records = 0;

  /* Header words.  */
  while (next_line (&r) && r.line[0] == ':')
    {
      const char *w = r.line + 1;
      size_t n = r.len - 1;
#define WORD_IS(s) (n == strlen (s) && strncasecmp (w, s, n) == 0)
      if (WORD_IS ("ir"))
	variant |= LATEPGO_VARIANT_IR;
      else if (WORD_IS ("csir"))
	variant |= LATEPGO_VARIANT_IR | LATEPGO_VARIANT_CSIR;
      else if (WORD_IS ("fe"))
	variant &= ~(LATEPGO_VARIANT_IR | LATEPGO_VARIANT_CSIR);
      else if (WORD_IS ("entry_first"))
	variant |= LATEPGO_VARIANT_ENTRY;
      else if (WORD_IS ("not_entry_first"))
	variant &= ~LATEPGO_VARIANT_ENTRY;
      else
	{
	  lp_seterr (err, "line %zu: file header is corrupt: unknown header "
		     "'%.*s'", r.line_no, (int) (r.len > 80 ? 80 : r.len),
		     r.line);
	  goto out;
	}
#undef WORD_IS
    }
  if (r.p <= r.end && r.line && r.line[0] != ':')
    unget_line (&r);
  prof->variant = variant;

  while (next_line (&r))
    {
      struct lp_record_in in;
      uint64_t hash, n;

      memset (&in, 0, sizeof in);
      in.name = r.line;
      in.name_len = r.len;
      if (!lp_text_name_ok (in.name, in.name_len))
	{
	  lp_seterr (err, "line %zu: malformed instrumentation profile data: "
		     "expected a function name, found '%.*s'", r.line_no,
		     (int) (r.len > 80 ? 80 : r.len), r.line);
	  goto out;
	}
      if (read_number (&r, 1, &hash, "a function hash", err) < 0
	  || read_number (&r, 0, &n, "a number of counters", err) < 0)
	goto out;
      if (n == 0 || n > UINT32_MAX)
	{
	  lp_seterr (err, "line %zu: malformed instrumentation profile data: "
		     "number of counters %" PRIu64 " is invalid", r.line_no,
		     n);
	  goto out;
	}
      /* Each counter takes a line of at least one digit: a number the
	 rest of the input cannot hold must not size an allocation.  */
      if (n > (uint64_t) (r.end - r.p + 1) / 2)
	{
	  lp_seterr (err, "line %zu: malformed instrumentation profile data: "
		     "%" PRIu64 " counters do not fit in the %zu bytes left",
		     r.line_no, n, (size_t) (r.end - r.p));
	  goto out;
	}
      if (n > r.counts_cap)
	{
	  r.counts_cap = n;
	  r.counts = xrealloc (r.counts, n * sizeof *r.counts);
	}
      for (uint64_t i = 0; i < n; i++)
	if (read_number (&r, 0, &r.counts[i], "a counter value", err) < 0)
	  goto out;
      in.hash = hash;
      in.num_counts = n;
      in.counts = r.counts;
      if (read_value_data (&r, &in, err) < 0)
	goto out;
      prof->num_records++;
      if (sink)
	{
	  in.name_md5 = lp_md5low64 (in.name, in.name_len);
	  sink (ctx, &in);
	}
    }
  ret = 0;

out:
  lp_site_buf_free (&r.sites);
  free (r.counts);
  return ret;
}
