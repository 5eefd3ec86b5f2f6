/* coverage-use.cc: use= with a coverage profile (doc/coverage.md
   section 4).

   A coverage profile says which functions (coverage=function) or
   blocks (coverage=block) ran at least once, not how often.  So it is
   not taken as counts: a function that never ran is annotated as with
   a full profile's zero entry count (counts globally zero, so it goes
   to .text.unlikely and is optimized for size), and a function that
   ran keeps GCC's static estimates, exactly as a plain build has them,
   rather than a made-up count that would make everything else look
   cold.  With block coverage, the blocks of a function that ran whose
   byte says they never ran get a zero count and the edges into them a
   never-taken probability (the other edges out of the same block share
   the rest), so GCC moves them to the function's cold part; every
   other block keeps its static estimate.

   The profile is a coverage profile when its header has the byte
   coverage variant bit; the function-entry-only bit tells
   coverage=function from coverage=block.  A function's record is the
   one with the hash its kind gives (coverage.cc): for coverage=block
   the classes of blocks are recomputed from the same CFG.  The dump
   gets one line per function:
     coverage NAME ran|never-run|stale|missing [never-run-blocks=N]  */

#include "gcc-common.h"
#include "coverage.h"
#include "dump.h"
#include "profile-read.h"
#include "../libprof/latepgo-abi.h"
#include "../format/indexed-read.h"

/* Whether the profile read is a coverage profile.  */

bool
lp_coverage_profile_p (void)
{
  return (lp_profile_variant & LP_VARIANT_BYTE_COVERAGE) != 0;
}

/* Whether the indexed profile at PATH is a coverage profile, from its
   header alone: known before the profile is read, when plugin_init
   decides on native -fprofile-use's optimization flags.  A coverage
   profile does not turn them on: functions that ran are compiled as
   by plain -O2, from static estimates.  False if PATH cannot be read
   (reading it later says why).  */

bool
lp_coverage_profile_file_p (const char *path)
{
  unsigned char hdr[16];
  FILE *f = fopen (path, "rb");
  if (!f)
    return false;
  size_t got = fread (hdr, 1, sizeof hdr, f);
  fclose (f);
  uint64_t variant;
  return (lp_indexed_header_variant (hdr, got, &variant) == 0
	  && (variant & LP_VARIANT_BYTE_COVERAGE) != 0);
}

/* The record of NAME with HASH and N counters, or NULL; *NAME_FOUND
   says whether NAME has any record.  */

static const lp_profile_record *
find_coverage_record (const char *name, unsigned HOST_WIDE_INT hash,
		      unsigned n, bool *name_found)
{
  const vec<lp_profile_record> *recs = lp_profile_lookup (name);
  *name_found = recs && !recs->is_empty ();
  if (recs)
    for (const lp_profile_record &r : *recs)
      if (r.hash == hash && r.n_counters == n)
	return &r;
  return NULL;
}

/* Make the edges out of BB that lead to blocks in NEVER never taken,
   the others sharing what they had in proportion.  A block whose
   every way out leads to never-run blocks (it left by a call that did
   not return) is left alone.  */

static void
cut_edges_to_never_run (basic_block bb, const vec<bool> &never)
{
  profile_probability kept = profile_probability::never ();
  bool cut = false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (never[e->dest->index])
      cut = true;
    else
      kept += e->probability;
  if (!cut || !(kept > profile_probability::never ()))
    return;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (never[e->dest->index])
      e->probability = profile_probability::never ();
    else
      e->probability = e->probability / kept;
}

/* Mark the blocks of the current function whose byte in REC is 0
   (BYTE_OF: each block's byte) never run; return how many.  */

static int
annotate_never_run_blocks (const lp_profile_record *rec, const int *byte_of)
{
  auto_vec<bool> never;
  never.safe_grow_cleared (last_basic_block_for_fn (cfun));
  int n_never = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (byte_of[bb->index] >= 0
	&& lp_profile_counter (rec, byte_of[bb->index]) == 0)
      {
	never[bb->index] = true;
	n_never++;
      }
  if (n_never == 0)
    return 0;
  FOR_EACH_BB_FN (bb, cfun)
    if (!never[bb->index])
      cut_edges_to_never_run (bb, never);
  FOR_EACH_BB_FN (bb, cfun)
    if (never[bb->index])
      bb->count = profile_count::zero ();
  return n_never;
}

/* What the coverage profile says of the current function (profile
   name NAME, graph G, which is released); with block coverage, a
   function that ran has its never-run blocks marked.  */

lp_coverage_verdict
lp_coverage_use_function (lp_graph *g, const char *name)
{
  bool block = !(lp_profile_variant & LP_VARIANT_ENTRY_ONLY);
  auto_vec<int> byte_of;
  byte_of.safe_grow (last_basic_block_for_fn (cfun));
  int n_bytes = 1;
  unsigned HOST_WIDE_INT hash = LATEPGO_FUNCTION_COVERAGE_HASH;
  if (block)
    {
      n_bytes = lp_coverage_block_bytes (byte_of.address ());
      hash = lp_coverage_block_hash (g, n_bytes);
    }
  lp_release_graph (g);

  bool name_found;
  const lp_profile_record *rec
    = find_coverage_record (name, hash, n_bytes, &name_found);
  FILE *dump = lp_dump_stream ();
  if (!rec)
    {
      if (dump)
	fprintf (dump, "coverage %s %s\n", name,
		 name_found ? "stale" : "missing");
      return name_found ? LP_COVERAGE_STALE : LP_COVERAGE_MISSING;
    }

  /* The function ran if its entry did: its first block's byte.  */
  int entry_byte = 0;
  if (block)
    entry_byte = byte_of[single_succ (ENTRY_BLOCK_PTR_FOR_FN (cfun))->index];
  if (lp_profile_counter (rec, entry_byte) == 0)
    {
      if (dump)
	fprintf (dump, "coverage %s never-run\n", name);
      return LP_COVERAGE_NEVER_RUN;
    }
  int n_never = block ? annotate_never_run_blocks (rec, byte_of.address ()) : 0;
  if (dump)
    {
      fprintf (dump, "coverage %s ran", name);
      if (block)
	fprintf (dump, " never-run-blocks=%d", n_never);
      fputc ('\n', dump);
    }
  return LP_COVERAGE_RAN;
}
