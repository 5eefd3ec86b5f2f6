/* probes.cc: pseudo probes (probes), for sample-based PGO.

   One probe per basic block of the instrumentation graph, numbered 1..B
   (1 is the block after ENTRY, the others in block order), then one per
   call, B+1..B+C, as LLVM numbers them; the function's GUID (MD5 of
   its profile name) and CFG checksum go to .pseudo_probe_desc, whose
   records the translation unit passes on as a toplevel asm statement.

   Zero cost, without -g: a probe is a debug begin-stmt marker (GIMPLE
   debug statement, then RTL debug insn or note) whose location is line
   ID of a made-up file: "<latepgo-probe>GUID" for a block probe,
   "<latepgo-probe>GUID KIND LINE COLUMN NAME CONTEXT CALLEE FILE" for a
   call probe (KIND d or i, direct or indirect; the call's locus; a hash
   of the name of its callee's origin; one of the loci of the BLOCKs of
   early inlining around it; the callee's GUID).  Every GCC pass ignores
   debug statements for code generation (the -fcompare-debug
   discipline) and copies them with the code they sit in: unrolled,
   peeled, versioned and inlined blocks keep their probe ids.  Right
   before final, an RTL pass turns each of our markers into a deleted
   debug label note, which final prints as a local label .LDL<n> (no
   line-table entry, no instruction), and writes the function's
   .pseudo_probe record in LLVM's encoding (doc/probes.md
   section 4): probes by inline context, each at its
   label.  Markers of other origin (the user's -g) are left alone.

   The RTL pass learns what it needs from the markers, so it works as
   well in lto1, after LTO streamed the bodies and the asm statement
   (probes-lto.cc).  Only, a marker goes with the code GCC removes, and
   lto1 has just the markers that reached the function it outputs: the
   compilation that placed the call probes looks call sites up in the
   list it made, lto1 among the call markers left, and there an inlined
   copy whose call probe is gone becomes a top-level record of its
   function (sqlite as a shared library: 3% of the probes with -flto,
   none without).

   Inline context: a probe that reached this function through GCC's
   IPA inlining sits in a chain of inlined-function BLOCKs.  A BLOCK
   is a frame of the probe tree when its call site (BLOCK_SOURCE_LOCATION)
   is the locus of a call probe of the caller that calls the BLOCK's
   function (the call existed when we numbered); other inlined BLOCKs
   come from early inlining, whose code is part of the caller's own
   probes.  A frame's function is the one whose block probes sit
   directly in it (markers have the outermost scope of their function),
   else the callee of its call probe.  The root of a function's tree is
   the function whose probes are not inlined there: an IPA clone
   (.isra, .constprop) has its original's, and a part split off (.part)
   the function whose own probes it holds.  */

#include "gcc-common.h"
#include "probes.h"
#include "dump.h"
#include "names.h"
#include "probes-lto.h"
#include "runtime-decls.h"
#include "rtl.h"
#include "emit-rtl.h"
#include "output.h"
#include "tree-pass.h"
#include "../format/probe-format.h"

#define PROBE_FILE_PREFIX "<latepgo-probe>"

/* The .pseudo_probe_desc records of this file's probed functions, as
   assembly.  */
static auto_vec<char> desc_asm;

/* A probe marker, decoded from its location.  */
struct marker
{
  unsigned HOST_WIDE_INT guid;	/* Its function.  */
  int id;
  int type;			/* PROBE_BLOCK, PROBE_*_CALL.  */
  tree block;			/* Its scope.  */
  /* Call probes: the locus of the call, as expand_location gives it
     (FILE points into the location's file name).  */
  const char *file;
  int line, column;
  unsigned callee_name;		/* name_hash of the callee's origin.  */
  unsigned context;		/* context_hash of the early inlining.  */
  unsigned HOST_WIDE_INT callee_guid;	/* Of a direct call, else 0.  */
};

/* If LOC is one of our probe locations, decode it into *M.  */

static bool
decode_probe_location (location_t loc, marker *m)
{
  expanded_location x = expand_location (loc);
  size_t plen = strlen (PROBE_FILE_PREFIX);
  if (!x.file || strncmp (x.file, PROBE_FILE_PREFIX, plen) != 0)
    return false;
  char *end;
  m->guid = strtoull (x.file + plen, &end, 16);
  m->id = x.line;
  m->type = PROBE_BLOCK;
  m->block = LOCATION_BLOCK (loc);
  m->file = "";
  m->line = m->column = 0;
  m->callee_name = m->context = 0;
  m->callee_guid = 0;
  if (*end == ' ')
    {
      /* " KIND LINE COLUMN NAME CONTEXT CALLEE FILE"
	 (lp_probes_function).  */
      char kind;
      int n = 0;
      uint64_t callee_guid;
      if (sscanf (end, " %c %d %d %x %x %" SCNx64 "%n", &kind, &m->line,
		  &m->column, &m->callee_name, &m->context, &callee_guid,
		  &n) != 6
	  || end[n] != ' ')
	return false;
      m->type = kind == 'i' ? PROBE_INDIRECT_CALL : PROBE_DIRECT_CALL;
      m->callee_guid = callee_guid;
      m->file = end + n + 1;
    }
  return true;
}

/* The call probes this compilation placed, by function GUID.  Its
   probes pass finds call sites there; lto1 has only the markers that
   reached the function it outputs (a block GCC optimized away takes
   its markers with it).  */
static hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>, vec<marker> >
  *placed_calls;

/* Whether STMT gets a call probe: a real call (not internal, not one of
   ours, not a builtin GCC expands inline).  */

static bool
lp_probed_call_p (gimple *stmt)
{
  if (!is_gimple_call (stmt) || gimple_call_internal_p (stmt))
    return false;
  tree fndecl = gimple_call_fndecl (stmt);
  if (fndecl && (lp_runtime_helper_p (fndecl)
		 || fndecl_built_in_p (fndecl, BUILT_IN_MD)))
    return false;
  return true;
}

/* The probes of the current function, in id order: BLOCKS get ids
   1..B (the block after ENTRY first, the others in block order), CALLS
   B+1.. in block and statement order.  Probe builds place them and
   sample-use reads counts by them, so both must use this.  */

void
lp_probe_numbering (vec<basic_block> *blocks, vec<gimple *> *calls)
{
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (cfun));
  basic_block bb;
  blocks->safe_push (first);
  FOR_EACH_BB_FN (bb, cfun)
    if (bb != first)
      blocks->safe_push (bb);
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (lp_probed_call_p (gsi_stmt (gsi)))
	calls->safe_push (gsi_stmt (gsi));
}

/* A hash of the name of function DECL (0 for none): the same after LTO
   streaming.  Of a callee's origin, it is that of the BLOCKs of its
   inlined copies (expand_call_inline), also for a part split off a
   function (.part).  */

static unsigned
name_hash (tree decl)
{
  if (!decl || !DECL_NAME (decl))
    return 0;
  return htab_hash_string (IDENTIFIER_POINTER (DECL_NAME (decl)));
}

/* Hash H and the locus of LOC.  */

static hashval_t
locus_hash (location_t loc, hashval_t h)
{
  expanded_location x = expand_location (loc);
  h = iterative_hash_hashval_t (x.line, h);
  h = iterative_hash_hashval_t (x.column, h);
  return x.file ? iterative_hash (x.file, strlen (x.file), h) : h;
}

/* A hash of the loci of the inlined-function BLOCKs BLOCKS (outermost
   first).  Copies of a function inlined early into one caller have
   calls at the same locus; these BLOCKs around them tell them apart,
   and LTO streams them.  */

static unsigned
context_hash (const vec<tree> &blocks)
{
  hashval_t h = 0;
  for (tree b : blocks)
    h = locus_hash (BLOCK_SOURCE_LOCATION (b), h);
  return h;
}

/* The context_hash of the inlined-function BLOCKs around BLOCK: at
   numbering time, those of early inlining.  */

static unsigned
early_context (tree block)
{
  auto_vec<tree, 8> blocks;
  for (tree b = block; b && TREE_CODE (b) == BLOCK; b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      blocks.safe_push (b);
  blocks.reverse ();
  return context_hash (blocks);
}

/* The location of call probe ID in made-up file FILE: line ID.  */

static location_t
call_probe_location (const char *file, int id)
{
  linemap_add (line_table, LC_ENTER, false, ggc_strdup (file), id);
  linemap_line_start (line_table, id, 80);
  location_t loc = linemap_position_for_column (line_table, 1);
  linemap_add (line_table, LC_LEAVE, false, NULL, 0);
  return loc;
}

/* A probe marker with location LOC before GSI (or after the labels of
   BB with GSI NULL).  Its scope is the function's outermost one, which
   GCC never removes: a marker whose scope was removed is dropped when
   its function is inlined.  */

static void
insert_marker (basic_block bb, gimple_stmt_iterator *gsi, location_t loc)
{
  gdebug *m = gimple_build_debug_begin_stmt (DECL_INITIAL
					       (current_function_decl), loc);
  if (gsi)
    gsi_insert_before (gsi, m, GSI_SAME_STMT);
  else
    {
      /* Before the first statement, or appended to an empty block.  */
      gimple_stmt_iterator g = gsi_after_labels (bb);
      gsi_insert_before (&g, m, GSI_SAME_STMT);
    }
}

/* The locus GCC will give the BLOCK of STMT's callee if it inlines the
   call (expand_call_inline): the call's, else the callee's own, else
   BUILTINS_LOCATION.  */

static location_t
call_site_locus (gimple *stmt)
{
  location_t loc = LOCATION_LOCUS (gimple_location (stmt));
  tree fn = gimple_call_fndecl (stmt);
  if (loc == UNKNOWN_LOCATION && fn)
    loc = LOCATION_LOCUS (DECL_SOURCE_LOCATION (fn));
  if (loc == UNKNOWN_LOCATION)
    loc = BUILTINS_LOCATION;
  return loc;
}

static void
append (vec<char> *v, const char *s)
{
  while (*s)
    v->safe_push (*s++);
}

/* Append the .pseudo_probe_desc record of function GUID (profile name
   NAME, CFG checksum CHECKSUM) to desc_asm.  */

static void
add_desc (unsigned HOST_WIDE_INT guid, unsigned HOST_WIDE_INT checksum,
	  const char *name)
{
  char buf[128];
  snprintf (buf, sizeof buf, "\t.quad\t%#" PRIx64 "\n\t.quad\t%#" PRIx64
	    "\n\t.uleb128\t%u\n\t.ascii\t\"", (uint64_t) guid,
	    (uint64_t) checksum, (unsigned) strlen (name));
  append (&desc_asm, buf);
  for (const char *p = name; *p; p++)
    {
      if (*p == '"' || *p == '\\')
	snprintf (buf, sizeof buf, "\\%c", *p);
      else if (ISPRINT (*p))
	snprintf (buf, sizeof buf, "%c", *p);
      else
	snprintf (buf, sizeof buf, "\\%03o", (unsigned char) *p);
      append (&desc_asm, buf);
    }
  append (&desc_asm, "\"\n");
}

/* Place the probes of the current function (NODE, profile name NAME,
   CFG checksum CHECKSUM).  The CFG is the one lp_build_graph numbered.
   Returns the number of probes.  */

int
lp_probes_function (cgraph_node *, const char *name,
		    unsigned HOST_WIDE_INT checksum)
{
  unsigned HOST_WIDE_INT guid = lp_md5_low64 (name, strlen (name));
  add_desc (guid, checksum, name);

  /* Markers need these; GCC keeps and expands them from now on.  The
     option is per function (GCC 12): set_cfun restores it from the
     function's optimization node, and a clone IPA makes later (.constprop,
     .isra, .part) takes the node's value for its own body, whose copy
     would drop the markers without it.  */
  debug_nonbind_markers_p = 1;
  cfun->debug_nonbind_markers = true;
  lp_keep_debug_markers (optimization_default_node);
  if (tree opts = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (current_function_decl))
    lp_keep_debug_markers (opts);

  char file[64];
  snprintf (file, sizeof file, PROBE_FILE_PREFIX "%016" PRIx64,
	    (uint64_t) guid);
  auto_vec<basic_block> blocks;
  auto_vec<gimple *> calls;
  lp_probe_numbering (&blocks, &calls);
  int id = 1;
  linemap_add (line_table, LC_ENTER, false, ggc_strdup (file), 1);
  for (basic_block bb : blocks)
    {
      linemap_line_start (line_table, id++, 80);
      insert_marker (bb, NULL, linemap_position_for_column (line_table, 1));
    }
  linemap_add (line_table, LC_LEAVE, false, NULL, 0);

  for (gimple *stmt : calls)
    {
      /* The call's locus is the one its inlined copies' BLOCKs will
	 have (see the top of the file for the rest).  */
      expanded_location x = expand_location (call_site_locus (stmt));
      tree callee = gimple_call_fndecl (stmt);
      unsigned HOST_WIDE_INT callee_guid = 0;
      if (callee)
	{
	  char *callee_name = lp_profile_name (callee);
	  callee_guid = lp_md5_low64 (callee_name, strlen (callee_name));
	  free (callee_name);
	}
      char *call_file
	= xasprintf ("%s %c %d %d %08x %08x %016" PRIx64 " %s", file,
		     callee ? 'd' : 'i', x.line, x.column,
		     callee ? name_hash (DECL_ORIGIN (callee)) : 0,
		     early_context (gimple_block (stmt)),
		     (uint64_t) callee_guid, x.file ? x.file : "");
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      location_t loc = call_probe_location (call_file, id++);
      insert_marker (gimple_bb (stmt), &gsi, loc);
      free (call_file);
      marker m;
      if (!placed_calls)
	placed_calls = new hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>,
				    vec<marker> >;
      if (decode_probe_location (loc, &m))
	placed_calls->get_or_insert (guid).safe_push (m);
    }
  return id - 1;
}

/* ------------------------------------------------------------------ */
/* Before final.  */

/* One probe that reached the assembly.  */
struct emitted_probe
{
  int id;
  int type;			/* PROBE_BLOCK, PROBE_*_CALL.  */
  int label;			/* .LDL<label> */
  bool cold;			/* In the cold partition.  */
  bool dangling;		/* Owns no instruction (see below).  */
};

/* A node of the probe tree of the function being output.  */
struct probe_node
{
  unsigned HOST_WIDE_INT guid;
  int call_site;		/* In the parent; 0 at the root.  */
  vec<emitted_probe> probes;
  vec<probe_node *> children;
};

static probe_node *
new_node (unsigned HOST_WIDE_INT guid, int call_site)
{
  probe_node *n = XCNEW (probe_node);
  n->guid = guid;
  n->call_site = call_site;
  return n;
}

static void
free_node (probe_node *n)
{
  for (probe_node *c : n->children)
    free_node (c);
  n->probes.release ();
  n->children.release ();
  XDELETE (n);
}

static probe_node *
child (probe_node *n, unsigned HOST_WIDE_INT guid, int call_site)
{
  for (probe_node *c : n->children)
    if (c->guid == guid && c->call_site == call_site)
      return c;
  probe_node *c = new_node (guid, call_site);
  n->children.safe_push (c);
  return c;
}

/* If STMT is one of our probe markers (a GIMPLE begin-statement debug
   statement at a probe location), its probe id, with *CALL set for a
   call probe; else 0.  */

int
lp_probe_marker_id (gimple *stmt, bool *call)
{
  marker m;
  if (!gimple_debug_begin_stmt_p (stmt)
      || !decode_probe_location (gimple_location (stmt), &m))
    return 0;
  *call = m.type != PROBE_BLOCK;
  return m.id;
}

/* If INSN is one of our probe markers (a begin-statement note or debug
   insn at a probe location), decode it into *M.  */

static bool
probe_marker_p (rtx_insn *insn, marker *m)
{
  location_t loc;
  if (NOTE_P (insn) && NOTE_KIND (insn) == NOTE_INSN_BEGIN_STMT)
    loc = NOTE_MARKER_LOCATION (insn);
  else if (DEBUG_MARKER_INSN_P (insn)
	   && INSN_DEBUG_MARKER_KIND (insn) == NOTE_INSN_BEGIN_STMT)
    loc = INSN_LOCATION (insn);
  else
    return false;
  return decode_probe_location (loc, m);
}

/* The innermost BLOCK of an inlined function around scope B, or
   NULL.  */

static tree
inlined_scope (tree b)
{
  for (; b && TREE_CODE (b) == BLOCK; b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      return b;
  return NULL_TREE;
}

/* What the markers of the function being output say about its
   inline tree.  Everything comes from the markers themselves, so that
   it works as well after LTO streaming as in the compilation that
   placed them.  */
struct function_markers
{
  /* The function whose own probes (not inlined) are here, or 0.  An
     IPA clone (.isra, .constprop) has the original's; a part split
     off (.part) is the function whose probes it holds.  */
  unsigned HOST_WIDE_INT root;
  auto_vec<marker> calls;
  /* Inlined-function BLOCK -> the function whose block probes are
     directly in it.  */
  hash_map<tree, unsigned HOST_WIDE_INT> frame_guid;
  /* Inlined-function BLOCK -> the call probe it was inlined at, NULL
     if none (early inlining: the caller's own code).  */
  hash_map<tree, const marker *> site_of;
};

/* Take marker M into FM.  */

static void
note_marker (function_markers *fm, const marker &m)
{
  tree scope = inlined_scope (m.block);
  if (!scope && !fm->root)
    fm->root = m.guid;
  if (m.type != PROBE_BLOCK)
    fm->calls.safe_push (m);
  else if (scope && !fm->frame_guid.get (scope))
    fm->frame_guid.put (scope, m.guid);
}

static void
collect_markers (function_markers *fm)
{
  fm->root = 0;
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      marker m;
      if (probe_marker_p (insn, &m))
	note_marker (fm, m);
    }
}

/* The call probe of function GUID that inlined-function BLOCK B was
   inlined at, or NULL: a call probe of GUID at B's locus.  Of several
   (nested calls on one line, copies of a function inlined early), the
   first that calls B's function and is in the same BLOCKs of early
   inlining, EARLY, else the first that calls B's function, else the
   first.  A call probe that calls another function fits B only if B
   holds block probes: identical code folding redirected the call, and
   B is not a BLOCK of early inlining, which has the locus of the calls
   on its line and holds no probes (markers have the outermost scope of
   their function).  lto1 reads the locus without its column.  */

static const marker *
call_site (function_markers *fm, unsigned HOST_WIDE_INT guid, tree b,
	   const vec<tree> &early)
{
  if (const marker **cached = fm->site_of.get (b))
    return *cached;
  expanded_location x = expand_location (BLOCK_SOURCE_LOCATION (b));
  unsigned callee_name = name_hash (block_ultimate_origin (b));
  unsigned context = context_hash (early);
  const marker *site = NULL;
  int best = -1;
  const vec<marker> *candidates = &fm->calls;
  if (vec<marker> *placed = placed_calls ? placed_calls->get (guid) : NULL)
    candidates = placed;
  for (const marker &c : *candidates)
    if (c.guid == guid && c.line == x.line
	&& (c.column == x.column || x.column == 0)
	&& strcmp (c.file, x.file ? x.file : "") == 0)
      {
	if (c.callee_name != callee_name && c.type != PROBE_INDIRECT_CALL
	    && !fm->frame_guid.get (b))
	  continue;
	int score = (c.callee_name == callee_name) * 2
		     + (c.context == context);
	if (score > best)
	  site = &c, best = score;
      }
  fm->site_of.put (b, site);
  return site;
}

/* The inline path of marker M in the function FM describes: FRAMES
   gets (function, call site in the previous frame) pairs, outermost
   first, the first FM's root with call site 0, through the inlined
   BLOCKs around M that are frames (see the top of the file).  False
   if the chain does not end at M's function.  */

static bool
marker_frames (function_markers *fm, const marker &m,
	       vec<lp_probe_frame> *frames)
{
  auto_vec<tree, 8> chain;
  for (tree b = inlined_scope (m.block); b; b = inlined_scope
					     (BLOCK_SUPERCONTEXT (b)))
    chain.safe_push (b);

  lp_probe_frame root = { fm->root, 0 };
  frames->safe_push (root);
  /* The BLOCKs since the last frame: early inlining in its function.  */
  auto_vec<tree, 8> early;
  for (int i = chain.length () - 1; i >= 0; i--)
    {
      tree b = chain[i];
      tree callee = block_ultimate_origin (b);
      if (!callee || TREE_CODE (callee) != FUNCTION_DECL)
	continue;
      const marker *site = call_site (fm, frames->last ().guid, b, early);
      if (!site)
	{
	  early.safe_push (b);	/* The caller's own code.  */
	  continue;
	}
      early.truncate (0);
      /* The innermost frame is the probe's function; another one is
	 the function whose block probes are in it, else the call's
	 callee.  A part split off the callee (.part) is a function of
	 its own, though its BLOCK names the whole.  */
      unsigned HOST_WIDE_INT guid = m.guid;
      if (i > 0)
	{
	  unsigned HOST_WIDE_INT *g = fm->frame_guid.get (b);
	  guid = g ? *g : site->callee_guid ? site->callee_guid : m.guid;
	}
      lp_probe_frame f = { guid, site->id };
      frames->safe_push (f);
    }
  return frames->last ().guid == m.guid;
}

/* The node of the probe tree of ROOT for marker M (marker_frames).
   NULL if the chain does not end at M's function.  */

static probe_node *
probe_parent (probe_node *root, function_markers *fm, const marker &m)
{
  auto_vec<lp_probe_frame, 8> frames;
  if (!marker_frames (fm, m, &frames))
    return NULL;
  probe_node *n = root;
  for (unsigned i = 1; i < frames.length (); i++)
    n = child (n, frames[i].guid, frames[i].call_site);
  return n;
}

/* Call FN (DATA, STMT, ID, CALL, FRAMES, N) for each probe marker STMT
   of the current function's GIMPLE body whose inline path is known:
   probe ID (CALL: a call probe) of the function FRAMES[N-1], inlined
   through FRAMES[1..N-1) into the function's own probes' FRAMES[0]
   (marker_frames).  For passes after IPA inlining.  */

void
lp_probe_marker_paths (void (*fn) (void *, gimple *, int, bool,
				   const lp_probe_frame *, unsigned),
		       void *data)
{
  function_markers fm;
  fm.root = 0;
  auto_vec<std::pair<gimple *, marker> > all;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	marker m;
	if (!gimple_debug_begin_stmt_p (stmt)
	    || !decode_probe_location (gimple_location (stmt), &m))
	  continue;
	note_marker (&fm, m);
	all.safe_push (std::make_pair (stmt, m));
      }
  if (!fm.root)
    return;
  auto_vec<lp_probe_frame, 8> frames;
  for (auto &sm : all)
    {
      frames.truncate (0);
      if (marker_frames (&fm, sm.second, &frames))
	fn (data, sm.first, sm.second.id, sm.second.type != PROBE_BLOCK,
	    frames.address (), frames.length ());
    }
}

/* The number of probes of N and its inlinees; with DANGLING, of the
   dangling ones.  */

static int
count_probes (probe_node *n, bool dangling)
{
  int k = 0;
  for (emitted_probe &p : n->probes)
    k += !dangling || p.dangling;
  for (probe_node *c : n->children)
    k += count_probes (c, dangling);
  return k;
}

/* Print FUNCTION (N) of the .pseudo_probe encoding; PREV is the last
   probe printed (label, or -1 at the start) and its partition.  */

static void
print_node (FILE *f, probe_node *n, int *prev, bool *prev_cold)
{
  fprintf (f, "\t.quad\t%#" PRIx64 "\n\t.uleb128\t%u\n\t.uleb128\t%u\n",
	   (uint64_t) n->guid, n->probes.length (), n->children.length ());
  for (emitted_probe &p : n->probes)
    {
      fprintf (f, "\t.uleb128\t%d\n", p.id);
      unsigned attr = p.dangling ? PROBE_ATTR_DANGLING : 0;
      if (*prev >= 0 && *prev_cold == p.cold)
	fprintf (f, "\t.byte\t%#x\n\t.sleb128\t.LDL%d-.LDL%d\n",
		 probe_kind_encode (p.type, attr, 1), p.label, *prev);
      else
	fprintf (f, "\t.byte\t%#x\n\t.quad\t.LDL%d\n",
		 probe_kind_encode (p.type, attr, 0), p.label);
      *prev = p.label;
      *prev_cold = p.cold;
    }
  for (probe_node *c : n->children)
    {
      fprintf (f, "\t.uleb128\t%d\n", c->call_site);
      print_node (f, c, prev, prev_cold);
    }
}

/* The .pseudo_probe section directive for the current function: in its
   COMDAT group if it has one, so that the linker drops the records with
   a discarded copy.  */

static void
print_section (FILE *f)
{
  tree decl = current_function_decl;
  if (DECL_COMDAT_GROUP (decl))
    fprintf (f, "\t.pushsection\t.pseudo_probe,\"G\",@progbits,%s,comdat\n",
	     IDENTIFIER_POINTER (decl_comdat_group_id (decl)));
  else
    fputs ("\t.pushsection\t.pseudo_probe,\"\",@progbits\n", f);
}

/* Turn our markers of the current function into labels and write its
   .pseudo_probe record.

   A probe whose label is followed by another probe's label before any
   instruction (a block whose code was merged away or moved, a block
   probe right before its call's probe, or the end of a text section)
   owns no instruction: a sample can never show that it ran.  It is
   marked dangling, so that a profile generator reports its count as
   unknown instead of 0 and the consumer infers it from the flow.  */

static unsigned int
emit_function_probes (void)
{
  function_markers fm;
  collect_markers (&fm);
  probe_node *root = new_node (fm.root, 0);
  bool cold = false;
  int n_orphans = 0;
  /* Probes since the last instruction, as (node, index) pairs.  */
  auto_vec<std::pair<probe_node *, unsigned>, 8> pending;
  auto mark_pending_dangling = [&pending] ()
    {
      for (auto &pp : pending)
	pp.first->probes[pp.second].dangling = true;
      pending.truncate (0);
    };

  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      if (NOTE_P (insn) && NOTE_KIND (insn) == NOTE_INSN_SWITCH_TEXT_SECTIONS)
	{
	  mark_pending_dangling ();
	  cold = !cold;
	  continue;
	}
      if (active_insn_p (insn) && !JUMP_TABLE_DATA_P (insn))
	{
	  pending.truncate (0);
	  continue;
	}
      marker m;
      if (!probe_marker_p (insn, &m))
	continue;

      rtx_insn *note = insn;
      if (!NOTE_P (insn))
	{
	  note = emit_note_before (NOTE_INSN_DELETED, insn);
	  set_insn_deleted (insn);
	}
      int label = CODE_LABEL_NUMBER (gen_label_rtx ());
      memset (&NOTE_DATA (note), 0, sizeof (NOTE_DATA (note)));
      NOTE_KIND (note) = NOTE_INSN_DELETED_DEBUG_LABEL;
      CODE_LABEL_NUMBER (note) = label;
      insn = note;

      probe_node *parent = root->guid ? probe_parent (root, &fm, m) : NULL;
      if (!parent)
	{
	  /* Not traceable to this function (e.g. it has no probes of its
	     own): a top-level record of the probe's owner.  */
	  parent = child (root, m.guid, 0);
	  n_orphans++;
	}
      mark_pending_dangling ();
      emitted_probe p = { m.id, m.type, label, cold, false };
      parent->probes.safe_push (p);
      pending.safe_push (std::make_pair (parent,
					 parent->probes.length () - 1));
    }
  mark_pending_dangling ();

  int total = count_probes (root, false);
  if (total)
    {
      FILE *f = asm_out_file;
      int prev = -1;
      bool prev_cold = false;
      print_section (f);
      /* Orphans (call site 0) are top-level records of their own, not
	 inlinees: call probe ids start at 1.  */
      auto_vec<probe_node *> orphans;
      for (unsigned i = 0; i < root->children.length (); )
	if (root->children[i]->call_site == 0)
	  {
	    orphans.safe_push (root->children[i]);
	    root->children.ordered_remove (i);
	  }
	else
	  i++;
      if (root->guid && (root->probes.length ()
			 || !root->children.is_empty ()))
	print_node (f, root, &prev, &prev_cold);
      for (probe_node *c : orphans)
	{
	  print_node (f, c, &prev, &prev_cold);
	  free_node (c);
	}
      fputs ("\t.popsection\n", f);
    }
  if (FILE *d = lp_dump_stream ())
    fprintf (d, "probes-emitted %s probes=%d dangling=%d orphans=%d\n",
	     lp_symbol_name (current_function_decl),
	     total, count_probes (root, true), n_orphans);
  free_node (root);
  return 0;
}

namespace {

const pass_data pass_data_latepgo_probes = {
  RTL_PASS,		/* type */
  "latepgo_probes",	/* name */
  OPTGROUP_NONE,	/* optinfo_flags */
  TV_NONE,		/* tv_id */
  0, 0, 0, 0, 0
};

class pass_latepgo_probes : public rtl_opt_pass
{
public:
  pass_latepgo_probes (gcc::context *ctxt)
    : rtl_opt_pass (pass_data_latepgo_probes, ctxt)
  {}

  unsigned int execute (function *) final override
  {
    return emit_function_probes ();
  }
};

} // anon namespace

/* After the probes pass over the translation unit: the descriptors of
   its probed functions, as a toplevel asm statement, which LTO streams
   with the code and outputs once (in the first partition) when it
   generates it.  */

void
lp_probes_finish (void)
{
  if (desc_asm.is_empty ())
    return;
  const char head[] = "\t.pushsection\t.pseudo_probe_desc,\"\",@progbits\n";
  const char tail[] = "\t.popsection";
  auto_vec<char> text;
  append (&text, head);
  text.safe_splice (desc_asm);
  append (&text, tail);
  symtab->finalize_toplevel_asm (build_string (text.length (),
					       text.address ()));
  desc_asm.release ();
}

/* Register the probes pass and what it needs, for a probes build
   (plugin NAME).  */

void
lp_probes_register (const char *name)
{
  struct register_pass_info probes_pass;
  probes_pass.pass = new pass_latepgo_probes (g);
  probes_pass.reference_pass_name = "final";
  probes_pass.ref_pass_instance_number = 1;
  probes_pass.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL, &probes_pass);
  lp_probes_lto_register (name);
}
