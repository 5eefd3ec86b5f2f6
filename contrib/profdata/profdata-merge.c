/* profdata-merge.c: "latepgo-profdata merge": read the inputs one at a
   time into a record store and write it as an indexed (default) or
   text profile through a temporary file that is renamed into place
   only on success.  */

#define _GNU_SOURCE
#include "anchors-collect.h"
#include "map-join.h"
#include "prof-store.h"
#include "profdata-cmd.h"
#include "sample-cmd.h"
#include "tool-util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct input
{
  char *path;
  uint64_t weight;
};

struct input_list
{
  struct input *v;
  size_t num, cap;
};

struct merge_ctx
{
  struct lp_store *store;
  uint64_t weight;
  const char *path;
};

void
lp_print_merge_usage (FILE *f)
{
  fputs ("Usage: latepgo-profdata merge [OPTION]... -o OUTPUT INPUT...\n"
	 "Merge raw, indexed and text instrumentation profiles into one "
	 "indexed\n(or text) profile.  Records with the same name and "
	 "function hash are\nsummed, saturating at 2^64-1; a first-run time "
	 "keeps the earliest.\n\n"
	 "  -o, --output=FILE           write the result to FILE "
	 "(\"-\": stdout, text only)\n"
	 "      --text                  write the text format\n"
	 "      --binary                write the indexed format (default)\n"
	 "      --binary=PROG           join lean raw profiles with the map "
	 "of PROG\n"
	 "      --map=FILE              the same, with a map extracted from "
	 "PROG\n"
	 "  -w, --weighted-input=W,FILE add FILE with every count "
	 "multiplied by W\n"
	 "  -f, --input-files=LIST      read inputs from LIST: one FILE "
	 "or W,FILE per line,\n"
	 "                              '#' starts a comment line\n"
	 "      --anchors=BINARY        keep the CFG anchors of BINARY (a "
	 "training binary or\n"
	 "                              shared library, or every one under "
	 "a directory)\n"
	 "                              in OUTPUT.anchors, for salvaging\n"
	 "                              stale functions; an input's own "
	 "INPUT.anchors is\n"
	 "                              kept too\n"
	 "      --failure-mode=any|all  fail if any input is invalid "
	 "(default), or only\n"
	 "                              if all are\n"
	 "      --sample                merge LLVM sample profiles, text or "
	 "extensible\n"
	 "                              binary (flat, nested or CS "
	 "contexts), into a text\n"
	 "                              (or --extbinary) sample "
	 "profile: counts,\n"
	 "                              call targets and latepgo's "
	 "#sizes and #branch\n"
	 "                              summed, #first-sample the smallest; "
	 "a function\n"
	 "                              whose !CFGChecksum differs is left "
	 "out of that\n"
	 "                              input with a warning; INPUT:W "
	 "weights INPUT by W\n"
	 "                              when no file is named INPUT:W\n"
	 "      --extbinary             with --sample, write LLVM's "
	 "extensible binary format\n"
	 "      --use-md5               with --extbinary, names as their "
	 "MD5 hashes\n"
	 "  -h, --help                  print this help\n", f);
}

static void
add_input (struct input_list *l, const char *path, uint64_t weight)
{
  l->v = lp_grow (l->v, &l->cap, l->num, sizeof *l->v, 16);
  l->v[l->num].path = xstrdup (path);
  l->v[l->num].weight = weight;
  l->num++;
}

/* Parse "W,FILE" into L.  */
static void
add_weighted (struct input_list *l, const char *arg)
{
  const char *comma = strchr (arg, ',');
  uint64_t w;

  if (!comma || comma == arg || !comma[1]
      || lp_parse_u64 (arg, comma - arg, 0, &w) < 0 || w < 1)
    {
      lp_error (NULL, "invalid weighted input '%s': expected W,FILE with a "
		"positive integer weight W", arg);
      lp_exit (1);
    }
  add_input (l, comma + 1, w);
}

/* Read the inputs listed in LISTFILE into L.  */
static void
add_list_file (struct input_list *l, const char *listfile)
{
  FILE *f = fopen (listfile, "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;

  if (!f)
    lp_fatal (listfile, "%s", strerror (errno));
  while ((n = getline (&line, &cap, f)) >= 0)
    {
      char *s = line, *e = line + n;
      while (s < e && strchr (" \t\v\f\r\n", *s))
	s++;
      while (e > s && strchr (" \t\v\f\r\n", e[-1]))
	e--;
      *e = 0;
      if (s == e || *s == '#')
	continue;
      if (strchr (s, ','))
	add_weighted (l, s);
      else
	add_input (l, s, 1);
    }
  free (line);
  fclose (f);
}

static void
merge_sink (void *ctx, const struct lp_record_in *rec)
{
  struct merge_ctx *m = ctx;
  lp_store_add (m->store, rec, m->weight, m->path);
}

/* Whether PATH names the same existing file as OUT_ST.  */
static int
same_file (const char *path, const struct stat *out_st)
{
  struct stat st;
  return stat (path, &st) == 0 && st.st_dev == out_st->st_dev
	 && st.st_ino == out_st->st_ino;
}

/* Write the sorted records to OUTPUT (via a temporary file).  */
static void
write_output (const char *output, int text, struct lp_record **recs,
	      size_t num, uint64_t variant)
{
  FILE *out;
  char *tmp = NULL;
  int r;

  if (strcmp (output, "-") == 0)
    {
      if (!text && isatty (STDOUT_FILENO))
	lp_fatal (NULL, "cannot write an indexed profile to a terminal");
      r = text ? lp_write_text (stdout, recs, num, variant)
	       : lp_write_indexed (stdout, recs, num, variant);
      if (r < 0 || fflush (stdout) != 0)
	lp_fatal ("<stdout>", "write error: %s", strerror (errno));
      return;
    }

  out = lp_open_output (output, &tmp);
  r = text ? lp_write_text (out, recs, num, variant)
	   : lp_write_indexed (out, recs, num, variant);
  if (r < 0)
    lp_fatal (output, "write error: %s", strerror (errno));
  lp_commit_output (out, tmp, output);
}

/* Its option table is alike in shape only to show's and overlap's:
   each command has its own options, as in llvm-profdata.  */
int
lp_merge_main (int argc, char **argv)
{
  static const struct option opts[] = {
    { "output", required_argument, NULL, 'o' },
    { "text", no_argument, NULL, 't' },
    /* --binary alone is llvm-profdata's "indexed output";
       --binary=PROG a lean binary to join.  */
    { "binary", optional_argument, NULL, 'b' },
    { "map", required_argument, NULL, 'M' },
    { "weighted-input", required_argument, NULL, 'w' },
    { "input-files", required_argument, NULL, 'f' },
    { "failure-mode", required_argument, NULL, 'F' },
    { "anchors", required_argument, NULL, 'A' },
    { "sample", no_argument, NULL, 'S' },
    { "extbinary", no_argument, NULL, 'E' },
    { "use-md5", no_argument, NULL, '5' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  struct input_list inputs = { 0 };
  int sample = 0, binary_asked = 0, extbinary = 0, use_md5 = 0;
  struct anchors_set *anchors = anchors_set_new ();
  struct map_set *maps = map_set_new ();
  const char *output = NULL;
  int text = 0, fail_all = 0, c;
  size_t num_ok = 0, num_failed = 0;
  struct lp_store store;
  struct lp_record **recs;
  struct stat out_st;
  int out_exists;

  while ((c = getopt_long (argc, argv, "o:w:f:h", opts, NULL)) != -1)
    switch (c)
      {
      case 'o':
	output = optarg;
	break;
      case 't':
	text = 1;
	break;
      case 'b':
	if (optarg)
	  map_set_add (maps, optarg);
	else
	  {
	    text = 0;
	    binary_asked = 1;
	  }
	break;
      case 'S':
	sample = 1;
	break;
      case 'E':
	extbinary = 1;
	break;
      case '5':
	use_md5 = 1;
	break;
      case 'M':
	map_set_add (maps, optarg);
	break;
      case 'w':
	add_weighted (&inputs, optarg);
	break;
      case 'f':
	add_list_file (&inputs, optarg);
	break;
      case 'F':
	if (strcmp (optarg, "any") == 0)
	  fail_all = 0;
	else if (strcmp (optarg, "all") == 0)
	  fail_all = 1;
	else
	  {
	    lp_error (NULL, "invalid --failure-mode '%s': expected any or "
		      "all", optarg);
	    lp_exit (1);
	  }
	break;
      case 'A':
	anchors_set_add_file (anchors, optarg);
	break;
      case 'h':
	lp_print_merge_usage (stdout);
	lp_exit (0);
      default:
	lp_print_merge_usage (stderr);
	lp_exit (1);
      }
  for (int i = optind; i < argc; i++)
    add_input (&inputs, argv[i], 1);
  if (!output)
    {
      lp_error (NULL, "merge: no output file given (-o OUTPUT)");
      lp_print_merge_usage (stderr);
      lp_exit (1);
    }
  if (inputs.num == 0)
    {
      lp_error (NULL, "merge: no input files");
      lp_print_merge_usage (stderr);
      lp_exit (1);
    }

  if (sample)
    {
      if (binary_asked || map_set_size (maps) || anchors_set_size (anchors))
	{
	  lp_error (NULL, "merge --sample: text (--text, the default) and "
		    "extensible binary (--extbinary) sample profiles are "
		    "written, not LLVM's older binary one (no --binary, "
		    "--map or --anchors)");
	  lp_exit (1);
	}
      if (text && extbinary)
	{
	  lp_error (NULL, "merge --sample: --text and --extbinary both "
		    "given");
	  lp_exit (1);
	}
      if (use_md5 && !extbinary)
	{
	  lp_error (NULL, "merge --sample: --use-md5 needs --extbinary");
	  lp_exit (1);
	}
    }
  else if (extbinary || use_md5)
    {
      lp_error (NULL, "merge: --extbinary and --use-md5 are for sample "
		"profiles (--sample)");
      lp_exit (1);
    }

  /* Never overwrite an input.  */
  out_exists = strcmp (output, "-") != 0 && stat (output, &out_st) == 0;
  for (size_t i = 0; i < inputs.num; i++)
    if (strcmp (inputs.v[i].path, output) == 0
	|| (out_exists && same_file (inputs.v[i].path, &out_st)))
      lp_fatal (inputs.v[i].path, "input file is the same as the output "
		"file");

  if (sample)
    {
      /* The FILE arguments first, then the -w and -f ones, in
	 llvm-profdata's order: a function's !Attributes are those of
	 the first input that has it.  */
      const char **paths = xmalloc (inputs.num * sizeof *paths);
      uint64_t *weights = xmalloc (inputs.num * sizeof *weights);
      size_t num_args = argc - optind;
      for (size_t i = 0; i < inputs.num; i++)
	{
	  size_t k = (inputs.num - num_args + i) % inputs.num;
	  paths[i] = inputs.v[k].path;
	  weights[i] = inputs.v[k].weight;
	  /* FILE:W, when there is no file of that name but FILE.  */
	  char *colon = strrchr (inputs.v[k].path, ':');
	  uint64_t w;
	  if (i < num_args && colon && colon[1]
	      && access (inputs.v[k].path, F_OK) != 0
	      && lp_parse_u64 (colon + 1, strlen (colon + 1), 0, &w) == 0
	      && w >= 1)
	    {
	      *colon = 0;
	      if (access (inputs.v[k].path, F_OK) == 0)
		weights[i] = w;
	      else
		*colon = ':';
	    }
	}
      int r = lp_sample_merge (paths, weights, inputs.num, output, fail_all,
			       extbinary ? (use_md5 ? LP_SAMPLE_EXT_MD5
					  : LP_SAMPLE_EXT)
					 : LP_SAMPLE_TEXT);
      free (paths);
      free (weights);
      return r;
    }

  lp_store_init (&store);
  for (size_t i = 0; i < inputs.num; i++)
    {
      struct lp_profile prof;
      struct lp_err err;
      struct merge_ctx ctx = { &store, inputs.v[i].weight, inputs.v[i].path };

      int bad = (map_set_size (maps)
		 ? lp_profile_open_lean (&prof, inputs.v[i].path, &err)
		 : lp_profile_open (&prof, inputs.v[i].path, &err)) < 0;
      if (!bad && (prof.variant & LP_VARIANT_DBG_CORRELATE)
	  && map_join (&prof, maps, &err) < 0)
	{
	  lp_profile_close (&prof);
	  bad = 1;
	}
      if (!bad && lp_store_merge_variant (&store, prof.variant, &err) < 0)
	{
	  lp_profile_close (&prof);
	  bad = 1;
	}
      if (bad)
	{
	  num_failed++;
	  if (!fail_all)
	    lp_fatal (inputs.v[i].path, "%s", err.msg);
	  lp_warning (inputs.v[i].path, "%s", err.msg);
	  continue;
	}
      lp_profile_emit (&prof, merge_sink, &ctx);
      lp_profile_close (&prof);
      num_ok++;
      /* A merged profile's anchors travel with it.  */
      char *input_anchors = xmalloc (strlen (inputs.v[i].path) + 9);
      sprintf (input_anchors, "%s.anchors", inputs.v[i].path);
      if (access (input_anchors, F_OK) == 0)
	anchors_set_add_file (anchors, input_anchors);
      free (input_anchors);
    }
  if (num_ok == 0)
    lp_fatal (NULL, "no profile can be merged");

  recs = lp_store_sorted (&store);
  write_output (output, text, recs, store.num_records, store.variant);
  free (recs);
  if (strcmp (output, "-") != 0)
    {
      /* An older OUTPUT.anchors would describe another profile.  */
      char *path = xmalloc (strlen (output) + 9);
      sprintf (path, "%s.anchors", output);
      if (anchors_set_size (anchors))
	anchors_set_write (anchors, path);
      else if (unlink (path) != 0 && errno != ENOENT)
	lp_fatal (path, "cannot remove the anchors of an older profile: %s",
		  strerror (errno));
      free (path);
    }
  anchors_set_free (anchors);
  map_set_free (maps);
  lp_store_free (&store);
  for (size_t i = 0; i < inputs.num; i++)
    free (inputs.v[i].path);
  free (inputs.v);
  return 0;
}
