/* sample-ext.c: libFuzzer harness for the extensible binary sample
   profile reader (format/sample-ext-read.c) as latepgo-profdata and
   the plugin use it: decoded, turned into text (the plugin's way) and
   into latepgo-profdata's profile (contrib/profdata/sample-ext-load.c).

   The input must be rejected with a message, or read without error.
   What was read is then written in the extensible binary format
   (sample-ext-write.c), which must decode again; when no name holds a
   character the text format or a context string gives a meaning to,
   that second profile must write the same text as the first.  */

#define _GNU_SOURCE
#include "sample-ext.h"
#include "sample-prof.h"
#include "sample-mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

/* Whether every name is free of what text lines and context strings
   are made of, and every context's leaf has no call site (a context
   string has no place for one).  */
static int
plain_names (const struct lp_sx_profile *x)
{
  for (size_t i = 0; i < x->num_contexts; i++)
    {
      const struct lp_sx_frame *leaf = &x->frames[x->ctx_first[i + 1] - 1];
      if (leaf->line || leaf->disc)
	return 0;
    }
  for (size_t i = 0; i < x->num_names; i++)
    for (size_t k = 0; k < x->name_len[i]; k++)
      {
	unsigned char c = x->names[i][k];
	if (c <= ' ' || c == ':' || c == '@' || c == '[' || c == ']'
	    || c == '#' || c == '!' || c >= 0x7f)
	  return 0;
      }
  return 1;
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct lp_sx_profile x;
  struct lp_err e;
  struct sp_profile p, q;
  char err[512];
  size_t len, len1, len2;

  e.msg[0] = 0;
  if (lp_sx_decode (data, size, &x, &e) < 0)
    {
      if (!e.msg[0])
	broken ("decode", "rejected without a message");
      return 0;
    }
  char *text = lp_sx_to_text (&x, &len);
  if (!text || strlen (text) != len)
    broken ("to text", "no text, or a NUL in it");
  free (text);
  /* Attributes without contexts are not written, as by
     llvm-profdata 14.  */
  int plain = plain_names (&x) && (x.cs || !x.attributes);
  int md5 = x.md5;
  lp_sx_free (&x);

  sp_profile_init (&p);
  if (sp_load_ext (&p, data, size, 1, err, sizeof err) < 0)
    broken ("load", err);
  char *bin = NULL;
  size_t bin_len;
  FILE *f = open_memstream (&bin, &bin_len);
  if (!f)
    broken ("write", "cannot write to memory");
  int r = sp_write_ext (&p, f, md5, err, sizeof err);
  fclose (f);
  if (r == -1 && plain)
    broken ("write", err);
  if (r == 0)
    {
      sp_profile_init (&q);
      if (sp_load_ext (&q, (unsigned char *) bin, bin_len, 1, err,
		       sizeof err) < 0)
	broken ("read back", err);
      if (plain)
	{
	  char *t1 = write_mem (&p, &len1), *t2 = write_mem (&q, &len2);
	  if (len1 != len2 || memcmp (t1, t2, len1) != 0)
	    broken ("read back", "another profile");
	  free (t1);
	  free (t2);
	}
      sp_profile_free (&q);
    }
  free (bin);
  sp_profile_free (&p);
  return 0;
}
