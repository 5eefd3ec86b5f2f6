/* salvage.cc: the counts of a function whose profile is stale, mapped
   from its training version onto its changed CFG
   (doc/stale-salvage.md).

   The generate build recorded each function's blocks with their
   anchors, its edges and which edge each counter counted (anchors.cc,
   format/anchors.h); latepgo-profdata put those records beside the
   indexed profile.  With them the old version's counters give every
   old block and edge its count, by flow conservation as in a matching
   use build.  Old blocks are then matched to new ones, surest anchors
   first, as LLVM's stale sample-profile matching does with call-site
   anchors:
     1. same statements, callees, relative line and loop depth, unique
	in both versions;
     2. same statements and callees at any line (code moved by an
	insertion above it), unique in both;
     3. the longest common subsequence of the blocks that call
	something, by their callees, in line order;
     4. the remaining blocks of equal statements, in line order, when
	both versions have as many;
     5. the same line, shifted by the nearest matched block above, and
	the same loop depth, unique;
     6. the one unmatched successor (predecessor) of a matched block in
	both versions, when they call the same.
   Matched blocks keep their old count, and an edge between two matched
   blocks that the old version had keeps its count; minimum-cost flow
   (sample-flow.cc) infers a consistent flow for the rest.  When
   the matched blocks hold less than SALVAGE_MIN_PLACED of the old
   count, the match is too weak and the function is dropped as
   before.  */

#include "gcc-common.h"
#include "salvage.h"
#include "anchors.h"
#include "arguments.h"
#include "cfg-graph.h"
#include "names.h"
#include "profile-read.h"
#include "read-file.h"
#include "sample-flow.h"
#include "values.h"
#include "../format/anchors.h"

#define SALVAGE_MIN_PLACED 0.5
/* The LCS table of step 3 stays below this many cells.  */
#define SALVAGE_MAX_LCS_CELLS (16 * 1024 * 1024)

/* The anchors file: its bytes and, per name MD5, its records.  */
static unsigned char *anchors_buf;
static size_t anchors_size;
static bool anchors_tried;
static hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>, vec<anchors_record> >
  *anchors_index;
static char *anchors_path_default;

/* The key of a name's MD5 in anchors_index, whose hash reserves 0
   (empty) and 1 (deleted).  */

static unsigned HOST_WIDE_INT
index_key (unsigned HOST_WIDE_INT md5)
{
  return md5 <= 1 ? md5 + 2 : md5;
}

/* The anchors file a use build reads: anchors=FILE, else the profile's
   name with ".anchors" appended.  */

const char *
lp_salvage_anchors_path (void)
{
  if (latepgo_opts.anchors_path)
    return latepgo_opts.anchors_path;
  if (!anchors_path_default && latepgo_opts.use_path)
    anchors_path_default = concat (latepgo_opts.use_path, ".anchors", NULL);
  return anchors_path_default;
}

/* Read and index the anchors file once.  A missing default file means
   a profile without anchors (merged without --anchors): nothing to
   salvage with; a missing file named by anchors=, or a malformed one,
   is an error.  */

static bool
load_anchors (void)
{
  if (anchors_tried)
    return anchors_index != NULL;
  anchors_tried = true;
  const char *path = lp_salvage_anchors_path ();
  if (!path)
    return false;
  if (!latepgo_opts.anchors_path && access (path, F_OK) != 0)
    return false;
  anchors_buf = lp_read_file (path, "anchors file", &anchors_size);
  if (!anchors_buf)
    return false;
  if (!anchors_file_p (anchors_buf, anchors_size))
    {
      error ("latepgo: %qs is not an anchors file (written by "
	     "%<latepgo-profdata merge --anchors%>)", path);
      return false;
    }
  anchors_index = new hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>,
				vec<anchors_record> >;
  size_t off = ANCHORS_FILE_MAGIC_LEN;
  for (;;)
    {
      anchors_record rec;
      lp_err err;
      int r = anchors_next (anchors_buf, anchors_size, off, &rec, &err);
      if (r == 0)
	break;
      if (r < 0)
	{
	  error ("latepgo: anchors file %qs is corrupt: %s", path, err.msg);
	  delete anchors_index;
	  anchors_index = NULL;
	  return false;
	}
      anchors_index->get_or_insert (index_key (rec.name_md5)).safe_push (rec);
      off += rec.size;
    }
  return true;
}

/* The anchors record of NAME for the profile record hash HASH.  */

static bool
find_anchors (const char *name, unsigned HOST_WIDE_INT hash,
	      anchors_record *out)
{
  unsigned HOST_WIDE_INT md5 = lp_md5_low64 (name, strlen (name));
  vec<anchors_record> *recs = anchors_index->get (index_key (md5));
  if (!recs)
    return false;
  for (const anchors_record &rec : *recs)
    if (rec.name_md5 == md5 && (rec.hash == hash || rec.hash_plain == hash))
      {
	*out = rec;
	return true;
      }
  return false;
}

/* The training version of a function: its graph, as the generate
   build had it, and the count of every block and edge.  */

struct old_version
{
  lp_graph g;
  auto_vec<gcov_type> edge_count, block_count;
  auto_vec<anchors_block> blocks;
  gcov_type total;		/* Of all blocks but ENTRY and EXIT.  */
  anchors_record arec;		/* Its anchors.  */
};

/* Rebuild the old version from REC's anchors and PREC's counters.
   False when the counters do not fit the anchors.  */

static bool
rebuild_old (const anchors_record *rec, const lp_profile_record *prec,
	     old_version *old)
{
  if (anchors_num_counters (rec) > prec->n_counters)
    return false;
  old->arec = *rec;
  lp_graph *g = &old->g;
  g->n_blocks = rec->num_blocks;
  for (uint32_t i = 0; i < rec->num_edges; i++)
    {
      anchors_edge ae;
      anchors_get_edge (rec, i, &ae);
      lp_edge le = {};
      le.src = ae.src;
      le.dst = ae.dst;
      le.counter = ae.counter >= 0 ? ae.counter : -1;
      le.on_tree = ae.counter == ANCHORS_ON_TREE;
      le.ignore = ae.counter == ANCHORS_IGNORED;
      le.fake = i == 0;
      g->edges.safe_push (le);
    }
  old->edge_count.safe_grow_cleared (rec->num_edges);
  for (uint32_t i = 0; i < rec->num_edges; i++)
    if (g->edges[i].counter >= 0)
      old->edge_count[i] = lp_profile_counter (prec, g->edges[i].counter);
  lp_solve_flow (g, old->edge_count.address ());

  auto_vec<gcov_type> in, out;
  in.safe_grow_cleared (rec->num_blocks);
  out.safe_grow_cleared (rec->num_blocks);
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (!le->ignore)
      {
	in[le->dst] += old->edge_count[i];
	out[le->src] += old->edge_count[i];
      }
  old->block_count.safe_grow_cleared (rec->num_blocks);
  old->total = 0;
  for (uint32_t b = 0; b < rec->num_blocks; b++)
    {
      old->block_count[b] = MAX (in[b], out[b]);
      if (b > EXIT_BLOCK)
	old->total += old->block_count[b];
      anchors_block ab;
      anchors_get_block (rec, b, &ab);
      old->blocks.safe_push (ab);
    }
  return true;
}

/* Block matching between the old version's blocks OLDB and the new
   ones NEWB.  */

struct matcher
{
  const vec<anchors_block> *oldb;
  const vec<lp_block_anchor> *newb;
  auto_vec<int> old_of;		/* Per new block: its old block, or -1.  */
  auto_vec<bool> old_used;
  int matched;
};

static void
match_pair (matcher *m, int n, int o)
{
  m->old_of[n] = o;
  m->old_used[o] = true;
  m->matched++;
}

struct keyed
{
  unsigned HOST_WIDE_INT key;
  int line, index;
};

static int
cmp_keyed (const void *pa, const void *pb)
{
  const keyed *a = (const keyed *) pa, *b = (const keyed *) pb;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  return a->index - b->index;
}

static unsigned HOST_WIDE_INT
key_mix (unsigned HOST_WIDE_INT h, unsigned HOST_WIDE_INT v)
{
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

/* Key of an anchor for STEP (1: all of it, 2: without line and loop
   depth, 4: the same).  */

template <typename A>
static unsigned HOST_WIDE_INT
anchor_key (const A &a, int step)
{
  unsigned HOST_WIDE_INT h = key_mix (key_mix (0, a.shape), a.calls);
  if (step == 1)
    h = key_mix (key_mix (h, (unsigned HOST_WIDE_INT) (HOST_WIDE_INT) a.line),
	     a.loop_depth);
  return h;
}

/* Steps 1, 2 (UNIQUE: only keys that one block of each version has)
   and 4 (equal groups paired in line order).  */

static void
match_by_key (matcher *m, int step, bool unique)
{
  auto_vec<keyed> o, n;
  for (unsigned i = 0; i < m->oldb->length (); i++)
    if (!m->old_used[i])
      {
	keyed k = { anchor_key ((*m->oldb)[i], step), (*m->oldb)[i].line,
		    (int) i };
	o.safe_push (k);
      }
  for (unsigned i = 0; i < m->newb->length (); i++)
    if (m->old_of[i] < 0)
      {
	keyed k = { anchor_key ((*m->newb)[i], step), (*m->newb)[i].line,
		    (int) i };
	n.safe_push (k);
      }
  o.qsort (cmp_keyed);
  n.qsort (cmp_keyed);
  unsigned a = 0, b = 0;
  while (a < o.length () && b < n.length ())
    {
      if (o[a].key != n[b].key)
	{
	  if (o[a].key < n[b].key)
	    a++;
	  else
	    b++;
	  continue;
	}
      unsigned ea = a, eb = b;
      while (ea < o.length () && o[ea].key == o[a].key)
	ea++;
      while (eb < n.length () && n[eb].key == n[b].key)
	eb++;
      if (unique ? ea - a == 1 && eb - b == 1 : ea - a == eb - b)
	for (unsigned k = 0; k < ea - a; k++)
	  match_pair (m, n[b + k].index, o[a + k].index);
      a = ea;
      b = eb;
    }
}

static int
cmp_line (const void *pa, const void *pb)
{
  const keyed *a = (const keyed *) pa, *b = (const keyed *) pb;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  return a->index - b->index;
}

/* Step 3: the longest common subsequence of the unmatched blocks that
   call something, in line order, by what they call.  */

static void
match_calls_lcs (matcher *m)
{
  auto_vec<keyed> o, n;
  for (unsigned i = 0; i < m->oldb->length (); i++)
    if (!m->old_used[i] && (*m->oldb)[i].calls)
      {
	keyed k = { (*m->oldb)[i].calls, (*m->oldb)[i].line, (int) i };
	o.safe_push (k);
      }
  for (unsigned i = 0; i < m->newb->length (); i++)
    if (m->old_of[i] < 0 && (*m->newb)[i].calls)
      {
	keyed k = { (*m->newb)[i].calls, (*m->newb)[i].line, (int) i };
	n.safe_push (k);
      }
  size_t rows = o.length () + 1, cols = n.length () + 1;
  if (o.is_empty () || n.is_empty () || rows * cols > SALVAGE_MAX_LCS_CELLS)
    return;
  o.qsort (cmp_line);
  n.qsort (cmp_line);
  /* len[i][j]: LCS of o[i..] and n[j..].  */
  unsigned *len = XCNEWVEC (unsigned, rows * cols);
  for (size_t i = o.length (); i-- > 0;)
    for (size_t j = n.length (); j-- > 0;)
      len[i * cols + j]
	= (o[i].key == n[j].key ? len[(i + 1) * cols + j + 1] + 1
	   : MAX (len[(i + 1) * cols + j], len[i * cols + j + 1]));
  size_t i = 0, j = 0;
  while (i < o.length () && j < n.length ())
    if (o[i].key == n[j].key)
      match_pair (m, n[j++].index, o[i++].index);
    else if (len[(i + 1) * cols + j] >= len[i * cols + j + 1])
      i++;
    else
      j++;
  XDELETEVEC (len);
}

/* Step 5: an unmatched new block at line L, below a matched block
   whose line moved by D, takes the unmatched old block of line L - D
   and the same loop depth when there is exactly one.  */

static void
match_shifted_lines (matcher *m)
{
  auto_vec<keyed> anchors;	/* Matched: new line, key = old line.  */
  for (unsigned i = 0; i < m->newb->length (); i++)
    if (m->old_of[i] >= 0 && (*m->newb)[i].line != ANCHORS_NO_LINE
	&& (*m->oldb)[m->old_of[i]].line != ANCHORS_NO_LINE)
      {
	keyed k = { (unsigned HOST_WIDE_INT) (HOST_WIDE_INT)
		    (*m->oldb)[m->old_of[i]].line, (*m->newb)[i].line,
		    (int) i };
	anchors.safe_push (k);
      }
  anchors.qsort (cmp_line);
  auto_vec<keyed> o;		/* Unmatched old, key = line.  */
  for (unsigned i = 0; i < m->oldb->length (); i++)
    if (!m->old_used[i] && (*m->oldb)[i].line != ANCHORS_NO_LINE)
      {
	keyed k = { 0, (*m->oldb)[i].line, (int) i };
	o.safe_push (k);
      }
  o.qsort (cmp_line);
  for (unsigned i = 0; i < m->newb->length (); i++)
    {
      const lp_block_anchor &nb = (*m->newb)[i];
      if (m->old_of[i] >= 0 || nb.line == ANCHORS_NO_LINE)
	continue;
      /* The last matched block at or above NB's line.  */
      int shift = 0;
      for (unsigned lo = 0, hi = anchors.length (); lo < hi;)
	{
	  unsigned mid = (lo + hi) / 2;
	  if (anchors[mid].line <= nb.line)
	    {
	      shift = nb.line - (int) (HOST_WIDE_INT) anchors[mid].key;
	      lo = mid + 1;
	    }
	  else
	    hi = mid;
	}
      int want = nb.line - shift;
      int found = -1, n_found = 0;
      for (const keyed &k : o)
	if (k.line == want && !m->old_used[k.index]
	    && (*m->oldb)[k.index].loop_depth == nb.loop_depth)
	  {
	    found = k.index;
	    n_found++;
	  }
      if (n_found == 1)
	match_pair (m, i, found);
    }
}

/* Step 6: blocks next to matched ones.  When a matched block has
   exactly one unmatched successor (predecessor) in each version, and
   the two call the same (or nothing), they are taken for the same
   block: an empty forwarder, a join, the other arm of a changed
   branch.  Repeated until nothing more matches.  */

static void
match_neighbors (matcher *m, const lp_graph *oldg, const lp_graph *newg)
{
  int no = oldg->n_blocks, nn = newg->n_blocks;
  auto_vec<vec<int> > osucc, opred, nsucc, npred;
  osucc.safe_grow_cleared (no);
  opred.safe_grow_cleared (no);
  nsucc.safe_grow_cleared (nn);
  npred.safe_grow_cleared (nn);
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (oldg->edges, i, le)
    if (i && !le->ignore)
      {
	osucc[le->src].safe_push (le->dst);
	opred[le->dst].safe_push (le->src);
      }
  FOR_EACH_VEC_ELT (newg->edges, i, le)
    if (i && !le->ignore)
      {
	nsucc[le->src].safe_push (le->dst);
	npred[le->dst].safe_push (le->src);
      }
  /* The one unmatched block of LIST, or -1.  */
  auto lone_old = [m] (const vec<int> &list)
    {
      int found = -1;
      for (int b : list)
	if (!m->old_used[b])
	  {
	    if (found >= 0 && found != b)
	      return -1;
	    found = b;
	  }
      return found;
    };
  auto lone_new = [m] (const vec<int> &list)
    {
      int found = -1;
      for (int b : list)
	if (m->old_of[b] < 0)
	  {
	    if (found >= 0 && found != b)
	      return -1;
	    found = b;
	  }
      return found;
    };
  bool progress = true;
  while (progress)
    {
      progress = false;
      for (int n = 0; n < nn; n++)
	{
	  int o = m->old_of[n];
	  if (o < 0)
	    continue;
	  for (int dir = 0; dir < 2; dir++)
	    {
	      int nb = lone_new (dir ? npred[n] : nsucc[n]);
	      int ob = lone_old (dir ? opred[o] : osucc[o]);
	      if (nb < 0 || ob < 0
		  || (*m->newb)[nb].calls != (*m->oldb)[ob].calls)
		continue;
	      match_pair (m, nb, ob);
	      progress = true;
	    }
	}
    }
  for (auto *adj : { &osucc, &opred, &nsucc, &npred })
    for (vec<int> &list : *adj)
      list.release ();
}

/* Fill COUNT (per edge of the new graph G) from the old version OLD
   through the match M.  FIRM_ZERO marks new blocks whose old count was
   a measured zero.  */

static void
transfer_counts (lp_graph *g, old_version *old, matcher *m, gcov_type *count,
		 bool *firm_zero)
{
  int nb = g->n_blocks;
  auto_vec<gcov_type> weight;
  auto_vec<int> size;
  weight.safe_grow_cleared (nb);
  size.safe_grow_cleared (nb);
  for (int b = 0; b < nb; b++)
    {
      int o = m->old_of[b];
      weight[b] = o >= 0 ? old->block_count[o] : -1;
      firm_zero[b] = weight[b] == 0;
      /* A measured zero is firm: raising it costs the most
	 (sample-flow.cc).  */
      size[b] = 1000;
    }

  /* Old edges by their ends, for the edges whose both ends matched.  */
  hash_map<int_hash<HOST_WIDE_INT, -1, -2>, int> old_edge;
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (old->g.edges, i, le)
    if (!le->ignore && i != 0)
      {
	HOST_WIDE_INT key = (HOST_WIDE_INT) le->src * old->g.n_blocks + le->dst;
	bool existed;
	int &slot = old_edge.get_or_insert (key, &existed);
	/* Parallel edges: their split is unknown.  */
	slot = existed ? -3 : (int) i;
      }
  auto_vec<gcov_type> edge_weight;
  edge_weight.safe_grow_cleared (g->edges.length ());
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      edge_weight[i] = -1;
      if (i == 0 || le->ignore || le->fake)
	continue;
      int os = m->old_of[le->src], od = m->old_of[le->dst];
      if (os < 0 || od < 0)
	continue;
      int *e = old_edge.get ((HOST_WIDE_INT) os * old->g.n_blocks + od);
      if (e && *e >= 0)
	edge_weight[i] = old->edge_count[*e];
    }
  lp_infer_flow (g, weight.address (), size.address (),
		 edge_weight.address (), count);
}

/* Fill SITE_INDEX with, per value site of the new graph G, the index
   of the same site among the sites of its kind of OLD's record PREC
   (which numbers its value data), or -1: a site in a matched block
   whose key (kind, counters) one of the old block's sites has, the
   N-th such site of the block taking the old block's N-th.  An old
   site with counters (a memop of a training older than memop value
   data, doc/stale-salvage.md) has no value data and takes no site.
   Left empty when PREC has no value sites or its counters do not add
   up to what the anchors list.  */

static void
map_value_sites (const lp_graph *g, const old_version *old,
		 const lp_profile_record *prec, const matcher *m,
		 vec<int> *site_index)
{
  const anchors_record *rec = &old->arec;
  if (!g->values || prec->hash != rec->hash || !rec->num_sites)
    return;
  lp_value_site icall = { NULL, true, 0, false };
  lp_value_site memop = { NULL, false, 0, false };
  lp_value_site cmp = { NULL, false, 0, true };
  unsigned HOST_WIDE_INT icall_key = lp_value_site_key (&icall);
  unsigned HOST_WIDE_INT memop_key = lp_value_site_key (&memop);
  unsigned HOST_WIDE_INT cmp_key = lp_value_site_key (&cmp);
  uint32_t base = anchors_num_counters (rec);
  auto_vec<int> old_index;
  auto_vec<bool> taken;
  int n_icalls = 0, n_memops = 0;
  for (uint32_t j = 0; j < rec->num_sites; j++)
    {
      anchors_site s;
      anchors_get_site (rec, j, &s);
      old_index.safe_push (s.num_counters ? -1
			   : s.key == icall_key ? n_icalls++
			   : s.key == memop_key || s.key == cmp_key ? n_memops++
			   : -1);
      taken.safe_push (false);
      base += s.num_counters;
    }
  /* The edge counters, the sites' (none but an older memop's), then
     the first-run counter.  */
  if (base + 1 != prec->n_counters)
    return;
  for (const lp_value_site &ns : g->value_sites)
    {
      int found = -1;
      int o = m->old_of[gimple_bb (ns.stmt)->index];
      unsigned HOST_WIDE_INT key = lp_value_site_key (&ns);
      for (uint32_t j = 0; o >= 0 && j < rec->num_sites && found < 0; j++)
	{
	  anchors_site s;
	  anchors_get_site (rec, j, &s);
	  if (!taken[j] && s.block == (uint32_t) o && s.key == key
	      && s.num_counters == 0)
	    {
	      taken[j] = true;
	      found = old_index[j];
	    }
	}
      site_index->safe_push (found);
    }
}

/* Try to map the stale profile of the current function (profile name
   NAME, records RECS, none of which matches the new graph G) onto G:
   on success RES->ok and COUNT holds a consistent flow per edge of G,
   FIRM_ZERO (per block) the blocks measured never to run, and
   SITE_INDEX (unless left empty) where each value site of G finds its
   values in RES->rec (map_value_sites).  */

void
lp_salvage_function (lp_graph *g, const char *name,
		     const vec<lp_profile_record> *recs, gcov_type *count,
		     bool *firm_zero, vec<int> *site_index,
		     lp_salvage_result *res)
{
  memset (res, 0, sizeof *res);
  res->new_blocks = g->n_blocks;
  if (!load_anchors ())
    {
      res->no_anchors = true;
      return;
    }

  /* The training version that ran most, if several were merged.  */
  old_version *best = NULL;
  for (const lp_profile_record &prec : *recs)
    {
      anchors_record arec;
      if (!find_anchors (name, prec.hash, &arec))
	continue;
      old_version *old = new old_version;
      if (!rebuild_old (&arec, &prec, old)
	  || (best && best->edge_count[0] >= old->edge_count[0]))
	{
	  delete old;
	  continue;
	}
      delete best;
      best = old;
      res->rec = &prec;
    }
  if (!best)
    {
      res->no_anchors = true;
      return;
    }
  res->old_blocks = best->g.n_blocks;

  /* Entry count 0: the function never ran in training, whatever it
     looks like now.  */
  if (best->edge_count[0] == 0)
    {
      res->never_run = res->ok = true;
      res->placed = 1;
      delete best;
      return;
    }

  auto_vec<lp_block_anchor> newb;
  lp_block_anchors (g, &newb);
  matcher m;
  m.oldb = &best->blocks;
  m.newb = &newb;
  m.old_of.safe_grow (g->n_blocks);
  for (int b = 0; b < g->n_blocks; b++)
    m.old_of[b] = -1;
  m.old_used.safe_grow_cleared (best->g.n_blocks);
  m.matched = 0;
  match_pair (&m, ENTRY_BLOCK, ENTRY_BLOCK);
  match_pair (&m, EXIT_BLOCK, EXIT_BLOCK);
  match_by_key (&m, 1, true);
  match_by_key (&m, 2, true);
  match_calls_lcs (&m);
  match_by_key (&m, 4, false);
  match_shifted_lines (&m);
  match_neighbors (&m, &best->g, g);
  res->matched = m.matched;

  gcov_type placed = 0;
  for (int b = EXIT_BLOCK + 1; b < g->n_blocks; b++)
    if (m.old_of[b] >= 0)
      placed += best->block_count[m.old_of[b]];
  res->placed = best->total ? (double) placed / best->total : 1;
  if (res->placed >= SALVAGE_MIN_PLACED)
    {
      transfer_counts (g, best, &m, count, firm_zero);
      map_value_sites (g, best, res->rec, &m, site_index);
      res->ok = true;
    }
  delete best;
}
