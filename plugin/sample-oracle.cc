/* sample-oracle.cc: write-sample=FILE.  In a build with use=PROFILE and
   probes, write the exact counts of the instrumented profile as the
   probe-based sample profile a perfect sampler would have given for
   the probe build: every probe's count is the execution count of its
   block, every call probe's that of its call, an indirect call's
   callees and a memop call's sizes are those the value profiles
   counted, and each function's first-run rank is its first-run time.
   The same format as latepgo-profgen's (doc/sample-format.md), read by
   the same sample-use path, so bench/samplepgo.py can tell what
   sampling loses (sampled profile against this one) from what
   sample-use itself loses (this one against use=); doc/benchmarks.md.

   The probes are those of a probe-only build (pass.cc places them on
   the plain CFG before the use build splits blocks after calls), so
   the profile's checksums and ids match that build.  A probe's count
   is the count of the block its marker sits in when the function has
   been annotated: a block split later keeps its marker in its first
   part, which runs as often as the whole block was entered, and a
   call probe's marker sits right before its call.  Functions that
   never ran are left out, as a sampler leaves them out; code inlined
   before the pass is part of its caller, as in the probe build, and
   nothing is nested: there is no late inlining yet.  */

#include "gcc-common.h"
#include "sample-oracle.h"
#include "arguments.h"
#include "names.h"
#include "probes.h"
#include "profile-read.h"

namespace {

/* What the value profiles said of one call, noted while use mode
   annotated it: an indirect call's callee (MD5 of its profile name)
   or a memop size, and how often.  */
struct call_value
{
  gimple *stmt;
  int id;			/* Its call probe, 0 if not known yet.  */
  bool icall;
  unsigned HOST_WIDE_INT value;
  gcov_type count;
};

vec<call_value> values;

/* The profile being written.  */
vec<char> text;

void
append (const char *fmt, ...) ATTRIBUTE_PRINTF_1;

void
append (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = xvasprintf (fmt, ap);
  va_end (ap);
  for (char *p = s; *p; p++)
    text.safe_push (*p);
  free (s);
}

/* The call probe right before STMT, or 0.  */

int
call_probe_before (gimple *stmt)
{
  if (!gimple_bb (stmt))
    return 0;
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_prev (&gsi);
  bool call = false;
  int id = gsi_end_p (gsi) ? 0 : lp_probe_marker_id (gsi_stmt (gsi), &call);
  return call ? id : 0;
}

void
note (gimple *stmt, bool icall, unsigned HOST_WIDE_INT value,
      gcov_type count)
{
  if (!latepgo_opts.write_sample_path || count <= 0)
    return;
  call_value v = { stmt, call_probe_before (stmt), icall, value, count };
  values.safe_push (v);
}

/* Sort call values by probe id, then callees by count (most first),
   then value: the order latepgo-profgen writes.  */

int
compare_values (const void *pa, const void *pb)
{
  const call_value *a = (const call_value *) pa;
  const call_value *b = (const call_value *) pb;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return a->value < b->value ? -1 : a->value > b->value;
}

} // anon namespace

void
lp_oracle_note_icall (gimple *stmt, unsigned HOST_WIDE_INT target_hash,
		      gcov_type count)
{
  note (stmt, true, target_hash, count);
}

void
lp_oracle_note_size (gimple *stmt, unsigned HOST_WIDE_INT size,
		     gcov_type count)
{
  note (stmt, false, size, count);
}

/* After the current function (profile NAME, probe CHECKSUM) was
   annotated and its probes placed: append its profile.  */

void
lp_oracle_function (cgraph_node *node, const char *name,
		    unsigned HOST_WIDE_INT checksum)
{
  if (!latepgo_opts.write_sample_path)
    return;
  hash_map<int_hash<int, -1, -2>, gcov_type> counts;
  int max_id = 0;
  bool ran = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	bool call;
	int id = lp_probe_marker_id (gsi_stmt (gsi), &call);
	if (!id)
	  continue;
	profile_count ipa = bb->count.ipa ();
	gcov_type c = ipa.initialized_p () ? ipa.to_gcov_type () : 0;
	gcov_type &slot = counts.get_or_insert (id);
	slot = MAX (slot, c);
	max_id = MAX (max_id, id);
	ran |= c > 0;
	/* A value noted before the probes went in (no-exact-calls).  */
	gimple_stmt_iterator next = gsi;
	gsi_next_nondebug (&next);
	if (call && !gsi_end_p (next))
	  for (call_value &v : values)
	    if (!v.id && v.stmt == gsi_stmt (next))
	      v.id = id;
      }
  if (ran)
    {
      values.qsort (compare_values);
      gcov_type total = 0;
      for (int id = 1; id <= max_id; id++)
	if (gcov_type *c = counts.get (id))
	  total += *c;
      gcov_type *head = counts.get (1);
      append ("%s:%" PRId64 ":%" PRId64 "\n", name, (int64_t) total,
	      (int64_t) (head ? *head : 0));
      if (node->tp_first_run > 0)
	append ("#first-sample %d\n", node->tp_first_run);
      for (int id = 1; id <= max_id; id++)
	{
	  gcov_type *c = counts.get (id);
	  if (!c)
	    continue;
	  append (" %d: %" PRId64, id, (int64_t) *c);
	  for (const call_value &v : values)
	    if (v.id == id && v.icall)
	      {
		const char *callee = lp_profile_name_of_hash (v.value);
		/* A callee the profile has no name for still counts,
		   under its hash: sample-use takes only callees it finds
		   in this file, and counts the others in the total.  */
		if (callee)
		  append (" %s:%" PRId64, callee, (int64_t) v.count);
		else
		  append (" %016" PRIx64 ":%" PRId64, (uint64_t) v.value,
			  (int64_t) v.count);
	      }
	  append ("\n");
	  bool any = false;
	  for (const call_value &v : values)
	    if (v.id == id && !v.icall)
	      {
		if (!any)
		  append ("#sizes %d:", id);
		append (" %" PRIu64 ":%" PRId64, (uint64_t) v.value,
			(int64_t) v.count);
		any = true;
	      }
	  if (any)
	    append ("\n");
	}
      append (" !CFGChecksum: %" PRIu64 "\n", (uint64_t) checksum);
    }
  values.truncate (0);
}

/* Write the profile.  Returns false after an error.  */

bool
lp_oracle_finish (void)
{
  if (!latepgo_opts.write_sample_path)
    return true;
  FILE *f = fopen (latepgo_opts.write_sample_path, "w");
  if (!f || fwrite (text.address (), 1, text.length (), f) != text.length ()
      || fclose (f) != 0)
    {
      error ("latepgo: cannot write the sample profile %qs: %m",
	     latepgo_opts.write_sample_path);
      return false;
    }
  text.release ();
  return true;
}
