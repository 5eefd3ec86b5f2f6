/* profdata-overlap.c: "latepgo-profdata overlap": similarity of two
   profiles, computed as llvm-profdata overlap does (InstrProf.cpp,
   OverlapStats).  With SumA and SumB the total counts of the two
   profiles, the program-level edge overlap is the sum over matching
   counters of min (a_i / SumA, b_i / SumB); per function the same with
   the function's own sums.  Value profiles are compared the same way
   per value kind.  */

#define _GNU_SOURCE
#include "prof-store.h"
#include "profdata-cmd.h"
#include "sample-cmd.h"
#include "tool-util.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Count sums of a set of records (LLVM's CountSumOrPercent).  */
struct sums
{
  double count_sum;
  double value_counts[LP_NUM_VALUE_KINDS];
  uint64_t num_entries;
};

struct overlap_stats
{
  struct sums base, test, overlap, mismatch, unique;
  const char *name;             /* Function level only.  */
  uint64_t hash;
};

void
lp_print_overlap_usage (FILE *f)
{
  fputs ("Usage: latepgo-profdata overlap [OPTION]... BASE TEST\n"
	 "Report how similar the profiles BASE and TEST are, for the "
	 "whole program\nand per function.\n\n"
	 "      --function=SUBSTR       report every function whose name "
	 "contains SUBSTR\n"
	 "      --value-cutoff=N        report every function whose "
	 "largest count in TEST\n"
	 "                              is at least N\n"
	 "      --cs                    compare context-sensitive records\n"
	 "      --sample                BASE and TEST are LLVM text sample "
	 "profiles: compare\n"
	 "                              them as llvm-profdata overlap "
	 "--sample does\n"
	 "      --similarity-cutoff=N   with --sample, also report every "
	 "function whose\n"
	 "                              similarity is below N (parts per "
	 "million)\n"
	 "  -o, --output=FILE           write to FILE instead of stdout\n"
	 "  -h, --help                  print this help\n", f);
}

struct load_ctx
{
  struct lp_store *store;
  const char *path;
};

static void
load_sink (void *ctx, const struct lp_record_in *rec)
{
  struct load_ctx *l = ctx;
  lp_store_add (l->store, rec, 1, l->path);
}

static void
load (const char *path, struct lp_store *store)
{
  struct lp_profile prof;
  struct lp_err err;
  struct load_ctx ctx = { store, path };

  if (lp_profile_open (&prof, path, &err) < 0)
    lp_fatal (path, "%s", err.msg);
  lp_profile_emit (&prof, load_sink, &ctx);
  lp_profile_close (&prof);
}

/* Add R's counts to S (LLVM's accumulateCounts; the per-function sum
   wraps as a u64 as LLVM's does).  */
static void
accumulate (const struct lp_record *r, struct sums *s)
{
  uint64_t func_sum = 0;
  s->num_entries += r->num_counts;
  for (uint32_t c = 0; c < r->num_counts; c++)
    func_sum += r->counts[c];
  s->count_sum += (double) func_sum;
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      uint64_t kind_sum = 0;
      for (uint32_t i = 0; i < r->num_sites[k]; i++)
	for (uint32_t v = 0; v < r->sites[k][i].num; v++)
	  kind_sum += r->sites[k][i].values[v].count;
      s->value_counts[k] += (double) kind_sum;
    }
}

static double
score (uint64_t a, uint64_t b, double sum_a, double sum_b)
{
  double x, y;
  if (sum_a < 1.0 || sum_b < 1.0)
    return 0.0;
  x = (double) a / sum_a;
  y = (double) b / sum_b;
  return x < y ? x : y;
}

/* Add FUNC (the sums of one function of TEST) to ACC as a fraction of
   TOTAL (LLVM's addOneMismatch / addOneUnique).  */
static void
add_fraction (struct sums *acc, const struct sums *func,
	      const struct sums *total)
{
  acc->num_entries++;
  acc->count_sum += func->count_sum / total->count_sum;
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    if (total->value_counts[k] >= 1.0)
      acc->value_counts[k] += func->value_counts[k] / total->value_counts[k];
}

/* Overlap of the value sites of kind K of BASE and TEST.  */
static void
overlap_values (const struct lp_record *base, const struct lp_record *test,
		int k, struct overlap_stats *prog, struct overlap_stats *fn)
{
  for (uint32_t s = 0; s < base->num_sites[k]; s++)
    {
      const struct lp_site *a = &base->sites[k][s], *b = &test->sites[k][s];
      uint32_t i = 0, j = 0;
      double sc = 0, fsc = 0;
      while (i < a->num && j < b->num)
	{
	  if (a->values[i].value == b->values[j].value)
	    {
	      sc += score (a->values[i].count, b->values[j].count,
			   prog->base.value_counts[k],
			   prog->test.value_counts[k]);
	      fsc += score (a->values[i].count, b->values[j].count,
			    fn->base.value_counts[k],
			    fn->test.value_counts[k]);
	      i++, j++;
	    }
	  else if (a->values[i].value < b->values[j].value)
	    i++;
	  else
	    j++;
	}
      prog->overlap.value_counts[k] += sc;
      fn->overlap.value_counts[k] += fsc;
    }
}

static const char *const kind_label[LP_NUM_VALUE_KINDS] = {
  "IndirectCall", "MemOP"
};

/* Print S in llvm-profdata's layout; PROGRAM selects the program-level
   heading.  */
static void
dump (FILE *out, const struct overlap_stats *s, int program,
      const char *base_path, const char *test_path, uint64_t only_in_base)
{
  const char *entry = program ? "functions" : "edge counters";

  if (program)
    fprintf (out, "Profile overlap information for base_profile: %s and "
	     "test_profile: %s\nProgram level:\n", base_path, test_path);
  else
    fprintf (out, "Function level:\n  Function: %s (Hash=%" PRIu64 ")\n",
	     s->name, s->hash);
  fprintf (out, "  # of %s overlap: %" PRIu64 "\n", entry,
	   s->overlap.num_entries);
  if (s->mismatch.num_entries)
    fprintf (out, "  # of %s mismatch: %" PRIu64 "\n", entry,
	     s->mismatch.num_entries);
  if (s->unique.num_entries)
    fprintf (out, "  # of %s only in test_profile: %" PRIu64 "\n", entry,
	     s->unique.num_entries);
  if (only_in_base)
    fprintf (out, "  # of %s only in base_profile: %" PRIu64 "\n", entry,
	     only_in_base);
  fprintf (out, "  Edge profile overlap: %.3f%%\n",
	   s->overlap.count_sum * 100);
  if (s->mismatch.num_entries)
    fprintf (out, "  Mismatched count percentage (Edge): %.3f%%\n",
	     s->mismatch.count_sum * 100);
  if (s->unique.num_entries)
    fprintf (out, "  Percentage of Edge profile only in test_profile: "
	     "%.3f%%\n", s->unique.count_sum * 100);
  fprintf (out, "  Edge profile base count sum: %.0f\n"
	   "  Edge profile test count sum: %.0f\n", s->base.count_sum,
	   s->test.count_sum);
  for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
    {
      if (s->base.value_counts[k] < 1.0 && s->test.value_counts[k] < 1.0)
	continue;
      fprintf (out, "  %s profile overlap: %.3f%%\n", kind_label[k],
	       s->overlap.value_counts[k] * 100);
      if (s->mismatch.num_entries)
	fprintf (out, "  Mismatched count percentage (%s): %.3f%%\n",
		 kind_label[k], s->mismatch.value_counts[k] * 100);
      if (s->unique.num_entries)
	fprintf (out, "  Percentage of %s profile only in test_profile: "
		 "%.3f%%\n", kind_label[k], s->unique.value_counts[k] * 100);
      fprintf (out, "  %s profile base count sum: %.0f\n"
	       "  %s profile test count sum: %.0f\n", kind_label[k],
	       s->base.value_counts[k], kind_label[k],
	       s->test.value_counts[k]);
    }
}

/* Whether some record of the sorted array RECS (NUM) is named NAME.  */
static int
has_name (struct lp_record **recs, size_t num, const struct lp_record *r)
{
  size_t lo = 0, hi = num;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      const struct lp_record *m = recs[mid];
      size_t n = m->name_len < r->name_len ? m->name_len : r->name_len;
      int c = memcmp (m->name, r->name, n);
      if (!c && m->name_len != r->name_len)
	c = m->name_len < r->name_len ? -1 : 1;
      if (c == 0)
	return 1;
      if (c < 0)
	lo = mid + 1;
      else
	hi = mid;
    }
  return 0;
}

int
lp_overlap_main (int argc, char **argv)
{
  static const struct option opts[] = {
    { "function", required_argument, NULL, 'F' },
    { "value-cutoff", required_argument, NULL, 'v' },
    { "cs", no_argument, NULL, 'c' },
    { "sample", no_argument, NULL, 'S' },
    { "similarity-cutoff", required_argument, NULL, 's' },
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *func = NULL, *output = NULL, *base_path, *test_path;
  uint64_t cutoff = UINT64_MAX, only_in_base = 0;
  int cs = 0, sample = 0, c;
  uint64_t sim_cutoff = 0;
  struct lp_store base, test;
  struct lp_record **brecs, **trecs;
  struct overlap_stats prog;
  FILE *out = stdout;

  while ((c = getopt_long (argc, argv, "o:h", opts, NULL)) != -1)
    switch (c)
      {
      case 'F':
	func = optarg;
	break;
      case 'v':
	if (lp_parse_u64 (optarg, strlen (optarg), 0, &cutoff) < 0)
	  {
	    lp_error (NULL, "invalid --value-cutoff '%s': expected a number",
		      optarg);
	    lp_exit (1);
	  }
	break;
      case 'c':
	cs = 1;
	break;
      case 'S':
	sample = 1;
	break;
      case 's':
	if (lp_parse_u64 (optarg, strlen (optarg), 0, &sim_cutoff) < 0)
	  {
	    lp_error (NULL, "invalid --similarity-cutoff '%s': expected a "
		      "number", optarg);
	    lp_exit (1);
	  }
	break;
      case 'o':
	output = optarg;
	break;
      case 'h':
	lp_print_overlap_usage (stdout);
	lp_exit (0);
      default:
	lp_print_overlap_usage (stderr);
	lp_exit (1);
      }
  if (argc - optind != 2)
    {
      lp_error (NULL, "overlap: expected two input files, BASE and TEST");
      lp_print_overlap_usage (stderr);
      lp_exit (1);
    }
  base_path = argv[optind];
  test_path = argv[optind + 1];
  if (func && !*func)
    func = NULL;
  if (sample)
    {
      if (output && !(out = fopen (output, "w")))
	lp_fatal (output, "%m");
      lp_sample_overlap (base_path, test_path, func, cutoff, sim_cutoff, out);
      if (fflush (out) != 0 || ferror (out))
	lp_fatal (output ? output : "<stdout>", "write error");
      return 0;
    }

  lp_store_init (&base);
  lp_store_init (&test);
  load (base_path, &base);
  load (test_path, &test);
  if (output && !(out = fopen (output, "w")))
    lp_fatal (output, "%m");

  brecs = lp_store_sorted (&base);
  trecs = lp_store_sorted (&test);
  memset (&prog, 0, sizeof prog);
  for (size_t i = 0; i < base.num_records; i++)
    if (!(brecs[i]->hash & LP_CS_HASH_BIT) == !cs)
      accumulate (brecs[i], &prog.base);
  for (size_t i = 0; i < test.num_records; i++)
    if (!(trecs[i]->hash & LP_CS_HASH_BIT) == !cs)
      accumulate (trecs[i], &prog.test);
  if (prog.base.count_sum < 1.0 || prog.test.count_sum < 1.0)
    {
      fprintf (out, "Sum of edge counts for profile %s is 0.\n",
	       prog.base.count_sum < 1.0 ? base_path : test_path);
      goto done;
    }

  for (size_t i = 0; i < test.num_records; i++)
    {
      const struct lp_record *t = trecs[i], *b;
      struct overlap_stats fn;
      int mismatch;
      uint64_t max = 0, fcut = cutoff;

      if (!(t->hash & LP_CS_HASH_BIT) != !cs)
	continue;
      memset (&fn, 0, sizeof fn);
      fn.name = t->name;
      fn.hash = t->hash;
      accumulate (t, &fn.test);
      if (!has_name (brecs, base.num_records, t))
	{
	  add_fraction (&prog.unique, &fn.test, &prog.test);
	  continue;
	}
      if (fn.test.count_sum < 1.0)
	{
	  prog.overlap.num_entries++;
	  continue;
	}
      b = lp_store_find (&base, t->name, t->name_len, t->name_md5, t->hash);
      if (!b)
	{
	  add_fraction (&prog.mismatch, &fn.test, &prog.test);
	  continue;
	}
      accumulate (b, &fn.base);
      mismatch = b->num_counts != t->num_counts;
      for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
	mismatch |= b->num_sites[k] != t->num_sites[k];
      if (mismatch)
	{
	  add_fraction (&prog.mismatch, &fn.test, &prog.test);
	  continue;
	}
      for (int k = 0; k < LP_NUM_VALUE_KINDS; k++)
	overlap_values (b, t, k, &prog, &fn);
      for (uint32_t k = 0; k < t->num_counts; k++)
	{
	  prog.overlap.count_sum += score (b->counts[k], t->counts[k],
					   prog.base.count_sum,
					   prog.test.count_sum);
	  if (t->counts[k] > max)
	    max = t->counts[k];
	}
      prog.overlap.num_entries++;
      if (func && strstr (t->name, func))
	fcut = 0;
      if (max >= fcut)
	{
	  for (uint32_t k = 0; k < t->num_counts; k++)
	    fn.overlap.count_sum += score (b->counts[k], t->counts[k],
					   fn.base.count_sum,
					   fn.test.count_sum);
	  fn.overlap.num_entries = t->num_counts;
	  dump (out, &fn, 0, NULL, NULL, 0);
	}
    }
  for (size_t i = 0; i < base.num_records; i++)
    if (!(brecs[i]->hash & LP_CS_HASH_BIT) == !cs
	&& !has_name (trecs, test.num_records, brecs[i]))
      only_in_base++;
  dump (out, &prog, 1, base_path, test_path, only_in_base);

done:
  if (fflush (out) != 0 || ferror (out))
    lp_fatal (output ? output : "<stdout>", "write error");
  if (out != stdout)
    fclose (out);
  free (brecs);
  free (trecs);
  lp_store_free (&base);
  lp_store_free (&test);
  return 0;
}
