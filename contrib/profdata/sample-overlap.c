/* sample-overlap.c: "latepgo-profdata overlap --sample BASE TEST" for
   LLVM text sample profiles, with llvm-profdata 14's measures
   (doc/tools.md, section 1.2): sample overlap, unique samples,
   function overlap, hot functions and blocks (a block being hot at the
   profile's 99% cutoff count), and a similarity per function and for
   the whole program:

     block similarity  BS(i) = 1 - |B(i)/SB - T(i)/ST| (SB, ST: the
                       function's samples, inlinees included);
     function, inside  FIS = (2 - sum_i (1 - BS(i))) / 2, an inlinee
                       found in both counting 2 - 2 FIS(inlinee), one
                       found in one only as one block of its samples;
     function          FS = FIS * (1 - |WB - WT|), WB and WT the
                       function's share of its profile's samples;
     program           PS = sum FS * (WB + WT) / 2.

   Functions (and CS contexts) are matched by their full name.  */

#define _GNU_SOURCE
#include "sample-cmd.h"
#include "sample-prof.h"
#include "tool-util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPSILON 0.000005

struct fstats
{
  uint64_t sum, max, hot_blocks;
};

struct ostats
{
  uint64_t base_sample, test_sample, overlap_sample, union_sample;
  uint64_t base_unique_sample, test_unique_sample;
  uint64_t base_count, test_count, overlap_count, union_count;
  uint64_t base_unique_count, test_unique_count;
  double similarity;
};

struct fdetail
{
  const char *name;
  double base_weight, test_weight, similarity;
  struct ostats o;
};

struct overlap
{
  uint64_t base_hot, test_hot;
  struct ostats prog, hot_funcs, hot_blocks;
};

static void
func_stats (const struct sp_func *f, uint64_t hot, struct fstats *s)
{
  for (size_t i = 0; i < f->num_recs; i++)
    {
      uint64_t n = f->recs[i].count;
      s->sum = lp_sat_add (s->sum, n);
      if (n > s->max)
	s->max = n;
      if (n >= hot)
	s->hot_blocks++;
    }
  for (size_t i = 0; i < f->num_calls; i++)
    func_stats (f->calls[i].f, hot, s);
}

static int
cmp_desc (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x > y ? -1 : x < y;
}

static void
collect_counts (const struct sp_func *f, uint64_t **v, size_t *n,
		size_t *cap)
{
  for (size_t i = 0; i < f->num_recs; i++)
    {
      *v = lp_grow (*v, cap, *n, sizeof **v, 64);
      (*v)[(*n)++] = f->recs[i].count;
    }
  for (size_t i = 0; i < f->num_calls; i++)
    collect_counts (f->calls[i].f, v, n, cap);
}

/* The smallest count of the largest ones that make up 99% of P's body
   samples (LLVM's summary entry at cutoff 990000).  */
static uint64_t
hot_threshold (const struct sp_profile *p)
{
  uint64_t *v = NULL, count = 0;
  size_t n = 0, cap = 0;
  unsigned __int128 total = 0, sum = 0;

  for (size_t i = 0; i < p->num_funcs; i++)
    collect_counts (p->funcs[i], &v, &n, &cap);
  for (size_t i = 0; i < n; i++)
    total += v[i];
  if (n > 1)
    qsort (v, n, sizeof *v, cmp_desc);
  unsigned __int128 desired = total * 990000 / 1000000;
  for (size_t i = 0; i < n && sum < desired; i++)
    {
      count = v[i];
      sum += v[i];
    }
  free (v);
  return count;
}

static double
block_similarity (uint64_t b, uint64_t t, const struct ostats *fo)
{
  double bf = fo->base_sample ? (double) b / fo->base_sample : 0.0;
  double tf = fo->test_sample ? (double) t / fo->test_sample : 0.0;
  return 1.0 - fabs (bf - tf);
}

static void
hot_block (struct overlap *o, uint64_t b, uint64_t t, uint64_t blocks)
{
  int bh = b >= o->base_hot, th = t >= o->test_hot;
  if (!bh && !th)
    return;
  o->hot_blocks.union_count += blocks;
  if (bh)
    o->hot_blocks.base_count += blocks;
  if (th)
    o->hot_blocks.test_count += blocks;
  if (bh && th)
    o->hot_blocks.overlap_count += blocks;
}

/* One block (or unmatched inlinee) of B samples in base, T in test;
   IN_BASE, IN_TEST: where it is.  */
static void
block (struct overlap *o, uint64_t b, uint64_t t, int in_base, int in_test,
       uint64_t blocks, struct ostats *fo, double *diff)
{
  if (!in_test)
    {
      t = 0;
      fo->base_unique_sample += b;
    }
  else if (!in_base)
    {
      b = 0;
      fo->test_unique_sample += t;
    }
  else
    fo->overlap_count++;
  fo->union_sample += b > t ? b : t;
  fo->overlap_sample += b < t ? b : t;
  *diff += 1.0 - block_similarity (b, t, fo);
  hot_block (o, b, t, blocks);
}

static void
unmatched_inlinee (struct overlap *o, const struct sp_func *f, int in_base,
		   struct ostats *fo, double *diff)
{
  struct fstats s = { 0, 0, 0 };
  func_stats (f, in_base ? o->base_hot : o->test_hot, &s);
  block (o, in_base ? s.sum : 0, in_base ? 0 : s.sum, in_base, !in_base,
	 s.hot_blocks, fo, diff);
}

/* Key order of body lines and inlinee call sites.  */
static int
loc_cmp (uint32_t id1, uint32_t d1, uint32_t id2, uint32_t d2)
{
  if (id1 != id2)
    return id1 < id2 ? -1 : 1;
  return d1 < d2 ? -1 : d1 > d2;
}

static double
internal_overlap (struct overlap *o, const struct sp_func *b,
		  const struct sp_func *t, struct ostats *fo)
{
  double diff = 0;
  size_t i = 0, j = 0;

  /* Both are sorted (sp_write).  */
  while (i < b->num_recs || j < t->num_recs)
    {
      int c = i == b->num_recs ? 1 : j == t->num_recs ? -1
	      : loc_cmp (b->recs[i].id, b->recs[i].disc, t->recs[j].id,
			 t->recs[j].disc);
      block (o, c <= 0 ? b->recs[i].count : 0, c >= 0 ? t->recs[j].count : 0,
	     c <= 0, c >= 0, 1, fo, &diff);
      i += c <= 0;
      j += c >= 0;
    }
  i = j = 0;
  while (i < b->num_calls || j < t->num_calls)
    {
      const struct sp_callsite *x = i < b->num_calls ? &b->calls[i] : NULL;
      const struct sp_callsite *y = j < t->num_calls ? &t->calls[j] : NULL;
      int c = !x ? 1 : !y ? -1 : loc_cmp (x->id, x->disc, y->id, y->disc);
      if (c == 0)
	c = strcmp (x->f->name, y->f->name);
      if (c < 0)
	unmatched_inlinee (o, x->f, 1, fo, &diff);
      else if (c > 0)
	unmatched_inlinee (o, y->f, 0, fo, &diff);
      else
	diff += 2.0 - 2 * internal_overlap (o, x->f, y->f, fo);
      i += c <= 0;
      j += c >= 0;
    }
  return (2.0 - diff) / 2;
}

static double
weight_func (const struct overlap *o, double fis, uint64_t b, uint64_t t)
{
  double bf = (double) b / o->prog.base_sample;
  double tf = (double) t / o->prog.test_sample;
  return fis * (1 - fabs (bf - tf));
}

static double
weight_importance (const struct overlap *o, double fs, uint64_t b,
		   uint64_t t)
{
  return fs * ((double) b / o->prog.base_sample / 2.0
	       + (double) t / o->prog.test_sample / 2.0);
}

static int
cmp_detail (const void *a, const void *b)
{
  const struct fdetail *x = a, *y = b;
  if (x->base_weight != y->base_weight)
    return x->base_weight > y->base_weight ? -1 : 1;
  return strcmp (x->name, y->name);
}

static int
probe_based (const struct sp_profile *p)
{
  for (size_t i = 0; i < p->num_funcs; i++)
    if (p->funcs[i]->has_hash)
      return 1;
  return 0;
}

/* Print S padded with spaces to column COL (at least one space) from
   column *AT.  */
static void
pad (FILE *out, int *at, int col)
{
  int n = col - *at;
  if (n < 1)
    n = 1;
  fprintf (out, "%*s", n, "");
  *at += n;
}

static void
cell (FILE *out, int *at, int col, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

#include <stdarg.h>
static void
cell (FILE *out, int *at, int col, const char *fmt, ...)
{
  va_list ap;
  if (col)
    pad (out, at, col);
  va_start (ap, fmt);
  *at += vfprintf (out, fmt, ap);
  va_end (ap);
}

int
lp_sample_overlap (const char *base_path, const char *test_path,
		   const char *func, uint64_t value_cutoff,
		   uint64_t similarity_cutoff, FILE *out)
{
  struct sp_profile base, test;
  struct overlap o;
  char err[512];
  struct fdetail *details = NULL;
  size_t num_details = 0, cap_details = 0;
  double low = (double) similarity_cutoff / 1000000;

  sp_profile_init (&base);
  sp_profile_init (&test);
  if (sp_read_file (&base, base_path, 1, err, sizeof err) < 0)
    lp_fatal (base_path, "%s", err);
  if (sp_read_file (&test, test_path, 1, err, sizeof err) < 0)
    lp_fatal (test_path, "%s", err);
  if (probe_based (&base) != probe_based (&test))
    lp_fatal (NULL, "cannot compare probe-based profile with "
	      "non-probe-based profile");
  /* Sorted, as the merges below need.  */
  FILE *null = fopen ("/dev/null", "w");
  if (!null || sp_write (&base, null) < 0 || sp_write (&test, null) < 0)
    lp_fatal (NULL, "cannot sort the profiles");
  fclose (null);

  memset (&o, 0, sizeof o);
  o.base_hot = hot_threshold (&base);
  o.test_hot = hot_threshold (&test);
  struct fstats *bs = xcalloc (base.num_funcs + 1, sizeof *bs);
  struct fstats *ts = xcalloc (test.num_funcs + 1, sizeof *ts);
  char *matched = xcalloc (base.num_funcs + 1, 1);
  for (size_t i = 0; i < base.num_funcs; i++)
    {
      func_stats (base.funcs[i], o.base_hot, &bs[i]);
      o.prog.base_sample = lp_sat_add (o.prog.base_sample, bs[i].sum);
    }
  for (size_t i = 0; i < test.num_funcs; i++)
    {
      func_stats (test.funcs[i], o.test_hot, &ts[i]);
      o.prog.test_sample = lp_sat_add (o.prog.test_sample, ts[i].sum);
    }
  if (o.prog.base_sample == 0 || o.prog.test_sample == 0)
    {
      if (o.prog.base_sample == 0)
	fprintf (out, "Sum of sample counts for profile %s is 0.\n",
		 base_path);
      if (o.prog.test_sample == 0)
	fprintf (out, "Sum of sample counts for profile %s is 0.\n",
		 test_path);
      goto done;
    }

  o.prog.union_count = base.num_funcs;
  for (size_t j = 0; j < test.num_funcs; j++)
    {
      const struct sp_func *tf = test.funcs[j];
      struct ostats fo;
      size_t bi = sp_index (&base, tf->name);
      int found = bi != 0;
      double fs;

      memset (&fo, 0, sizeof fo);
      fo.test_sample = ts[j].sum;
      bi -= found;
      if (!found)
	{
	  o.prog.test_unique_count++;
	  o.prog.test_unique_sample += ts[j].sum;
	  fo.test_unique_sample = ts[j].sum;
	  hot_block (&o, 0, ts[j].sum, ts[j].hot_blocks);
	  o.prog.union_count++;
	  o.prog.union_sample += ts[j].sum;
	  fs = 0;
	}
      else
	{
	  o.prog.overlap_count++;
	  fo.base_sample = bs[bi].sum;
	  double fis = internal_overlap (&o, base.funcs[bi], tf, &fo);
	  if (fabs (fis) < EPSILON)
	    fis = 0;
	  fs = weight_func (&o, fis, fo.base_sample, fo.test_sample);
	  o.prog.similarity += weight_importance (&o, fs, fo.base_sample,
						  fo.test_sample);
	  o.prog.overlap_sample += fo.overlap_sample;
	  o.prog.union_sample += fo.union_sample;
	  o.prog.base_unique_sample += fo.base_unique_sample;
	  o.prog.test_unique_sample += fo.test_unique_sample;
	  matched[bi] = 1;
	}
      if (ts[j].max >= value_cutoff
	  || (found && fs < low)
	  || (found && func && strstr (tf->name, func)))
	{
	  details = lp_grow (details, &cap_details, num_details,
			     sizeof *details, 16);
	  struct fdetail *d = &details[num_details++];
	  d->name = tf->name;
	  d->o = fo;
	  d->similarity = fs;
	  d->base_weight = (double) fo.base_sample / o.prog.base_sample;
	  d->test_weight = (double) fo.test_sample / o.prog.test_sample;
	}
    }
  for (size_t i = 0; i < base.num_funcs; i++)
    if (!matched[i])
      {
	o.prog.base_unique_count++;
	o.prog.base_unique_sample += bs[i].sum;
	hot_block (&o, bs[i].sum, 0, bs[i].hot_blocks);
	o.prog.union_sample += bs[i].sum;
      }
  if (fabs (o.prog.similarity - 1) < EPSILON)
    o.prog.similarity = 1;

  /* Hot functions: those whose largest count is hot.  */
  for (size_t i = 0; i < base.num_funcs; i++)
    o.hot_funcs.base_count += bs[i].max >= o.base_hot;
  for (size_t j = 0; j < test.num_funcs; j++)
    {
      if (ts[j].max < o.test_hot)
	continue;
      o.hot_funcs.test_count++;
      size_t bi = sp_index (&base, test.funcs[j]->name);
      o.hot_funcs.overlap_count += bi && bs[bi - 1].max >= o.base_hot;
    }
  o.hot_funcs.union_count = o.hot_funcs.base_count + o.hot_funcs.test_count
			    - o.hot_funcs.overlap_count;

  fprintf (out, "Profile overlap infomation for base_profile: %s and "
	   "test_profile: %s\nProgram level:\n", base_path, test_path);
  fprintf (out, "  Whole program profile similarity: %.3f%%\n",
	   o.prog.similarity * 100);
  fprintf (out, "  Whole program sample overlap: %.3f%%\n",
	   o.prog.union_sample
	   ? (double) o.prog.overlap_sample / o.prog.union_sample * 100 : 0);
  fprintf (out, "    percentage of samples unique in base profile: "
	   "%.3f%%\n",
	   (double) o.prog.base_unique_sample / o.prog.base_sample * 100);
  fprintf (out, "    percentage of samples unique in test profile: "
	   "%.3f%%\n",
	   (double) o.prog.test_unique_sample / o.prog.test_sample * 100);
  fprintf (out, "    total samples in base profile: %" PRIu64 "\n"
	   "    total samples in test profile: %" PRIu64 "\n",
	   o.prog.base_sample, o.prog.test_sample);
  fprintf (out, "  Function overlap: %.3f%%\n",
	   o.prog.union_count
	   ? (double) o.prog.overlap_count / o.prog.union_count * 100 : 0);
  fprintf (out, "    overlap functions: %" PRIu64 "\n"
	   "    functions unique in base profile: %" PRIu64 "\n"
	   "    functions unique in test profile: %" PRIu64 "\n",
	   o.prog.overlap_count, o.prog.base_unique_count,
	   o.prog.test_unique_count);
  fprintf (out, "  Hot-function overlap: %.3f%%\n",
	   o.hot_funcs.union_count
	   ? (double) o.hot_funcs.overlap_count / o.hot_funcs.union_count
	     * 100 : 0);
  fprintf (out, "    overlap hot functions: %" PRIu64 "\n"
	   "    hot functions unique in base profile: %" PRIu64 "\n"
	   "    hot functions unique in test profile: %" PRIu64 "\n",
	   o.hot_funcs.overlap_count,
	   o.hot_funcs.base_count - o.hot_funcs.overlap_count,
	   o.hot_funcs.test_count - o.hot_funcs.overlap_count);
  fprintf (out, "  Hot-block overlap: %.3f%%\n",
	   o.hot_blocks.union_count
	   ? (double) o.hot_blocks.overlap_count / o.hot_blocks.union_count
	     * 100 : 0);
  fprintf (out, "    overlap hot blocks: %" PRIu64 "\n"
	   "    hot blocks unique in base profile: %" PRIu64 "\n"
	   "    hot blocks unique in test profile: %" PRIu64 "\n",
	   o.hot_blocks.overlap_count,
	   o.hot_blocks.base_count - o.hot_blocks.overlap_count,
	   o.hot_blocks.test_count - o.hot_blocks.overlap_count);

  if (num_details)
    {
      int at = 0;
      qsort (details, num_details, sizeof *details, cmp_detail);
      cell (out, &at, 0, "Function-level details:\n");
      at = 0;
      cell (out, &at, 0, "Base weight");
      cell (out, &at, 15, "Test weight");
      cell (out, &at, 30, "Similarity");
      cell (out, &at, 43, "Overlap");
      cell (out, &at, 53, "Base unique");
      cell (out, &at, 67, "Test unique");
      cell (out, &at, 81, "Base samples");
      cell (out, &at, 96, "Test samples");
      cell (out, &at, 111, "Function name\n");
      for (size_t k = 0; k < num_details; k++)
	{
	  const struct fdetail *d = &details[k];
	  const struct ostats *s = &d->o;
	  at = 0;
	  cell (out, &at, 0, "%.2f%%", d->base_weight * 100);
	  cell (out, &at, 15, "%.2f%%", d->test_weight * 100);
	  cell (out, &at, 30, "%.2f%%", d->similarity * 100);
	  cell (out, &at, 43, "%.2f%%", s->union_sample
		? (double) s->overlap_sample / s->union_sample * 100 : 0);
	  cell (out, &at, 53, "%.2f%%", s->base_sample
		? (double) s->base_unique_sample / s->base_sample * 100 : 0);
	  cell (out, &at, 67, "%.2f%%", s->test_sample
		? (double) s->test_unique_sample / s->test_sample * 100 : 0);
	  cell (out, &at, 81, "%" PRIu64, s->base_sample);
	  cell (out, &at, 96, "%" PRIu64, s->test_sample);
	  cell (out, &at, 111, "%s\n", d->name);
	}
    }
done:
  free (details);
  free (bs);
  free (ts);
  free (matched);
  sp_profile_free (&base);
  sp_profile_free (&test);
  return 0;
}
