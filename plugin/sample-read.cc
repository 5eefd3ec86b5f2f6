/* sample-read.cc: read a probe-based sample profile in LLVM's text
   format (doc/sample-format.md), as latepgo-profgen
   writes it and llvm-profdata merge --sample --text converts any other
   encoding to, for sample-use mode; the extensible binary format is
   read as its text form (sample-binary.cc).

   A function's profile may appear several times: at the top level (its
   own out-of-line copy) and nested as an inlinee of other functions (a
   copy GCC inlined late in the profiled build).  Our pass runs before
   GCC's IPA inliner, on the function's one body, so every instance with
   the function's checksum is summed into one table of counts by probe
   id: the same total an instrumented profile would give.  Each inlined
   instance also tells how often its call site ran (its head estimate),
   which its parent keeps by call probe id.  */

#include "gcc-common.h"
#include "sample-read.h"
#include "read-file.h"
#include "sample-binary.h"
#include "warning-options.h"
#include "arguments.h"
#include "names.h"
#include "probes.h"
#include "dump.h"

static hash_map<nofree_string_hash, lp_sample_function *> *samples;

/* Context-sensitive records ("[main:2 @ foo:8 @ bar]") summed by each
   suffix of their context of two frames or more ("foo:8 @ bar", and
   the whole): a copy of bar inlined into foo at call probe 8 takes the
   counts of the longest suffix of its own inline path that the
   profile has (lp_samples_context).  Keys: context_key.  */
static hash_map<nofree_string_hash, lp_sample_context *> *contexts;
/* Per function name: the call sites that calling contexts name in it
   ("main:2" of "[main:2 @ foo]"), for lp_samples_context_sites.
   Keys owned here.  */
static hash_map<nofree_string_hash, vec<lp_context_site> *> *context_sites;
/* Context records a pre-inliner marked to be inlined.  */
static int n_should_be_inlined;
/* Reading the profile of sample-contexts=: its context records count
   for the contexts only, the flat profile is sample-use='s.  */
static bool reading_contexts_only;
/* The profile of sample-contexts= comes from another perf session,
   often at another sampling rate (a call-stack session at 5 kHz beside
   a flat one at 100 kHz): its counts are on another scale, and a
   function that mixes both (its own blocks from the flat profile, its
   inlined copies from their contexts, sample-context.cc) would see
   its copies as far colder than its own code.  A first reading of
   that profile only sums its counts per function (of the same
   checksum as the flat profile's) and probe (scaling_contexts); over
   the probes both profiles counted, the ratio of the flat profile's
   sum to these is contexts_scale, by which the second reading
   multiplies the contexts' counts.  Only probes both counted: a
   context profile of IP samples also puts its callees' entries on
   their call-site lines (latepgo-profgen's add_missing_callers),
   where the flat profile has its inlined copies.  */
static bool scaling_contexts;
static double contexts_scale = 1.0;
/* A context with this share of its function's samples in the profile
   of sample-contexts= takes the flat profile's counts of the function
   (scale_instance).  */
#define DOMINANT_CONTEXT 0.9
typedef hash_map<int_hash<int, -1, -2>, gcov_type> probe_counts;
static hash_map<nofree_string_hash, probe_counts *> *contexts_cs_counts;
lp_sample_summary lp_samples_summary;

/* One function instance being read: its name, counts and (at its end)
   its checksum.  */
struct sample_instance
{
  char *name;
  int indent;			/* Of its body lines.  */
  auto_vec<std::pair<int, gcov_type> > counts;
  /* Call probe id -> head estimate of the inlinees at that call site. */
  auto_vec<std::pair<int, gcov_type> > inlined_calls;
  /* Call probe id -> the largest count in the inlinees there.  */
  auto_vec<std::pair<int, gcov_type> > inlined_max;
  auto_vec<lp_call_target> targets;	/* Names owned here.  */
  auto_vec<lp_size_count> sizes;
  auto_vec<lp_branch_obs> branches;
  int call_site;		/* In its parent, if an inlinee; else 0.  */
  /* Of a context-sensitive record: its context, outermost first (the
     last frame its function); else empty.  */
  auto_vec<lp_probe_frame> frames;
  /* Their names but the last, newly allocated.  */
  auto_vec<char *> frame_names;
  int first_sample;		/* Its "#first-sample" rank, 0 if none.  */
  unsigned HOST_WIDE_INT checksum;
  int attributes;		/* Its "!Attributes", LLVM's context bits.  */

  ~sample_instance ()
  {
    for (char *n : frame_names)
      free (n);
    for (lp_call_target &t : targets)
      free (CONST_CAST (char *, t.name));
  }
};

/* How often instance I was entered: the count of its lowest probe id
   (its entry block, or the first block that kept an instruction), as
   LLVM's getHeadSamplesEstimate; else that of its first inlined call
   site; -1 if it has neither.  */

static gcov_type
head_estimate (const sample_instance *i)
{
  int best = INT_MAX;
  gcov_type c = -1;
  for (auto &p : i->counts)
    if (p.first < best)
      {
	best = p.first;
	c = p.second;
      }
  if (c >= 0)
    return c;
  for (auto &p : i->inlined_calls)
    if (p.first < best)
      {
	best = p.first;
	c = p.second;
      }
  return c;
}

/* The key of the context FRAMES[0..N): each frame's GUID, and the
   call site of each frame after the first, in hex (the first frame's
   own call site is not part of it).  */

static char *
context_key (const lp_probe_frame *frames, unsigned n)
{
  char *key = XNEWVEC (char, n * 28 + 1);
  char *q = key;
  for (unsigned k = 0; k < n; k++)
    {
      if (k)
	q += sprintf (q, ":%x ", frames[k].call_site);
      q += sprintf (q, "%" PRIx64, (uint64_t) frames[k].guid);
    }
  *q = 0;
  return key;
}

/* How often context-sensitive instance I was entered: the count of its
   lowest probe that has one.  A context record has a line, 0, for
   every probe of its function in the profiled binary, also for one
   that owns no instruction (latepgo-profgen --csprof), which probe 1
   of an inlined copy often is, and that IP samples can never count.  */

static gcov_type
context_head (const sample_instance *i)
{
  gcov_type head = 0;
  int best = INT_MAX;
  for (auto &p : i->counts)
    if (p.second > 0 && p.first < best)
      {
	best = p.first;
	head = p.second;
      }
  return head;
}

/* Add the counts of context-sensitive instance I to each suffix of its
   context of two frames or more.  */

static void
add_context_suffixes (const sample_instance *i)
{
  unsigned n = i->frames.length ();
  for (unsigned k = 0; k + 2 <= n; k++)
    {
      char *key = context_key (i->frames.address () + k, n - k);
      bool existed;
      lp_sample_context *&c = contexts->get_or_insert (key, &existed);
      if (!existed)
	{
	  c = new lp_sample_context ();
	  c->checksum = i->checksum;
	  c->counts = new hash_map<int_hash<int, -1, -2>, gcov_type>;
	}
      else
	free (key);
      if (c->checksum != i->checksum)
	{
	  c->n_conflicts++;
	  continue;
	}
      c->n_records++;
      c->head += context_head (i);
      /* Only the whole context's mark says what a pre-inliner decided
	 for it.  */
      if (k == 0 && (i->attributes & LP_CONTEXT_SHOULD_BE_INLINED))
	{
	  c->should_be_inlined = true;
	  n_should_be_inlined++;
	}
      for (auto &p : i->counts)
	{
	  bool e;
	  gcov_type &slot = c->counts->get_or_insert (p.first, &e);
	  slot = (e ? slot : 0) + p.second;
	}
    }
}

/* The most frames a calling context may have.  Each record's context
   is summed into every suffix of it (add_context_suffixes), a key as
   long as the suffix, so a record costs time and memory quadratic in
   its depth: one context of 20000 frames (160 kilobytes of profile)
   kept GCC busy for minutes.  latepgo-profgen's contexts are as deep
   as the stacks perf unwound, a few dozen frames; GCC inlines far
   less deep than this.  */
#define LP_CONTEXT_MAX_FRAMES 256	/* As in parse_text's message.  */

/* The call site at P ("8" of "foo:8 @ bar"): its leading digits, or
   -1 unless they make a number from 1 to INT_MAX.  A call site is a
   probe id; -1 and -2 would also be the empty and deleted keys of the
   hash_maps that keep call sites (int_hash <int, -1, -2>).  */

static int
context_site (const char *p)
{
  long long v = 0;
  if (!ISDIGIT (*p))
    return -1;
  for (; ISDIGIT (*p); p++)
    {
      v = v * 10 + (*p - '0');
      if (v > INT_MAX)
	return -1;
    }
  return v >= 1 ? (int) v : -1;
}

/* The frames of context NAME (LEN bytes, "[main:2 @ foo:8 @ bar]")
   into *FRAMES; nothing for a name without brackets or " @ ".
   Returns false for a call site that is no probe id (context_site).  */

static bool
parse_context (const char *name, size_t len, vec<lp_probe_frame> *frames,
	       vec<char *> *names)
{
  if (len < 2 || name[0] != '[' || name[len - 1] != ']')
    return true;
  const char *p = name + 1, *end = name + len - 1;
  int site = 0;
  bool ok = true;
  while (p < end)
    {
      const char *q = p;
      while (q + 3 <= end && !(q[0] == ' ' && q[1] == '@' && q[2] == ' '))
	q++;
      if (q + 3 > end)
	q = end;
      /* "NAME:SITE", or the leaf's NAME.  */
      const char *colon = q;
      if (q != end)
	while (colon > p && colon[-1] != ':')
	  colon--;
      size_t name_len = q != end && colon > p ? colon - 1 - p : q - p;
      lp_probe_frame f = { lp_md5_low64 (p, name_len), site };
      frames->safe_push (f);
      if (q != end)
	names->safe_push (xstrndup (p, name_len));
      site = q != end && colon > p ? context_site (colon) : 0;
      if (site < 0)
	ok = false;
      p = q == end ? end : q + 3;
    }
  if (frames->length () < 2)
    {
      frames->truncate (0);
      for (char *n : *names)
	free (n);
      names->truncate (0);
    }
  return ok;
}

/* A context record's entry, to be counted at a call site on its path
   in the flat profile of the function there once every record is
   read: DEPTH frames above the record's function.  */
struct context_call
{
  char *caller;
  int site, depth;
  gcov_type head, max;
};
static auto_vec<context_call> context_calls;

/* Context-sensitive instance I is complete: note how often it was
   entered (its head estimate) and its largest count, for each call
   site on its path (context_calls), as note_inlinee does for a nested
   inlinee.  A context "[main:21 @ work:5 @ work.part.0]" says that
   main's call 21 ran too: work may have no record of its own there
   (its copy may hold no probe that owns an instruction).  */

/* Context-sensitive instance I names call site FRAMES[K + 1].call_site
   in function FRAME_NAMES[K]: count it in context_sites, with I's
   context as the example of the first one there.  */

static void
note_context_site (const sample_instance *i, unsigned k)
{
  const char *caller = i->frame_names[k];
  int site = i->frames[k + 1].call_site;
  vec<lp_context_site> **v = context_sites->get (caller);
  if (!v)
    {
      v = &context_sites->get_or_insert (xstrdup (caller));
      *v = new vec<lp_context_site> ();
    }
  for (lp_context_site &s : **v)
    if (s.site == site)
      {
	s.n_contexts++;
	return;
      }
  /* "[main:2 @ foo:8 @ bar]" again from the frames.  */
  obstack ob;
  gcc_obstack_init (&ob);
  obstack_1grow (&ob, '[');
  unsigned n = i->frames.length ();
  for (unsigned j = 0; j + 1 < n; j++)
    {
      char num[24];
      snprintf (num, sizeof num, ":%d @ ", i->frames[j + 1].call_site);
      obstack_grow (&ob, i->frame_names[j], strlen (i->frame_names[j]));
      obstack_grow (&ob, num, strlen (num));
    }
  obstack_grow (&ob, i->name, strlen (i->name));
  obstack_grow0 (&ob, "]", 1);
  lp_context_site s = { site, 1,
			xstrdup ((const char *) obstack_finish (&ob)) };
  obstack_free (&ob, NULL);
  (*v)->safe_push (s);
}

static void
note_context_call (sample_instance *i)
{
  gcov_type head = context_head (i);
  gcov_type max = 0;
  for (auto &p : i->counts)
    max = MAX (max, p.second);
  unsigned n = i->frames.length ();
  for (unsigned k = 0; k + 1 < n; k++)
    note_context_site (i, k);
  for (unsigned k = 0; k + 1 < n; k++)
    {
      context_call c = { i->frame_names[k], i->frames[k + 1].call_site,
			 (int) (n - 1 - k), head, max };
      i->frame_names[k] = NULL;
      context_calls.safe_push (c);
    }
}

/* Count the entries of context records at the call sites on their
   paths in those functions' flat profiles (lp_sample_function's
   context_calls and inlined_max): per call site, the records right
   below it add up (each is another context of the same call), and
   of the sums of records at different depths below it the largest
   counts (a deeper record's entries were those of the frames above it
   too).  A function without a record of its own has nothing to
   annotate.  */

static void
apply_context_calls (void)
{
  context_calls.qsort ([] (const void *pa, const void *pb)
		       {
			 const context_call *a = (const context_call *) pa;
			 const context_call *b = (const context_call *) pb;
			 int c = strcmp (a->caller, b->caller);
			 if (c)
			   return c;
			 if (a->site != b->site)
			   return a->site < b->site ? -1 : 1;
			 return a->depth - b->depth;
		       });
  for (unsigned i = 0; i < context_calls.length (); )
    {
      context_call &c = context_calls[i];
      lp_sample_function **f = samples->get (c.caller);
      gcov_type best = 0, max = 0;
      unsigned j = i;
      while (j < context_calls.length ()
	     && strcmp (context_calls[j].caller, c.caller) == 0
	     && context_calls[j].site == c.site)
	{
	  gcov_type sum = 0;
	  int depth = context_calls[j].depth;
	  for (; j < context_calls.length ()
	       && strcmp (context_calls[j].caller, c.caller) == 0
	       && context_calls[j].site == c.site
	       && context_calls[j].depth == depth; j++)
	    {
	      sum += context_calls[j].head;
	      max = MAX (max, context_calls[j].max);
	    }
	  best = MAX (best, sum);
	}
      if (f)
	{
	  if (best > 0)
	    (*f)->context_calls->put (c.site, best);
	  bool e;
	  gcov_type &m = (*f)->inlined_max->get_or_insert (c.site, &e);
	  m = e ? MAX (m, max) : max;
	}
      for (; i < j; i++)
	free (context_calls[i].caller);
    }
  context_calls.release ();
}

/* Scaling's first reading of the sample-contexts= profile: add I's
   counts to its function's in contexts_cs_counts.  */

static void
sum_for_scale (sample_instance *i)
{
  lp_sample_function **f = samples->get (i->name);
  if (f && (*f)->checksum == i->checksum)
    {
      bool existed;
      probe_counts *&pc = contexts_cs_counts->get_or_insert (i->name,
							     &existed);
      if (!existed)
	{
	  pc = new probe_counts;
	  i->name = NULL;	/* Owned by contexts_cs_counts now.  */
	}
      for (auto &c : i->counts)
	{
	  bool e;
	  gcov_type &slot = pc->get_or_insert (c.first, &e);
	  slot = (e ? slot : 0) + c.second;
	}
    }
  free (i->name);
  i->name = NULL;
}

/* contexts_scale from contexts_cs_counts.  */

static void
compute_contexts_scale (void)
{
  double flat = 0, cs = 0;
  for (auto fc : *contexts_cs_counts)
    {
      lp_sample_function **f = samples->get (fc.first);
      for (auto c : *fc.second)
	{
	  gcov_type *n = (*f)->counts->get (c.first);
	  if (n && *n > 0 && c.second > 0)
	    {
	      flat += *n;
	      cs += c.second;
	    }
	}
    }
  if (flat > 0 && cs > 0)
    contexts_scale = flat / cs;
  if (lp_dump_stream ())
    fprintf (lp_dump_stream (), "sample-contexts scale=%.6g (flat %.0f, "
	     "contexts %.0f)\n", contexts_scale, flat, cs);
}

/* Free contexts_cs_counts.  */

static void
free_contexts_cs_counts (void)
{
  for (auto fc : *contexts_cs_counts)
    {
      delete fc.second;
      free (CONST_CAST (char *, fc.first));
    }
  delete contexts_cs_counts;
  contexts_cs_counts = NULL;
}

/* Put I's counts on the flat profile's scale (at least 1 for a count
   that was not 0: the block ran).  When I holds nearly all of its
   function's samples in this profile (DOMINANT_CONTEXT), a probe both
   profiles counted gets the flat profile's count split by I's share
   of the contexts' sum for it, nearly all of it: the flat profile's
   session has far more samples (the bench's: 100 kHz against 5 kHz),
   and such a function (zlib's longest_match, inlined into
   deflate_slow) got its context's noisier counts in its copy, where
   GCC's own inlining would have given it the flat profile's: zlib ran
   1.7% and 2.1% more instructions with contexts than without.  Split
   so for every context, stl ran 1.1% and 1.3% more than scaled (a
   copy among several lost its own context's shape).  Other counts are
   multiplied by contexts_scale.  */

static void
scale_instance (sample_instance *i)
{
  auto scale = [] (gcov_type c) -> gcov_type
    {
      if (c <= 0)
	return c;
      double v = c * contexts_scale;
      return v < 1 ? 1 : v >= (double) (INTTYPE_MAXIMUM (gcov_type) / 4)
	     ? INTTYPE_MAXIMUM (gcov_type) / 4 : (gcov_type) v;
    };
  lp_sample_function **f = samples->get (i->name);
  probe_counts **sums = contexts_cs_counts->get (i->name);
  bool split = f && sums && (*f)->checksum == i->checksum;
  if (split)
    {
      /* Only a context that holds nearly all of its function's
	 samples: a copy among several keeps its own context's shape.  */
      double mine = 0, all = 0;
      for (auto &c : i->counts)
	mine += MAX (c.second, 0);
      for (auto c : **sums)
	all += MAX (c.second, 0);
      split = mine >= DOMINANT_CONTEXT * all;
    }
  for (auto &c : i->counts)
    {
      gcov_type *flat = split ? (*f)->counts->get (c.first) : NULL;
      gcov_type *sum = split ? (*sums)->get (c.first) : NULL;
      if (flat && *flat > 0 && sum && *sum > 0 && c.second > 0)
	c.second = MAX ((gcov_type) ((double) *flat * c.second / *sum), 1);
      else
	c.second = scale (c.second);
    }
  for (auto &c : i->inlined_calls)
    c.second = scale (c.second);
  for (auto &c : i->inlined_max)
    c.second = scale (c.second);
}

/* Add the finished instance I into the table; instances whose checksum
   disagrees with the first one seen are counted as conflicts.  */

static void
merge_instance (sample_instance *i)
{
  if (scaling_contexts)
    {
      sum_for_scale (i);
      return;
    }
  if (reading_contexts_only)
    scale_instance (i);
  if (!i->frames.is_empty ())
    {
      add_context_suffixes (i);
      note_context_call (i);
    }
  /* A profile of sample-contexts= gives contexts only.  */
  if (reading_contexts_only)
    return;
  bool existed;
  lp_sample_function *&f = samples->get_or_insert (i->name, &existed);
  if (!existed)
    {
      f = new lp_sample_function ();
      f->checksum = i->checksum;
      f->counts = new hash_map<int_hash<int, -1, -2>, gcov_type>;
      f->inlined_calls = new hash_map<int_hash<int, -1, -2>, gcov_type>;
      f->inlined_max = new hash_map<int_hash<int, -1, -2>, gcov_type>;
      f->context_calls = new hash_map<int_hash<int, -1, -2>, gcov_type>;
    }
  else
    free (i->name);
  i->name = NULL;
  if (f->checksum != i->checksum)
    {
      f->n_conflicts++;
      return;
    }
  f->n_instances++;
  if (i->first_sample
      && (!f->first_sample || i->first_sample < f->first_sample))
    f->first_sample = i->first_sample;
  /* A context a pre-inliner marked to be inlined is the samples of
     that inlined copy (sample-inline.cc inlines it, sample-context.cc
     annotates the copy), not of the function's own body: its base
     profile and the contexts not inlined are (llvm-profgen's
     pre-inliner folded those together).  */
  if (i->attributes & LP_CONTEXT_SHOULD_BE_INLINED)
    return;
  for (auto &c : i->counts)
    {
      bool e;
      gcov_type &slot = f->counts->get_or_insert (c.first, &e);
      slot = (e ? slot : 0) + c.second;
      if (slot > lp_samples_summary.max_count)
	lp_samples_summary.max_count = slot;
    }
  for (auto &c : i->inlined_calls)
    {
      bool e;
      gcov_type &slot = f->inlined_calls->get_or_insert (c.first, &e);
      slot = (e ? slot : 0) + c.second;
    }
  for (auto &c : i->inlined_max)
    {
      bool e;
      gcov_type &slot = f->inlined_max->get_or_insert (c.first, &e);
      slot = e ? MAX (slot, c.second) : c.second;
    }
  for (lp_size_count &z : i->sizes)
    {
      bool found = false;
      for (lp_size_count &u : f->sizes)
	if (u.id == z.id && u.size == z.size)
	  {
	    u.count += z.count;
	    found = true;
	    break;
	  }
      if (!found)
	f->sizes.safe_push (z);
    }
  for (lp_branch_obs &b : i->branches)
    f->branches.safe_push (b);
  for (lp_call_target &t : i->targets)
    {
      bool found = false;
      for (lp_call_target &u : f->targets)
	if (u.id == t.id && strcmp (u.name, t.name) == 0)
	  {
	    u.count += t.count;
	    found = true;
	    break;
	  }
      if (!found)
	{
	  f->targets.safe_push (t);
	  t.name = NULL;	/* Now owned by F.  */
	}
    }
}

/* Instance I, an inlinee, is complete: its head estimate becomes a
   count of its call site in its parent, the top of STACK.  */

static void
note_inlinee (vec<sample_instance *> *stack, const sample_instance *i)
{
  if (stack->is_empty () || !i->call_site)
    return;
  gcov_type head = head_estimate (i);
  if (head >= 0)
    stack->last ()->inlined_calls.safe_push (std::make_pair (i->call_site,
							     head));
  gcov_type max = 0;
  for (auto &p : i->counts)
    max = MAX (max, p.second);
  for (auto &p : i->inlined_max)
    max = MAX (max, p.second);
  stack->last ()->inlined_max.safe_push (std::make_pair (i->call_site, max));
}

/* COUNT as a gcov_type that sums of many cannot overflow.  */

static gcov_type
clamp_count (unsigned HOST_WIDE_INT count)
{
  return (gcov_type) MIN (count, (unsigned HOST_WIDE_INT)
				 INTTYPE_MAXIMUM (gcov_type) / 4);
}

static bool parse_number (const char **, unsigned HOST_WIDE_INT *);

/* Parse the memop sizes "#sizes ID: SIZE:COUNT ..." at P (a comment
   line to LLVM, written by latepgo-profgen after the body line of call
   probe ID) into SIZES.  Returns false if malformed.  */

static bool
parse_sizes (const char *p, vec<lp_size_count> *sizes)
{
  unsigned HOST_WIDE_INT id;
  p += strlen ("#sizes ");
  if (!parse_number (&p, &id) || id == 0 || id > INT_MAX || *p++ != ':')
    return false;
  while (*p == ' ')
    {
      p++;
      unsigned HOST_WIDE_INT size, count;
      if (!parse_number (&p, &size) || *p++ != ':'
	  || !parse_number (&p, &count))
	return false;
      lp_size_count z = { (int) id, size, clamp_count (count) };
      sizes->safe_push (z);
    }
  return *p == 0;
}

/* Parse a comma-separated list of probe ids at *P into IDS (up to
   LP_BRANCH_MAX_PROBES), advancing *P; return their number, 0 if
   malformed.  */

static int
parse_probe_list (const char **p, int *ids)
{
  int n = 0;
  for (;;)
    {
      unsigned HOST_WIDE_INT id;
      if (n == LP_BRANCH_MAX_PROBES || !parse_number (p, &id) || id == 0
	  || id > INT_MAX)
	return 0;
      ids[n++] = (int) id;
      if (**p != ',')
	return n;
      ++*p;
    }
}

/* Parse the branch directions "#branch SRC: TO:COUNT TO:COUNT" at P (a
   comment line to LLVM, written by latepgo-profgen after a function's
   body lines), each probe list comma-separated, into BRANCHES.
   Returns false if malformed.  */

static bool
parse_branch (const char *p, vec<lp_branch_obs> *branches)
{
  lp_branch_obs b;
  memset (&b, 0, sizeof b);
  p += strlen ("#branch ");
  b.n_src = parse_probe_list (&p, b.src);
  if (!b.n_src || *p++ != ':')
    return false;
  for (int k = 0; k < 2; k++)
    {
      unsigned HOST_WIDE_INT count;
      if (*p++ != ' ')
	return false;
      b.n_to[k] = parse_probe_list (&p, b.to[k]);
      if (!b.n_to[k] || *p++ != ':' || !parse_number (&p, &count))
	return false;
      b.count[k] = clamp_count (count);
    }
  if (*p)
    return false;
  branches->safe_push (b);
  return true;
}

/* Parse the call targets " NAME:COUNT ..." at P (the rest of the body
   line of probe ID) into TARGETS; false if malformed.  Names may
   contain ':' (static functions are "FILE:NAME"): the count follows
   the last one.  */

static bool
parse_targets (const char *p, int id, vec<lp_call_target> *targets)
{
  while (*p)
    {
      while (*p == ' ')
	p++;
      if (!*p)
	break;
      const char *end = strchr (p, ' ');
      if (!end)
	end = p + strlen (p);
      const char *colon = NULL;
      for (const char *c = p; c < end; c++)
	if (*c == ':')
	  colon = c;
      unsigned HOST_WIDE_INT n;
      const char *q = colon ? colon + 1 : NULL;
      if (!colon || colon == p || !parse_number (&q, &n) || q != end)
	return false;
      lp_call_target t = { id, xstrndup (p, colon - p), clamp_count (n) };
      targets->safe_push (t);
      p = end;
    }
  return true;
}

/* Parse a decimal number at *P, advancing it; false if none.  */

static bool
parse_number (const char **p, unsigned HOST_WIDE_INT *v)
{
  const char *s = *p;
  if (!ISDIGIT (*s))
    return false;
  unsigned HOST_WIDE_INT x = 0;
  for (; ISDIGIT (*s); s++)
    {
      unsigned HOST_WIDE_INT d = *s - '0';
      if (x > (HOST_WIDE_INT_M1U - d) / 10)
	return false;
      x = x * 10 + d;
    }
  *p = s;
  *v = x;
  return true;
}

/* Whether LINE (of LEN bytes, no newline) ends in ":TOTAL"; set
   *NAME_LEN to the length before it.  Names may contain ':'.  */

static bool
split_name_total (const char *line, size_t len, size_t *name_len)
{
  size_t k = len;
  while (k > 0 && ISDIGIT (line[k - 1]))
    k--;
  if (k == len || k < 2 || line[k - 1] != ':')
    return false;
  *name_len = k - 1;
  return true;
}

/* The function name of the header name NAME (LEN bytes), newly
   allocated.  A context-sensitive profile (latepgo-profgen --csprof,
   llvm-profgen's CSSPGO output) names each record by its calling
   context, "[main:2 @ foo:8 @ bar]": its counts are those of the
   innermost frame, bar, in that context.  sample-use does not apply
   contexts yet, so each record counts for its function as an
   out-of-line copy does: the contexts of a function add up to its
   flat profile.  */

static char *
context_leaf (const char *name, size_t len)
{
  if (len < 2 || name[0] != '[' || name[len - 1] != ']')
    return xstrndup (name, len);
  const char *start = name + 1, *end = name + len - 1;
  for (const char *p = start; p + 3 <= end; p++)
    if (p[0] == ' ' && p[1] == '@' && p[2] == ' ')
      start = p + 3;
  return xstrndup (start, end - start);
}

/* Parse the text in BUF (NUL-terminated); NULL on success, else what is
   wrong, with *LINENO the line.  */

static const char *
parse_text (char *buf, int *lineno)
{
  auto_vec<sample_instance *> stack;
  const char *err = NULL;
  *lineno = 0;

  for (char *line = buf; line && *line; )
    {
      char *nl = strchr (line, '\n');
      if (nl)
	*nl = 0;
      ++*lineno;
      size_t len = strlen (line);
      if (len && line[len - 1] == '\r')
	line[--len] = 0;
      int indent = 0;
      while (line[indent] == ' ')
	indent++;
      const char *p = line + indent;
      char *next = nl ? nl + 1 : NULL;

      if (indent == 0 && startswith (p, "#sizes "))
	{
	  /* It follows a body line of the innermost open instance.  */
	  if (stack.is_empty () || !parse_sizes (p, &stack.last ()->sizes))
	    {
	      err = "bad #sizes line (expected #sizes ID: SIZE:COUNT ... "
		    "after a function's body line)";
	      break;
	    }
	  line = next;
	  continue;
	}
      if (indent == 0 && startswith (p, "#branch "))
	{
	  /* It follows the body lines of the innermost open instance.  */
	  if (stack.is_empty ()
	      || !parse_branch (p, &stack.last ()->branches))
	    {
	      err = "bad #branch line (expected #branch ID[,ID...]: "
		    "ID[,ID...]:COUNT ID[,ID...]:COUNT after a function's "
		    "body lines)";
	      break;
	    }
	  line = next;
	  continue;
	}
      if (indent == 0 && startswith (p, "#first-sample "))
	{
	  /* Right after a function's header line.  */
	  unsigned HOST_WIDE_INT rank;
	  const char *q = p + strlen ("#first-sample ");
	  if (stack.length () != 1 || !stack[0]->counts.is_empty ()
	      || !parse_number (&q, &rank) || *q || rank == 0
	      || rank > INT_MAX)
	    {
	      err = "bad #first-sample line (expected #first-sample RANK "
		    "after a function's header line)";
	      break;
	    }
	  stack[0]->first_sample = (int) rank;
	  line = next;
	  continue;
	}
      if (*p == 0 || *p == '#')
	{
	  line = next;
	  continue;
	}
      if (*p == '\t')
	{
	  err = "tabs are not allowed for indentation";
	  break;
	}

      /* Close the instances this line is not part of.  */
      while (!stack.is_empty () && indent < stack.last ()->indent)
	{
	  sample_instance *i = stack.pop ();
	  if (!i->checksum)
	    {
	      err = "function without !CFGChecksum (not a probe-based "
		    "profile; latepgo reads profiles of "
		    "-fplugin-arg-latepgo-probes builds)";
	      delete i;
	      goto out;
	    }
	  note_inlinee (&stack, i);
	  merge_instance (i);
	  delete i;
	}

      if (indent == 0)
	{
	  /* NAME:TOTAL:HEAD.  */
	  size_t name_len, name2;
	  if (!split_name_total (line, len, &name_len)
	      || !split_name_total (line, name_len, &name2) || name2 == 0)
	    {
	      err = "expected a function header NAME:TOTAL:HEAD";
	      break;
	    }
	  sample_instance *i = new sample_instance ();
	  i->name = context_leaf (line, name2);
	  bool sites_ok = parse_context (line, name2, &i->frames,
					 &i->frame_names);
	  i->indent = 1;
	  i->call_site = 0;
	  i->checksum = 0;
	  stack.safe_push (i);
	  if (!sites_ok)
	    {
	      err = "calling context with a call site that is no probe id "
		    "(expected a number from 1 to 2147483647 after each "
		    "\"NAME:\"; latepgo reads profiles of "
		    "-fplugin-arg-latepgo-probes builds, not of line "
		    "offsets)";
	      break;
	    }
	  if (i->frames.length () > LP_CONTEXT_MAX_FRAMES)
	    {
	      /* The number is LP_CONTEXT_MAX_FRAMES.  */
	      err = "calling context of more than 256 frames";
	      break;
	    }
	  line = next;
	  continue;
	}

      if (stack.is_empty () || indent != stack.last ()->indent)
	{
	  err = "unexpected indentation";
	  break;
	}
      sample_instance *cur = stack.last ();

      if (*p == '!')
	{
	  unsigned HOST_WIDE_INT v;
	  if (startswith (p, "!CFGChecksum: "))
	    {
	      p += strlen ("!CFGChecksum: ");
	      if (!parse_number (&p, &v) || *p || v == 0)
		{
		  err = "bad !CFGChecksum (a nonzero decimal number)";
		  break;
		}
	      cur->checksum = v;
	    }
	  else if (startswith (p, "!Attributes: "))
	    {
	      p += strlen ("!Attributes: ");
	      if (!parse_number (&p, &v) || *p)
		{
		  err = "bad !Attributes (a decimal number)";
		  break;
		}
	      cur->attributes = (int) (v & 0xffff);
	    }
	  /* Other metadata does not matter here.  */
	  line = next;
	  continue;
	}

      /* ID: COUNT [TARGET:COUNT ...]  or  ID: NAME:TOTAL (an inlinee).  */
      unsigned HOST_WIDE_INT id, count;
      if (!parse_number (&p, &id) || id == 0 || id > INT_MAX)
	{
	  err = "expected a probe id";
	  break;
	}
      if (*p == '.')
	{
	  err = "line offsets with discriminators (a line-based AutoFDO "
		"profile, not a probe-based one)";
	  break;
	}
      if (p[0] != ':' || p[1] != ' ')
	{
	  err = "expected ': ' after the probe id";
	  break;
	}
      p += 2;
      const char *q = p;
      if (parse_number (&q, &count) && (*q == 0 || *q == ' '))
	{
	  cur->counts.safe_push (std::make_pair ((int) id, clamp_count (count)));
	  if (!parse_targets (q, (int) id, &cur->targets))
	    {
	      err = "expected call targets NAME:COUNT after the count";
	      break;
	    }
	  line = next;
	  continue;
	}
      size_t name_len;
      if (!split_name_total (p, strlen (p), &name_len) || name_len == 0)
	{
	  err = "expected a count or an inlined function NAME:TOTAL";
	  break;
	}
      sample_instance *i = new sample_instance ();
      i->name = xstrndup (p, name_len);
      i->indent = indent + 1;
      i->call_site = (int) id;
      i->checksum = 0;
      stack.safe_push (i);
      line = next;
    }

  while (!err && !stack.is_empty ())
    {
      sample_instance *i = stack.pop ();
      if (!i->checksum)
	err = "function without !CFGChecksum (not a probe-based "
	      "profile; latepgo reads profiles of "
	      "-fplugin-arg-latepgo-probes builds)";
      else
	{
	  note_inlinee (&stack, i);
	  merge_instance (i);
	}
      delete i;
    }
 out:
  while (!stack.is_empty ())
    {
      sample_instance *i = stack.pop ();
      free (i->name);
      delete i;
    }
  return err;
}

/* lp_samples_summary.hot_count, from every function's summed probe
   counts: sorted from the largest, the count at which their running sum
   reaches 99% of the total (ProfileSummaryBuilder's 990000 cutoff).  */

static void
compute_hot_count (void)
{
  auto_vec<gcov_type> all;
  gcov_type total = 0;
  for (auto it = samples->begin (); it != samples->end (); ++it)
    for (auto c = (*it).second->counts->begin ();
	 c != (*it).second->counts->end (); ++c)
      if ((*c).second > 0)
	{
	  all.safe_push ((*c).second);
	  total += (*c).second;
	}
  all.qsort ([] (const void *a, const void *b)
	     {
	       gcov_type x = *(const gcov_type *) a;
	       gcov_type y = *(const gcov_type *) b;
	       return x > y ? -1 : x < y;
	     });
  gcov_type sum = 0;
  lp_samples_summary.hot_count = 0;
  for (gcov_type c : all)
    {
      sum += c;
      lp_samples_summary.hot_count = c;
      if ((double) sum >= 0.99 * (double) total)
	break;
    }
}

/* Read the sample profile PATH, text or extensible binary, into the
   tables (only into the contexts while reading_contexts_only).
   Returns false after reporting an error.  */

static bool
load_profile (const char *path)
{
  size_t size;
  char *buf = (char *) lp_read_file (path, "sample profile", &size);
  if (!buf)
    return false;
  if (size == 0)
    {
      error ("latepgo: sample profile %qs is empty", path);
      XDELETEVEC (buf);
      return false;
    }
  /* The extensible binary format is read as its text form.  */
  bool binary = lp_sample_is_binary (buf, size);
  if (binary)
    {
      char *text = lp_sample_binary_to_text (path, buf, size, &size);
      XDELETEVEC (buf);
      if (!text)
	return false;
      buf = text;
    }
  if (memchr (buf, 0, size) || (unsigned char) buf[0] == 0xff)
    {
      error ("latepgo: sample profile %qs is in neither the text nor the "
	     "extensible binary format; convert it with "
	     "%<llvm-profdata merge --sample --text%>", path);
      XDELETEVEC (buf);
      return false;
    }
  int lineno;
  const char *err = parse_text (buf, &lineno);
  XDELETEVEC (buf);
  apply_context_calls ();
  if (err)
    {
      error ("latepgo: sample profile %qs, line %d%s: %s", path, lineno,
	     binary ? " of its text form" : "", err);
      return false;
    }
  return true;
}

/* Load the sample profile PATH, and the contexts of the profile of
   sample-contexts= if given.  Returns false after reporting an
   error.  */

bool
lp_samples_load (const char *path)
{
  samples = new hash_map<nofree_string_hash, lp_sample_function *>;
  contexts = new hash_map<nofree_string_hash, lp_sample_context *>;
  context_sites = new hash_map<nofree_string_hash, vec<lp_context_site> *>;
  if (!load_profile (path))
    return false;
  if (samples->is_empty ())
    warning (lp_warning_option (LP_WARN_EMPTY_PROFILE),
	     "latepgo: sample profile %qs has no functions", path);
  compute_hot_count ();
  if (const char *cpath = latepgo_opts.sample_contexts_path)
    {
      reading_contexts_only = true;
      scaling_contexts = true;
      contexts_cs_counts = new hash_map<nofree_string_hash, probe_counts *>;
      bool ok = load_profile (cpath);
      scaling_contexts = false;
      compute_contexts_scale ();
      if (ok)
	ok = load_profile (cpath);
      free_contexts_cs_counts ();
      reading_contexts_only = false;
      if (!ok)
	return false;
      if (contexts->is_empty ())
	warning (lp_warning_option (LP_WARN_EMPTY_PROFILE),
		 "latepgo: sample profile %qs has no calling contexts",
		 cpath);
    }
  return true;
}

/* The call sites that calling contexts name in the function named
   NAME, or NULL if none does.  */

const vec<lp_context_site> *
lp_samples_context_sites (const char *name)
{
  vec<lp_context_site> **v = context_sites ? context_sites->get (name) : NULL;
  return v ? *v : NULL;
}

/* The profile of the function named NAME, or NULL.  */

const lp_sample_function *
lp_samples_lookup (const char *name)
{
  lp_sample_function **f = samples ? samples->get (name) : NULL;
  return f ? *f : NULL;
}

/* Whether the profile has context-sensitive records.  */

bool
lp_samples_have_contexts (void)
{
  return contexts && !contexts->is_empty ();
}

/* The counts of the longest suffix of the inline path FRAMES[0..N)
   (outermost first, the last frame the probes' function) of two
   frames or more that the profile has, or NULL; *LEN is set to its
   number of frames.  */

const lp_sample_context *
lp_samples_context (const lp_probe_frame *frames, unsigned n, unsigned *len)
{
  if (!contexts)
    return NULL;
  for (unsigned k = 0; k + 2 <= n; k++)
    {
      char *key = context_key (frames + k, n - k);
      lp_sample_context **c = contexts->get (key);
      free (key);
      if (c)
	{
	  *len = n - k;
	  return *c;
	}
    }
  return NULL;
}

/* The profile of the function whose GUID (MD5 of its profile name) is
   GUID, or NULL.  */

const lp_sample_function *
lp_samples_lookup_guid (unsigned HOST_WIDE_INT guid)
{
  static hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>,
		  lp_sample_function *> *by_guid;
  if (!samples)
    return NULL;
  if (!by_guid)
    {
      by_guid = new hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>,
			     lp_sample_function *>;
      for (auto it = samples->begin (); it != samples->end (); ++it)
	{
	  unsigned HOST_WIDE_INT g = lp_md5_low64 ((*it).first,
						   strlen ((*it).first));
	  if (g > 1)
	    by_guid->put (g, (*it).second);
	}
    }
  lp_sample_function **f = by_guid->get (guid);
  return f ? *f : NULL;
}

/* Whether a pre-inliner marked any context of the profile to be
   inlined (!Attributes with LP_CONTEXT_SHOULD_BE_INLINED).  */

bool
lp_samples_preinlined (void)
{
  return n_should_be_inlined > 0;
}

/* Whether context C, whose last frame is the function with GUID, fits
   this compilation: the function's CFG matched its flat profile's
   checksum, and C's records have that checksum.  A stale context is
   not used, as a stale function keeps static estimates.  */

bool
lp_samples_context_usable (const lp_sample_context *c,
			   unsigned HOST_WIDE_INT guid)
{
  const lp_sample_function *sf = lp_samples_lookup_guid (guid);
  return sf && sf->matched && sf->checksum == c->checksum;
}
