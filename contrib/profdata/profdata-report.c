/* profdata-report.c: latepgo-profdata report, the figures of a whole
   use build.

   Each use or sample-use compilation with -fplugin-arg-latepgo-report=
   FILE or LATEPGO_REPORT=FILE appends one line to FILE
   (plugin/report.cc):

     latepgo-report TAB 1 TAB matched=N TAB stale=N TAB missing=N
       TAB unprofiled=0|1 TAB inconsistent=N [TAB salvaged=N]
       TAB profile=PATH TAB tu=FILE

   (salvaged= is absent from the lines of older plugins).  This adds
   the lines up: how many files, how many of them had no profile at
   all, how many functions matched, were salvaged, stale or missing,
   and which files were not trained or have stale functions.  A line
   that is not a report line is an error naming the file and line: a
   report that cannot be read whole says nothing reliable.  */

#include "profdata-cmd.h"
#include "tool-util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One file's line.  */
struct report_unit
{
  uint64_t matched, stale, missing, unprofiled, inconsistent, salvaged;
  char *tu;
};

struct report
{
  struct report_unit *units;
  size_t n, cap;
};

void
lp_print_report_usage (FILE *f)
{
  fprintf (f, "Usage: %s report FILE...\n"
	   "Add up the report lines that use builds appended to FILE\n"
	   "(-fplugin-arg-latepgo-report=FILE or LATEPGO_REPORT=FILE):\n"
	   "files compiled, files without any profile, functions matched,\n"
	   "stale and missing, and the files to look at.\n", progname);
}

/* Parse the field "KEY=N" at *P (up to a tab) into *OUT and move *P
   past it and its tab.  0 on success.  */

static int
parse_count (char **p, const char *key, uint64_t *out)
{
  size_t klen = strlen (key);
  if (strncmp (*p, key, klen) != 0 || (*p)[klen] != '=')
    return -1;
  char *v = *p + klen + 1;
  char *tab = strchr (v, '\t');
  if (!tab || lp_parse_u64 (v, tab - v, 0, out) != 0)
    return -1;
  *p = tab + 1;
  return 0;
}

/* Parse LINE (without its newline) into U.  0 on success.  */

static int
parse_line (char *line, struct report_unit *u)
{
  static const char head[] = "latepgo-report\t1\t";
  if (strncmp (line, head, sizeof head - 1) != 0)
    return -1;
  char *p = line + sizeof head - 1;
  if (parse_count (&p, "matched", &u->matched)
      || parse_count (&p, "stale", &u->stale)
      || parse_count (&p, "missing", &u->missing)
      || parse_count (&p, "unprofiled", &u->unprofiled)
      || parse_count (&p, "inconsistent", &u->inconsistent)
      || u->unprofiled > 1)
    return -1;
  u->salvaged = 0;
  if (strncmp (p, "salvaged=", 9) == 0
      && parse_count (&p, "salvaged", &u->salvaged))
    return -1;
  if (strncmp (p, "profile=", 8) != 0)
    return -1;
  char *tu = strstr (p, "\ttu=");
  if (!tu || !tu[4])
    return -1;
  u->tu = xstrdup (tu + 4);
  return 0;
}

/* Read every line of PATH into R; 0 on success.  */

static int
read_report (const char *path, struct report *r)
{
  FILE *f = fopen (path, "r");
  if (!f)
    {
      lp_error (path, "cannot open: %s", strerror (errno));
      return -1;
    }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  unsigned long lineno = 0;
  int status = 0;
  while ((len = getline (&line, &cap, f)) >= 0)
    {
      lineno++;
      if (len > 0 && line[len - 1] == '\n')
	line[--len] = '\0';
      struct report_unit u;
      if ((size_t) len != strlen (line) || parse_line (line, &u) != 0)
	{
	  lp_error (path, "line %lu is not a latepgo report line", lineno);
	  status = -1;
	  break;
	}
      r->units = lp_grow (r->units, &r->cap, r->n, sizeof *r->units, 64);
      r->units[r->n++] = u;
    }
  if (status == 0 && ferror (f))
    {
      lp_error (path, "read error: %s", strerror (errno));
      status = -1;
    }
  free (line);
  fclose (f);
  return status;
}

int
lp_report_main (int argc, char **argv)
{
  int status = lp_usage_asked (argc, argv, lp_print_report_usage);
  if (status >= 0)
    return status;
  struct report r = { NULL, 0, 0 };
  for (int i = 1; i < argc; i++)
    if (read_report (argv[i], &r) != 0)
      return 1;

  uint64_t matched = 0, stale = 0, missing = 0, unprofiled = 0;
  uint64_t inconsistent = 0, salvaged = 0;
  for (size_t i = 0; i < r.n; i++)
    {
      matched = lp_sat_add (matched, r.units[i].matched);
      stale = lp_sat_add (stale, r.units[i].stale);
      missing = lp_sat_add (missing, r.units[i].missing);
      unprofiled += r.units[i].unprofiled;
      inconsistent = lp_sat_add (inconsistent, r.units[i].inconsistent);
      salvaged = lp_sat_add (salvaged, r.units[i].salvaged);
    }
  printf ("files: %zu, %llu without any profile\n", r.n,
	  (unsigned long long) unprofiled);
  printf ("functions: %llu: %llu matched, %llu salvaged, %llu stale, "
	  "%llu missing\n",
	  (unsigned long long) lp_sat_add (lp_sat_add (matched, salvaged),
					   lp_sat_add (stale, missing)),
	  (unsigned long long) matched, (unsigned long long) salvaged,
	  (unsigned long long) stale, (unsigned long long) missing);
  if (inconsistent)
    printf ("functions with inconsistent counts: %llu\n",
	    (unsigned long long) inconsistent);
  for (size_t i = 0; i < r.n; i++)
    if (r.units[i].unprofiled)
      printf ("without any profile: %s\n", r.units[i].tu);
  for (size_t i = 0; i < r.n; i++)
    if (!r.units[i].unprofiled && r.units[i].stale)
      printf ("stale functions: %llu in %s\n",
	      (unsigned long long) r.units[i].stale, r.units[i].tu);
  for (size_t i = 0; i < r.n; i++)
    free (r.units[i].tu);
  free (r.units);
  return 0;
}
