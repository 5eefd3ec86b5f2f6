/* profdata-show.c: "latepgo-profdata show": print the records and the
   summary of one raw, indexed or text profile in llvm-profdata show's
   wording.  Records of equal name and hash within the file are summed
   first; records are listed in (name, hash) order.  */

#define _GNU_SOURCE
#include "prof-store.h"
#include "profdata-cmd.h"
#include "sample-cmd.h"
#include "tool-util.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* llvm-profdata show's cutoffs for --detailed-summary.  */
static const uint32_t show_cutoffs[] = {
  800000, 900000, 950000, 990000, 999000, 999900, 999990
};

struct show_sink_ctx
{
  struct lp_store *store;
  const char *path;
};

void
lp_print_show_usage (FILE *f)
{
  fputs ("Usage: latepgo-profdata show [OPTION]... FILE\n"
	 "Print the contents and summary of a raw, indexed or text "
	 "profile.\n\n"
	 "      --all-functions         list every function\n"
	 "      --function=SUBSTR       list the functions whose name "
	 "contains SUBSTR\n"
	 "      --counts                also print the counter values\n"
	 "      --ic-targets            also print the targets of indirect "
	 "calls\n"
	 "      --memop-sizes           also print the sizes of memop calls "
	 "(ranges)\n"
	 "      --topn=N                list the N functions with the "
	 "largest counts\n"
	 "      --covered               print only the names of the "
	 "functions that ran\n"
	 "                              (a nonzero count)\n"
	 "      --uncovered             print only the names of the "
	 "functions that never ran\n"
	 "      --detailed-summary      print the detailed summary\n"
	 "      --detailed-summary-cutoffs=C,...\n"
	 "                              cutoffs (parts per million) for "
	 "it\n"
	 "      --text                  print the listed functions in "
	 "text format\n"
	 "      --showcs                show context-sensitive records "
	 "instead\n"
	 "      --sample                FILE is an LLVM text sample profile: "
	 "print its\n"
	 "                              summary (functions, total samples, "
	 "maximum),\n"
	 "                              --topn=N its N largest functions, "
	 "--function=NAME\n"
	 "                              NAME's profile and contexts with "
	 "their probes\n"
	 "  -o, --output=FILE           write to FILE instead of stdout\n"
	 "  -h, --help                  print this help\n", f);
}

static void
show_sink (void *ctx, const struct lp_record_in *rec)
{
  struct show_sink_ctx *s = ctx;
  lp_store_add (s->store, rec, 1, s->path);
}

/* Largest count of R other than 2^64-1.  */
static uint64_t
record_max (const struct lp_record *r)
{
  uint64_t m = 0;
  for (uint32_t c = 0; c < r->num_counts; c++)
    if (r->counts[c] != UINT64_MAX && r->counts[c] > m)
      m = r->counts[c];
  return m;
}

static int
cmp_hot (const void *pa, const void *pb)
{
  const struct lp_record *a = *(struct lp_record *const *) pa;
  const struct lp_record *b = *(struct lp_record *const *) pb;
  uint64_t ma = record_max (a), mb = record_max (b);
  int n;
  if (ma != mb)
    return ma > mb ? -1 : 1;
  n = strcmp (a->name, b->name);
  if (n)
    return n;
  return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* Whether R ran: a nonzero counter.  A function that ran has one,
   whatever its instrumentation: the counts of its spanning tree's
   edges follow from the counted edges, so all of those being zero
   means no flow through the function at all.  */
static int
record_covered (const struct lp_record *r)
{
  for (uint32_t c = 0; c < r->num_counts; c++)
    if (r->counts[c])
      return 1;
  return 0;
}

/* Parse "C,C,..." into CUTS (sorted); return how many.  */
static size_t
parse_cutoffs (const char *arg, uint32_t *cuts, size_t max)
{
  size_t n = 0;
  const char *p = arg;
  for (;;)
    {
      const char *e = strchr (p, ',');
      size_t len = e ? (size_t) (e - p) : strlen (p);
      uint64_t v;
      if (n == max || lp_parse_u64 (p, len, 0, &v) < 0 || v > 999999)
	{
	  lp_error (NULL, "invalid --detailed-summary-cutoffs '%s': expected "
		    "at most %zu comma-separated numbers below 1000000",
		    arg, max);
	  lp_exit (1);
	}
      /* Insertion sort: the builder wants increasing cutoffs.  */
      size_t i = n++;
      while (i > 0 && cuts[i - 1] > v)
	{
	  cuts[i] = cuts[i - 1];
	  i--;
	}
      cuts[i] = v;
      if (!e)
	break;
      p = e + 1;
    }
  return n;
}

/* Option table alike in shape only to merge's and overlap's.  */
/* As llvm-profdata show --ic-targets: per indirect-call site of R, its
   targets by name (TAB), most called first, with their share of the
   site's calls.  */

static void
show_ic_targets (FILE *out, const struct lp_record *r,
		 const struct lp_symtab *tab)
{
  struct lp_value *buf = NULL;
  size_t cap = 0;
  uint32_t nsites = r->num_sites[LP_VK_INDIRECT_CALL];
  fprintf (out, "    Indirect Call Site Count: %u\n"
	   "    Indirect Target Results:\n", nsites);
  for (uint32_t s = 0; s < nsites; s++)
    {
      const struct lp_site *site = &r->sites[LP_VK_INDIRECT_CALL][s];
      uint32_t n = lp_site_for_output (site, &buf, &cap);
      double total = 0;
      for (uint32_t v = 0; v < n; v++)
	total += (double) buf[v].count;
      for (uint32_t v = 0; v < n; v++)
	{
	  const struct lp_record *t
	    = buf[v].value ? lp_symtab_lookup (tab, buf[v].value) : NULL;
	  fprintf (out, "\t[ %2u, ", s);
	  if (t)
	    fwrite (t->name, 1, t->name_len, out);
	  else
	    fputs (LP_EXTERNAL_SYMBOL, out);
	  fprintf (out, ", %10" PRIu64 " ] (%.2f%%)\n", buf[v].count,
		   total > 0 ? 100.0 * (double) buf[v].count / total : 0.0);
	}
    }
  free (buf);
}

/* As llvm-profdata show --memop-sizes: per memop site of R, its sizes
   (each the representative value of its range), most common first,
   with their share of the site's calls.  Nothing for a record without
   memop sites.  */

static void
show_memop_sizes (FILE *out, const struct lp_record *r)
{
  struct lp_value *buf = NULL;
  size_t cap = 0;
  uint32_t nsites = r->num_sites[LP_VK_MEMOP];
  if (!nsites)
    return;
  fprintf (out, "    Number of Memory Intrinsics Calls: %u\n"
	   "    Memory Intrinsic Size Results:\n", nsites);
  for (uint32_t s = 0; s < nsites; s++)
    {
      uint32_t n = lp_site_for_output (&r->sites[LP_VK_MEMOP][s], &buf, &cap);
      double total = 0;
      for (uint32_t v = 0; v < n; v++)
	total += (double) buf[v].count;
      for (uint32_t v = 0; v < n; v++)
	fprintf (out, "\t[ %2u, %4" PRIu64 ", %10" PRIu64 " ] (%.2f%%)\n", s,
		 buf[v].value, buf[v].count,
		 total > 0 ? 100.0 * (double) buf[v].count / total : 0.0);
    }
  free (buf);
}

int
lp_show_main (int argc, char **argv)
{
  static const struct option opts[] = {
    { "all-functions", no_argument, NULL, 'a' },
    { "function", required_argument, NULL, 'F' },
    { "counts", no_argument, NULL, 'c' },
    { "ic-targets", no_argument, NULL, 'i' },
    { "memop-sizes", no_argument, NULL, 'm' },
    { "topn", required_argument, NULL, 'n' },
    { "covered", no_argument, NULL, 'v' },
    { "uncovered", no_argument, NULL, 'u' },
    { "detailed-summary", no_argument, NULL, 'd' },
    { "detailed-summary-cutoffs", required_argument, NULL, 'C' },
    { "text", no_argument, NULL, 't' },
    { "showcs", no_argument, NULL, 's' },
    { "output", required_argument, NULL, 'o' },
    { "sample", no_argument, NULL, 'S' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  int sample = 0;
  int all = 0, counts = 0, ic_targets = 0, memop_sizes = 0, detailed = 0;
  int text = 0, showcs = 0, c;
  /* --covered: 1, --uncovered: 0, neither: -1.  */
  int covered = -1;
  const char *func = NULL, *output = NULL;
  uint64_t topn = 0;
  uint32_t cutoffs[LP_NUM_CUTOFFS];
  size_t num_cutoffs = 0;
  struct lp_profile prof;
  struct lp_err err;
  struct lp_store store;
  struct show_sink_ctx sctx;
  struct lp_record **recs, **sel;
  size_t nsel = 0, shown = 0;
  struct lp_summary sum;
  struct lp_symtab tab;
  FILE *out = stdout;
  int is_ir;

  while ((c = getopt_long (argc, argv, "o:h", opts, NULL)) != -1)
    switch (c)
      {
      case 'a':
	all = 1;
	break;
      case 'F':
	func = optarg;
	break;
      case 'c':
	counts = 1;
	break;
      case 'i':
	ic_targets = 1;
	break;
      case 'm':
	memop_sizes = 1;
	break;
      case 'n':
	if (lp_parse_u64 (optarg, strlen (optarg), 0, &topn) < 0)
	  {
	    lp_error (NULL, "invalid --topn '%s': expected a number", optarg);
	    lp_exit (1);
	  }
	break;
      case 'v':
      case 'u':
	if (covered >= 0 && covered != (c == 'v'))
	  {
	    lp_error (NULL, "show: --covered and --uncovered exclude each "
		      "other");
	    lp_exit (1);
	  }
	covered = c == 'v';
	break;
      case 'd':
	detailed = 1;
	break;
      case 'C':
	num_cutoffs = parse_cutoffs (optarg, cutoffs, LP_NUM_CUTOFFS);
	break;
      case 't':
	text = 1;
	break;
      case 's':
	showcs = 1;
	break;
      case 'o':
	output = optarg;
	break;
      case 'S':
	sample = 1;
	break;
      case 'h':
	lp_print_show_usage (stdout);
	lp_exit (0);
      default:
	lp_print_show_usage (stderr);
	lp_exit (1);
      }
  if (argc - optind != 1)
    {
      lp_error (NULL, "show: expected exactly one input file");
      lp_print_show_usage (stderr);
      lp_exit (1);
    }
  if (func && !*func)
    func = NULL;
  if (sample)
    {
      if (output && !(out = fopen (output, "w")))
	lp_fatal (output, "%m");
      lp_sample_show (argv[optind], func, topn, out);
      if (fflush (out) != 0 || ferror (out))
	lp_fatal (output ? output : "<stdout>", "write error");
      return 0;
    }
  if (detailed && num_cutoffs == 0)
    {
      num_cutoffs = sizeof show_cutoffs / sizeof show_cutoffs[0];
      memcpy (cutoffs, show_cutoffs, sizeof show_cutoffs);
    }

  if (lp_profile_open (&prof, argv[optind], &err) < 0)
    lp_fatal (argv[optind], "%s", err.msg);
  lp_store_init (&store);
  sctx.store = &store;
  sctx.path = argv[optind];
  lp_profile_emit (&prof, show_sink, &sctx);
  lp_profile_close (&prof);
  is_ir = (prof.variant & LATEPGO_VARIANT_IR) != 0;

  if (output && !(out = fopen (output, "w")))
    lp_fatal (output, "%m");

  recs = lp_store_sorted (&store);
  sel = xmalloc ((store.num_records + 1) * sizeof *sel);
  for (size_t i = 0; i < store.num_records; i++)
    if (!(recs[i]->hash & LP_CS_HASH_BIT) == !showcs)
      sel[nsel++] = recs[i];

  /* As llvm-profdata show --covered (LLVM 15 and later): the names
     alone, one per line, of the selected functions (--function).  */
  if (covered >= 0)
    {
      for (size_t i = 0; i < nsel; i++)
	if ((!func || strstr (sel[i]->name, func))
	    && record_covered (sel[i]) == covered)
	  fprintf (out, "%s\n", sel[i]->name);
      goto done;
    }

  if (text)
    {
      lp_symtab_init (&tab, recs, store.num_records);
      if (all || func)
	lp_write_text_header (out, prof.variant, 0);
      for (size_t i = 0; i < nsel; i++)
	if (all || (func && strstr (sel[i]->name, func)))
	  lp_write_text_record (out, sel[i], &tab);
      lp_symtab_free (&tab);
      goto done;
    }

  if (ic_targets)
    lp_symtab_init (&tab, recs, store.num_records);
  for (size_t i = 0; i < nsel; i++)
    {
      const struct lp_record *r = sel[i];
      if (!(all || (func && strstr (r->name, func))))
	continue;
      if (!shown++)
	fputs ("Counters:\n", out);
      fprintf (out, "  %s:\n    Hash: 0x%016" PRIx64 "\n    Counters: %u\n",
	       r->name, r->hash, r->num_counts);
      if (!is_ir)
	fprintf (out, "    Function count: %" PRIu64 "\n", r->counts[0]);
      if (counts)
	{
	  uint32_t start = is_ir ? 0 : 1;
	  fputs ("    Block counts: [", out);
	  for (uint32_t k = start; k < r->num_counts; k++)
	    fprintf (out, "%s%" PRIu64, k == start ? "" : ", ", r->counts[k]);
	  fputs ("]\n", out);
	}
      if (ic_targets)
	show_ic_targets (out, r, &tab);
      if (memop_sizes)
	show_memop_sizes (out, r);
    }
  if (ic_targets)
    lp_symtab_free (&tab);

  lp_summary_compute (&sum, sel, nsel, showcs, cutoffs, num_cutoffs);
  if (is_ir)
    fprintf (out, "Instrumentation level: IR  entry_first = %d\n",
	     (prof.variant & LATEPGO_VARIANT_ENTRY) != 0);
  else
    fputs ("Instrumentation level: Front-end\n", out);
  if (all || func)
    fprintf (out, "Functions shown: %zu\n", shown);
  fprintf (out, "Total functions: %" PRIu64 "\n"
	   "Maximum function count: %" PRIu64 "\n"
	   "Maximum internal block count: %" PRIu64 "\n",
	   sum.num_functions, sum.max_function_count,
	   sum.max_internal_count);
  if (topn)
    {
      struct lp_record **hot = xmalloc ((nsel + 1) * sizeof *hot);
      memcpy (hot, sel, nsel * sizeof *hot);
      qsort (hot, nsel, sizeof *hot, cmp_hot);
      fprintf (out, "Top %" PRIu64 " functions with the largest internal "
	       "block counts: \n", topn);
      for (size_t i = 0; i < nsel && i < topn; i++)
	fprintf (out, "  %s, max count = %" PRIu64 "\n", hot[i]->name,
		 record_max (hot[i]));
      free (hot);
    }
  if (detailed)
    {
      fprintf (out, "Total number of blocks: %" PRIu64 "\n"
	       "Total count: %" PRIu64 "\nDetailed summary:\n",
	       sum.num_blocks, sum.total_count);
      for (size_t i = 0; i < sum.num_entries; i++)
	{
	  /* LLVM computes the percentage in float.  */
	  float pct = (float) sum.entries[i].cutoff / 1000000.0f;
	  pct = pct * 100.0f;
	  fprintf (out, "%" PRIu64 " blocks with count >= %" PRIu64
		   " account for %0.6g percentage of the total counts.\n",
		   sum.entries[i].num_blocks, sum.entries[i].min_count,
		   (double) pct);
	}
    }

done:
  if (fflush (out) != 0 || ferror (out))
    lp_fatal (output ? output : "<stdout>", "write error");
  if (out != stdout)
    fclose (out);
  free (sel);
  free (recs);
  lp_store_free (&store);
  return 0;
}
