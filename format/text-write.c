/* text-write.c: writer for the text profile format, byte-compatible
   with llvm-profdata merge --text (doc/indexed-format.md section 7):

     # IR level Instrumentation Flag      header, see lp_write_text_header
     :ir
     NAME
     # Func Hash:
     HASH (decimal)
     # Num Counters:
     N
     # Counter Values:
     N lines of counts
     [# Num Value Kinds: / K / per kind: # ValueKind = ...: / KIND /
      # NumValueSites: / S / per site: V, then V lines VALUE:COUNT]
     (empty line)

   Indirect-call targets are printed by name (LP_EXTERNAL_SYMBOL when
   the hash names no record), mem-op sizes as numbers.  A record whose
   name would not read back (lp_text_name_ok) is left out, with a
   warning.  */

#include "profile.h"
#include "tool-util.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *const kind_names[LP_NUM_VALUE_KINDS] = {
#define LP_VALUE_KIND(NAME, VALUE, TEXT) [VALUE] = TEXT,
#include "instrprof-data.def"
};

void
lp_write_text_header (FILE *out, uint64_t variant, int with_comments)
{
  if (variant & LATEPGO_VARIANT_CSIR)
    fputs (with_comments ? "# CSIR level Instrumentation Flag\n:csir\n"
			 : ":csir\n", out);
  else if (variant & LATEPGO_VARIANT_IR)
    fputs (with_comments ? "# IR level Instrumentation Flag\n:ir\n" : ":ir\n",
	   out);
  if (variant & LATEPGO_VARIANT_ENTRY)
    fputs (with_comments
	   ? "# Always instrument the function entry block\n:entry_first\n"
	   : ":entry_first\n", out);
}

void
lp_write_text_record (FILE *out, const struct lp_record *r,
		      const struct lp_symtab *tab)
{
  uint32_t nkinds = 0;

  fwrite (r->name, 1, r->name_len, out);
  fprintf (out, "\n# Func Hash:\n%" PRIu64 "\n# Num Counters:\n%u\n"
	   "# Counter Values:\n", r->hash, r->num_counts);
  for (uint32_t c = 0; c < r->num_counts; c++)
    fprintf (out, "%" PRIu64 "\n", r->counts[c]);
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    nkinds += r->num_sites[k] != 0;
  if (nkinds)
    {
      struct lp_value *buf = NULL;
      size_t cap = 0;
      fprintf (out, "# Num Value Kinds:\n%u\n", nkinds);
      for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
	{
	  if (!r->num_sites[k])
	    continue;
	  fprintf (out, "# ValueKind = %s:\n%d\n# NumValueSites:\n%u\n",
		   kind_names[k], k, r->num_sites[k]);
	  for (uint32_t s = 0; s < r->num_sites[k]; s++)
	    {
	      const struct lp_site *site = &r->sites[k][s];
	      uint32_t n;
	      n = lp_site_for_output (site, &buf, &cap);
	      fprintf (out, "%u\n", n);
	      for (uint32_t v = 0; v < n; v++)
		{
		  if (k == LP_VK_INDIRECT_CALL)
		    {
		      const struct lp_record *t
			= buf[v].value ? lp_symtab_lookup (tab, buf[v].value)
				       : NULL;
		      if (t)
			fwrite (t->name, 1, t->name_len, out);
		      else
			fputs (LP_EXTERNAL_SYMBOL, out);
		    }
		  else
		    fprintf (out, "%" PRIu64, buf[v].value);
		  fprintf (out, ":%" PRIu64 "\n", buf[v].count);
		}
	    }
	}
      free (buf);
    }
  fputc ('\n', out);
}

int
lp_text_name_ok (const char *name, size_t len)
{
  uint64_t v;
  if (len == 0 || name[0] == '#' || name[0] == ':'
      || lp_parse_u64 (name, len, 0, &v) == 0)
    return 0;
  for (size_t i = 0; i < len; i++)
    if (((unsigned char) name[i] < 0x20 && name[i] != '\t')
	|| name[i] == 0x7f)
      return 0;
  return 1;
}

int
lp_write_text (FILE *out, struct lp_record **recs, size_t num,
	       uint64_t variant)
{
  struct lp_symtab tab;

  lp_symtab_init (&tab, recs, num);
  lp_write_text_header (out, variant, 1);
  for (size_t i = 0; i < num; i++)
    if (lp_text_name_ok (recs[i]->name, recs[i]->name_len))
      lp_write_text_record (out, recs[i], &tab);
    else
      lp_warning (NULL, "the function with hash 0x%016" PRIx64 " has a name "
		  "the text format cannot hold; left out of the text output",
		  recs[i]->hash);
  lp_symtab_free (&tab);
  return ferror (out) ? -1 : 0;
}
