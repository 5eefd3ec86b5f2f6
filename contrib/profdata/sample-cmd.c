/* sample-cmd.c: "latepgo-profdata merge --sample" and "show --sample"
   over sample-prof.c, for LLVM's sample profiles, text (those of
   latepgo-profgen and llvm-profgen --format=text) and extensible binary.  */

#define _GNU_SOURCE
#include "sample-cmd.h"
#include "sample-prof.h"
#include "sample-read-ahead.h"
#include "tool-util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

/* Whether F or its inlinees have what only latepgo's '#' lines hold.  */
static int
func_has_extensions (const struct sp_func *f)
{
  if (f->first_sample || f->num_branches)
    return 1;
  for (size_t i = 0; i < f->num_recs; i++)
    if (f->recs[i].num_sizes)
      return 1;
  for (size_t i = 0; i < f->num_calls; i++)
    if (func_has_extensions (f->calls[i].f))
      return 1;
  return 0;
}

static int
has_extensions (const struct sp_profile *p)
{
  for (size_t i = 0; i < p->num_funcs; i++)
    if (func_has_extensions (p->funcs[i]))
      return 1;
  return 0;
}

/* Write P to OUT in FORMAT; OUT_NAME names OUT in messages.  */
static void
write_profile (struct sp_profile *p, FILE *out, const char *out_name,
	       enum lp_sample_format format)
{
  char err[512];
  int r;
  if (format == LP_SAMPLE_TEXT)
    r = sp_write (p, out) < 0 ? -2 : 0;
  else
    {
      if (has_extensions (p))
	lp_warning (NULL, "the extensible binary format has no place for "
		    "latepgo's #first-sample, #sizes and #branch lines: "
		    "they are left out");
      r = sp_write_ext (p, out, format == LP_SAMPLE_EXT_MD5, err,
			sizeof err);
    }
  if (r == -1)
    lp_fatal (out_name, "%s", err);
  if (r < 0 || fflush (out) != 0 || ferror (out))
    lp_fatal (out_name, "write error: %s", strerror (errno));
}

int
lp_sample_merge (const char *const *paths, const uint64_t *weights,
		 size_t num, const char *output, int fail_all,
		 enum lp_sample_format format)
{
  struct sp_profile all;
  size_t num_ok = 0;

  sp_profile_init (&all);
  /* The inputs are read on the other CPUs while this thread merges
     (sample-read-ahead.c).  */
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  int threads = cpus < 2 ? 1 : cpus > 4 ? 4 : (int) cpus;
  struct sp_read_ahead *ra = sp_read_ahead_start (paths, weights, num,
						  threads);
  for (size_t i = 0; i < num; i++)
    {
      struct sp_profile *one;
      const char *err;
      if (sp_read_ahead_get (ra, i, &one, &err) < 0)
	{
	  if (!fail_all)
	    lp_fatal (paths[i], "%s", err);
	  lp_warning (paths[i], "%s", err);
	}
      else
	{
	  sp_merge (&all, one, paths[i]);
	  num_ok++;
	}
      sp_read_ahead_release (ra, i);
    }
  sp_read_ahead_finish (ra);
  if (num_ok == 0)
    lp_fatal (NULL, "no profile can be merged");
  if (strcmp (output, "-") == 0)
    write_profile (&all, stdout, "<stdout>", format);
  else
    {
      char *tmp;
      FILE *out = lp_open_output (output, &tmp);
      write_profile (&all, out, output, format);
      lp_commit_output (out, tmp, output);
    }
  sp_profile_free (&all);
  return 0;
}

/* The number of probe lines in F and its inlinees, and the largest
   count among them.  */
static void
count_lines (const struct sp_func *f, uint64_t *lines, uint64_t *max)
{
  *lines += f->num_recs;
  for (size_t i = 0; i < f->num_recs; i++)
    if (f->recs[i].count > *max)
      *max = f->recs[i].count;
  for (size_t i = 0; i < f->num_calls; i++)
    count_lines (f->calls[i].f, lines, max);
}

static void
show_body (FILE *out, const struct sp_func *f, int depth)
{
  for (size_t i = 0; i < f->num_recs; i++)
    {
      const struct sp_rec *r = &f->recs[i];
      fprintf (out, "%*s%" PRIu32, depth, "", r->id);
      if (r->disc)
	fprintf (out, ".%" PRIu32, r->disc);
      fprintf (out, ": %" PRIu64, r->count);
      if (r->num_targets)
	{
	  fputs (", calls:", out);
	  for (size_t t = 0; t < r->num_targets; t++)
	    fprintf (out, " %s:%" PRIu64, r->targets[t].name,
		     r->targets[t].count);
	}
      if (r->num_sizes)
	{
	  fputs (", sizes:", out);
	  for (size_t z = 0; z < r->num_sizes; z++)
	    fprintf (out, " %" PRIu64 ":%" PRIu64, r->sizes[z].size,
		     r->sizes[z].count);
	}
      fputc ('\n', out);
    }
  for (size_t i = 0; i < f->num_branches; i++)
    fprintf (out, "%*sbranch %s: %s:%" PRIu64 " %s:%" PRIu64 "\n", depth, "",
	     f->branches[i].src, f->branches[i].to[0],
	     f->branches[i].count[0], f->branches[i].to[1],
	     f->branches[i].count[1]);
  for (size_t i = 0; i < f->num_calls; i++)
    {
      const struct sp_func *k = f->calls[i].f;
      fprintf (out, "%*s%" PRIu32, depth, "", f->calls[i].id);
      if (f->calls[i].disc)
	fprintf (out, ".%" PRIu32, f->calls[i].disc);
      fprintf (out, ": inlinee %s, total %" PRIu64, k->name, k->total);
      if (k->has_hash)
	fprintf (out, ", checksum %" PRIu64, k->hash);
      fputc ('\n', out);
      show_body (out, k, depth + 2);
    }
}

/* Whether the profile named NAME (a function, or a context "[a:1 @ b]")
   is of function FUNC: its name, or its context's last frame.  */
static int
is_of (const char *name, const char *func)
{
  if (strcmp (name, func) == 0)
    return 1;
  size_t n = strlen (name), m = strlen (func);
  if (n < m + 2 || name[0] != '[' || name[n - 1] != ']'
      || memcmp (name + n - 1 - m, func, m) != 0)
    return 0;
  /* The frame before FUNC ends with " @ ", or FUNC is the only one.  */
  return n - 1 - m == 1
	 || (n - 1 - m >= 4 && memcmp (name + n - 1 - m - 3, " @ ", 3) == 0);
}

int
lp_sample_show (const char *path, const char *func, uint64_t topn, FILE *out)
{
  struct sp_profile p;
  char err[512];
  uint64_t total = 0, max = 0, lines = 0, max_line = 0;
  const char *max_name = NULL;
  size_t shown = 0;

  sp_profile_init (&p);
  if (sp_read_file (&p, path, 1, err, sizeof err) < 0)
    lp_fatal (path, "%s", err);
  /* Sorted as merge writes them: by total, largest first.  */
  FILE *null = fopen ("/dev/null", "w");
  if (!null || sp_write (&p, null) < 0)
    lp_fatal (NULL, "cannot sort the profile");
  fclose (null);
  for (size_t i = 0; i < p.num_funcs; i++)
    {
      const struct sp_func *f = p.funcs[i];
      total = lp_sat_add (total, f->total);
      if (!max_name || f->total > max)
	{
	  max = f->total;
	  max_name = f->name;
	}
      count_lines (f, &lines, &max_line);
    }

  if (func)
    {
      for (size_t i = 0; i < p.num_funcs; i++)
	{
	  const struct sp_func *f = p.funcs[i];
	  if (!is_of (f->name, func))
	    continue;
	  fprintf (out, "Function: %s: total %" PRIu64 ", head %" PRIu64,
		   f->name, f->total, f->head);
	  if (f->has_hash)
	    fprintf (out, ", checksum %" PRIu64, f->hash);
	  if (f->first_sample)
	    fprintf (out, ", first sample %" PRIu64, f->first_sample);
	  fputc ('\n', out);
	  show_body (out, f, 2);
	  shown++;
	}
      if (!shown)
	fprintf (out, "No function or context of '%s'\n", func);
    }
  else
    {
      fprintf (out, "Sample profile: %s\n", path);
      fprintf (out, "Functions and contexts: %zu\n", p.num_funcs);
      fprintf (out, "Total samples: %" PRIu64 "\n", total);
      if (max_name)
	fprintf (out, "Maximum function total: %" PRIu64 " (%s)\n", max,
		 max_name);
      fprintf (out, "Probe lines: %" PRIu64 "\n", lines);
      fprintf (out, "Maximum probe count: %" PRIu64 "\n", max_line);
      if (topn)
	{
	  fprintf (out, "Top %" PRIu64 " functions by total samples:\n",
		   topn);
	  fprintf (out, "  %12s %12s  %s\n", "total", "head", "name");
	  for (size_t i = 0; i < p.num_funcs && i < topn; i++)
	    fprintf (out, "  %12" PRIu64 " %12" PRIu64 "  %s\n",
		     p.funcs[i]->total, p.funcs[i]->head, p.funcs[i]->name);
	}
    }
  sp_profile_free (&p);
  return 0;
}
