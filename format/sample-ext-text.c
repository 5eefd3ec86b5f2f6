/* sample-ext-text.c: a decoded extensible binary sample profile
   (sample-ext.h) in LLVM's text format, as llvm-profdata 14's text
   writer prints it (contexts "[a:1 @ b]", "!CFGChecksum" when the
   profile has probes, "!Attributes" when not 0), in the file's order.
   The plugin reads this text with its text reader, so both encodings
   of a profile go through one parser.  */

#define _GNU_SOURCE
#include "sample-ext.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out
{
  char *p;
  size_t len, cap;
  int oom;
};

static void
put (struct out *o, const char *s, size_t n)
{
  if (o->oom)
    return;
  if (o->len + n + 1 > o->cap)
    {
      size_t c = o->cap ? o->cap : 4096;
      while (c < o->len + n + 1)
	c *= 2;
      char *p = realloc (o->p, c);
      if (!p)
	{
	  o->oom = 1;
	  return;
	}
      o->p = p;
      o->cap = c;
    }
  memcpy (o->p + o->len, s, n);
  o->len += n;
  o->p[o->len] = 0;
}

static void __attribute__ ((format (printf, 2, 3)))
putf (struct out *o, const char *fmt, ...)
{
  char buf[64];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  put (o, buf, n < (int) sizeof buf ? (size_t) n : sizeof buf - 1);
}

static void
put_name (struct out *o, const struct lp_sx_profile *prof, uint32_t i)
{
  put (o, prof->names[i], prof->name_len[i]);
}

static void
put_indent (struct out *o, int indent)
{
  for (int i = 0; i < indent; i++)
    put (o, " ", 1);
}

static void
put_loc (struct out *o, int indent, uint32_t line, uint32_t disc)
{
  put_indent (o, indent);
  putf (o, "%" PRIu32, line);
  if (disc)
    putf (o, ".%" PRIu32, disc);
  put (o, ": ", 2);
}

static void
put_context (struct out *o, const struct lp_sx_profile *prof, size_t ctx)
{
  size_t a = prof->ctx_first[ctx], b = prof->ctx_first[ctx + 1];
  put (o, "[", 1);
  for (size_t i = a; i < b; i++)
    {
      const struct lp_sx_frame *f = &prof->frames[i];
      put_name (o, prof, f->name);
      if (i + 1 < b)
	{
	  putf (o, ":%" PRIu32, f->line);
	  if (f->disc)
	    putf (o, ".%" PRIu32, f->disc);
	  put (o, " @ ", 3);
	}
    }
  put (o, "]", 1);
}

static void
put_func (struct out *o, const struct lp_sx_profile *prof,
	  const struct lp_sx_func *f, int indent)
{
  for (size_t i = 0; i < f->num_recs; i++)
    {
      const struct lp_sx_rec *r = &prof->recs[f->first_rec + i];
      put_loc (o, indent + 1, r->line, r->disc);
      putf (o, "%" PRIu64, r->count);
      for (size_t t = 0; t < r->num_targets; t++)
	{
	  const struct lp_sx_target *tg = &prof->targets[r->first_target + t];
	  put (o, " ", 1);
	  put_name (o, prof, tg->name);
	  putf (o, ":%" PRIu64, tg->count);
	}
      put (o, "\n", 1);
    }
  for (size_t i = 0; i < f->num_calls; i++)
    {
      const struct lp_sx_func *k = &prof->funcs[f->first_call + i];
      put_loc (o, indent + 1, k->line, k->disc);
      put_name (o, prof, k->ctx);
      putf (o, ":%" PRIu64 "\n", k->total);
      put_func (o, prof, k, indent + 1);
    }
  if (prof->probes)
    {
      put_indent (o, indent + 1);
      putf (o, "!CFGChecksum: %" PRIu64 "\n", f->checksum);
    }
  if (f->attrs)
    {
      put_indent (o, indent + 1);
      putf (o, "!Attributes: %" PRIu32 "\n", f->attrs);
    }
}

char *
lp_sx_context_name (const struct lp_sx_profile *prof, size_t ctx)
{
  struct out o = { NULL, 0, 0, 0 };
  put_context (&o, prof, ctx);
  if (o.oom)
    {
      free (o.p);
      return NULL;
    }
  return o.p;
}

char *
lp_sx_to_text (const struct lp_sx_profile *prof, size_t *len)
{
  struct out o = { NULL, 0, 0, 0 };
  put (&o, "", 0);
  for (size_t i = 0; i < prof->num_top; i++)
    {
      const struct lp_sx_func *f = &prof->funcs[i];
      if (prof->cs)
	put_context (&o, prof, f->ctx);
      else
	put_name (&o, prof, f->ctx);
      putf (&o, ":%" PRIu64 ":%" PRIu64 "\n", f->total, f->head);
      put_func (&o, prof, f, 0);
    }
  if (o.oom)
    {
      free (o.p);
      return NULL;
    }
  *len = o.len;
  return o.p;
}
