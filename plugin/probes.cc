/* probes.cc: pseudo probes (probes), for sample-based PGO.

   One probe per basic block of the instrumentation graph, numbered 1..B
   (1 is the block after ENTRY, the others in block order), then one per
   call, B+1..B+C, as LLVM numbers them; the function's GUID (MD5 of
   its profile name) and CFG checksum go to .pseudo_probe_desc.

   Zero cost, without -g: a probe is a debug begin-stmt marker (GIMPLE
   debug statement, then RTL debug insn or note) whose location is line
   ID of a made-up file "<latepgo-probe>GUID".  Every GCC pass ignores
   debug statements for code generation (the -fcompare-debug
   discipline) and copies them with the code they sit in: unrolled,
   peeled, versioned and inlined blocks keep their probe ids.  Right
   before final, an RTL pass turns each of our markers into a deleted
   debug label note, which final prints as a local label .LDL<n> (no
   line-table entry, no instruction), and writes the function's
   .pseudo_probe record in LLVM's encoding (doc/probes.md
   section 4): probes by inline context, each at its
   label.  Markers of other origin (the user's -g) are left alone.

   Inline context: a probe that reached this function through GCC's
   IPA inlining sits in a chain of inlined-function BLOCKs.  A BLOCK
   is a frame of the probe tree when its call site (BLOCK_SOURCE_LOCATION)
   is a call our pass numbered in the caller (the call existed when we
   ran); other inlined BLOCKs come from early inlining, whose code is
   part of the caller's own probes.  The root of a function's tree is
   the function itself; an IPA clone (.isra, .constprop) is its
   original, and a part split off (.part) is the function whose own
   probes it holds.  */

#include "gcc-common.h"
#include "latepgo.h"
#include "rtl.h"
#include "emit-rtl.h"
#include "output.h"
#include "tree-pass.h"

#define PROBE_FILE_PREFIX "<latepgo-probe>"

/* LLVM's probe types.  */
enum { PROBE_BLOCK = 0, PROBE_INDIRECT_CALL = 1, PROBE_DIRECT_CALL = 2 };
/* LLVM 14's attribute for a probe whose code is gone: its count is
   unknown rather than 0.  */
#define PROBE_ATTR_DANGLING 0x2

/* A probed function of this file: its descriptor.  */
struct probe_desc
{
  unsigned HOST_WIDE_INT guid, checksum;
  char *name;
};

static vec<probe_desc> descs;
/* GUID of each probed function, by DECL_UID.  */
static hash_map<int_hash<int, -1, -2>, unsigned HOST_WIDE_INT> *fn_guid;
/* Call probes: (caller GUID, call locus, BLOCK of the call) -> probe
   id, and the same with a null BLOCK for the first call at each locus.
   Copies of one function inlined early into the same caller have
   calls at the same locus; their BLOCKs tell them apart while the
   caller's body is the one we numbered (not a copy made by inlining
   or cloning, which remaps BLOCKs).  */
struct call_key
{
  unsigned HOST_WIDE_INT guid;
  location_t locus;
  tree block;
};
struct call_key_hash : typed_noop_remove<call_key>
{
  typedef call_key value_type;
  typedef call_key compare_type;
  static hashval_t hash (const call_key &k)
  {
    return iterative_hash_host_wide_int (k.guid,
					 iterative_hash_hashval_t
					 (k.locus, htab_hash_pointer (k.block)));
  }
  static bool equal (const call_key &a, const call_key &b)
  {
    return a.guid == b.guid && a.locus == b.locus && a.block == b.block;
  }
  static const bool empty_zero_p = true;
  static void mark_empty (call_key &k)
  {
    k.guid = 0; k.locus = 0; k.block = NULL_TREE;
  }
  static void mark_deleted (call_key &k)
  {
    k.guid = 0; k.locus = 1; k.block = NULL_TREE;
  }
  static bool is_empty (const call_key &k)
  {
    return k.guid == 0 && k.locus == 0;
  }
  static bool is_deleted (const call_key &k)
  {
    return k.guid == 0 && k.locus == 1;
  }
};
struct call_site
{
  int id;
  tree callee;			/* The called decl, if direct.  */
};
static hash_map<call_key_hash, call_site> *call_probes;
/* The BLOCKs in call_probes' keys and the callees in its values, kept
   alive so that their addresses are not reused by other trees.  */
static vec<tree, va_gc> *call_blocks;

const struct ggc_root_tab lp_probes_roots[] = {
  { &call_blocks, 1, sizeof (call_blocks), gt_ggc_mx_vec_tree_va_gc_,
    gt_pch_nx_vec_tree_va_gc_ },
  LAST_GGC_ROOT_TAB
};
/* Per probed function (by GUID): its number of block probes; and the
   call probes of indirect calls, as (GUID, id) keys.  */
static hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>, int> *n_block_probes;
static hash_set<call_key_hash> *indirect_probes;

/* Whether STMT gets a call probe: a real call (not internal, not one of
   ours, not a builtin GCC expands inline).  */

bool
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

/* The location of probe ID in the made-up file of the current probed
   function (entered with linemap_add).  */

static location_t
probe_location (int id)
{
  linemap_line_start (line_table, id, 80);
  return linemap_position_for_column (line_table, 1);
}

/* A probe marker with location LOC before GSI (or after the labels of
   BB with GSI NULL).  */

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

/* Place the probes of the current function (NODE, profile name NAME,
   CFG checksum CHECKSUM).  The CFG is the one lp_build_graph numbered.
   Returns the number of probes.  */

int
lp_probes_function (cgraph_node *node, const char *name,
		    unsigned HOST_WIDE_INT checksum)
{
  unsigned HOST_WIDE_INT guid = lp_md5_low64 (name, strlen (name));
  if (!fn_guid)
    {
      fn_guid = new hash_map<int_hash<int, -1, -2>,
			     unsigned HOST_WIDE_INT>;
      call_probes = new hash_map<call_key_hash, call_site>;
      n_block_probes = new hash_map<int_hash<unsigned HOST_WIDE_INT, 0, 1>,
				    int>;
      indirect_probes = new hash_set<call_key_hash>;
    }
  fn_guid->put (DECL_UID (node->decl), guid);
  /* A C++ constructor or destructor is probed as its complete or base
     object clone, but the BLOCKs of its inlined copies name the
     abstract function: let that find the (first) clone's GUID.  */
  tree origin = DECL_ABSTRACT_ORIGIN (node->decl);
  if (origin && TREE_CODE (origin) == FUNCTION_DECL
      && !fn_guid->get (DECL_UID (origin)))
    fn_guid->put (DECL_UID (origin), guid);
  probe_desc d = { guid, checksum, xstrdup (name) };
  descs.safe_push (d);

  /* Markers need these; GCC keeps and expands them from now on.  */
  debug_nonbind_markers_p = 1;
  cfun->debug_nonbind_markers = true;

  char fname[64];
  snprintf (fname, sizeof fname, PROBE_FILE_PREFIX "%016" PRIx64,
	    (uint64_t) guid);
  linemap_add (line_table, LC_ENTER, false, ggc_strdup (fname), 1);

  auto_vec<basic_block> blocks;
  auto_vec<gimple *> calls;
  lp_probe_numbering (&blocks, &calls);
  int id = 1;
  for (basic_block bb : blocks)
    insert_marker (bb, NULL, probe_location (id++));
  n_block_probes->put (guid, id - 1);

  for (gimple *stmt : calls)
    {
      location_t locus = call_site_locus (stmt);
      call_site site = { id, gimple_call_fndecl (stmt) };
      if (site.callee)
	vec_safe_push (call_blocks, site.callee);
      call_key k = { guid, locus, NULL_TREE };
      bool existed;
      call_site &slot = call_probes->get_or_insert (k, &existed);
      if (!existed)
	slot = site;
      if (tree block = gimple_block (stmt))
	{
	  call_key kb = { guid, locus, block };
	  call_probes->put (kb, site);
	  vec_safe_push (call_blocks, block);
	}
      if (!gimple_call_fndecl (stmt))
	{
	  call_key ik = { guid, (location_t) id, NULL_TREE };
	  indirect_probes->add (ik);
	}
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      insert_marker (gimple_bb (stmt), &gsi, probe_location (id++));
    }

  linemap_add (line_table, LC_LEAVE, false, NULL, 0);
  return id - 1;
}

/* ------------------------------------------------------------------ */
/* Before final.  */

/* One probe that reached the assembly.  */
struct emitted_probe
{
  int id;
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

/* The GUID of probed function DECL, or NULL.  An IPA clone
   (.isra, .constprop) is a new decl with the original's body: it owns
   the original's probes and inlinees, so it takes the original's
   GUID.  */

static unsigned HOST_WIDE_INT *
function_guid (tree decl)
{
  for (int depth = 0; decl && fn_guid && depth < 16; depth++)
    {
      unsigned HOST_WIDE_INT *g = fn_guid->get (DECL_UID (decl));
      if (g)
	return g;
      cgraph_node *n = cgraph_node::get (decl);
      if (n && n->clone_of)
	decl = n->clone_of->decl;
      else if (n && n->former_clone_of)
	decl = n->former_clone_of;
      else
	return NULL;
    }
  return NULL;
}

/* If LOC is one of our probe locations, set *GUID and *ID.  */

static bool
decode_probe_location (location_t loc, unsigned HOST_WIDE_INT *guid, int *id)
{
  expanded_location x = expand_location (loc);
  size_t plen = strlen (PROBE_FILE_PREFIX);
  if (!x.file || strncmp (x.file, PROBE_FILE_PREFIX, plen) != 0)
    return false;
  *guid = strtoull (x.file + plen, NULL, 16);
  *id = x.line;
  return true;
}

/* The node of the probe tree of ROOT for a probe whose location is LOC
   and whose owner is GUID: descend through the inlined BLOCKs that are
   frames (see the top of the file), outermost first.  NULL if the chain
   does not end at GUID.  */

static probe_node *
probe_parent (probe_node *root, location_t loc, unsigned HOST_WIDE_INT guid)
{
  auto_vec<tree, 8> chain;
  for (tree b = LOCATION_BLOCK (loc); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      chain.safe_push (b);

  probe_node *n = root;
  for (int i = chain.length () - 1; i >= 0; i--)
    {
      tree b = chain[i];
      tree callee = block_ultimate_origin (b);
      if (!callee || TREE_CODE (callee) != FUNCTION_DECL)
	continue;
      location_t locus = LOCATION_LOCUS (BLOCK_SOURCE_LOCATION (b));
      call_key kb = { n->guid, locus, BLOCK_SUPERCONTEXT (b) };
      call_key k = { n->guid, locus, NULL_TREE };
      call_site *site = call_probes ? call_probes->get (kb) : NULL;
      if (!site && call_probes)
	site = call_probes->get (k);
      /* A part split off the callee (.part) is a function of its own,
	 though its BLOCK names the whole: take the decl the call named
	 when it derives from the BLOCK's (not when it is another function
	 whose calls identical code folding redirected).  */
      unsigned HOST_WIDE_INT *cg = NULL;
      if (site && site->callee && site->callee != callee
	  && DECL_ORIGIN (site->callee) == callee)
	cg = function_guid (site->callee);
      if (!cg)
	cg = function_guid (callee);
      /* The innermost frame is the probe's owner, whatever its decl.  */
      if (site && i == 0)
	cg = &guid;
      if (!site || !cg)
	continue;		/* Early inlining: the caller's own code.  */
      n = child (n, *cg, site->id);
    }
  return n->guid == guid ? n : NULL;
}

/* If INSN is one of our probe markers (a begin-statement note or debug
   insn at a probe location), set *LOC, *GUID and *ID.  */

static bool
probe_marker_p (rtx_insn *insn, location_t *loc,
		unsigned HOST_WIDE_INT *guid, int *id)
{
  if (NOTE_P (insn) && NOTE_KIND (insn) == NOTE_INSN_BEGIN_STMT)
    *loc = NOTE_MARKER_LOCATION (insn);
  else if (DEBUG_MARKER_INSN_P (insn)
	   && INSN_DEBUG_MARKER_KIND (insn) == NOTE_INSN_BEGIN_STMT)
    *loc = INSN_LOCATION (insn);
  else
    return false;
  return decode_probe_location (*loc, guid, id);
}

/* The owner of the current function's probes that came through no
   inlining, or 0: a part split off a probed function (.part) keeps the
   original's probes and is the root of their inlinees.  */

static unsigned HOST_WIDE_INT
own_probes_guid (void)
{
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      location_t loc;
      unsigned HOST_WIDE_INT guid;
      int id;
      if (!probe_marker_p (insn, &loc, &guid, &id))
	continue;
      bool inlined = false;
      for (tree b = LOCATION_BLOCK (loc); b && TREE_CODE (b) == BLOCK;
	   b = BLOCK_SUPERCONTEXT (b))
	if (inlined_function_outer_scope_p (b))
	  {
	    inlined = true;
	    break;
	  }
      if (!inlined)
	return guid;
    }
  return 0;
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

/* The LLVM type of probe ID of function GUID.  */

static int
probe_type (unsigned HOST_WIDE_INT guid, int id)
{
  int *nb = n_block_probes ? n_block_probes->get (guid) : NULL;
  if (!nb || id <= *nb)
    return PROBE_BLOCK;
  call_key k = { guid, (location_t) id, NULL_TREE };
  return indirect_probes->contains (k) ? PROBE_INDIRECT_CALL
				       : PROBE_DIRECT_CALL;
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
      int kind = (probe_type (n->guid, p.id)
		  | (p.dangling ? PROBE_ATTR_DANGLING << 4 : 0));
      if (*prev >= 0 && *prev_cold == p.cold)
	fprintf (f, "\t.byte\t%#x\n\t.sleb128\t.LDL%d-.LDL%d\n",
		 kind | 0x80, p.label, *prev);
      else
	fprintf (f, "\t.byte\t%#x\n\t.quad\t.LDL%d\n", kind, p.label);
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
  unsigned HOST_WIDE_INT *g = function_guid (current_function_decl);
  probe_node *root = new_node (g ? *g : own_probes_guid (), 0);
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
      location_t loc;
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
      unsigned HOST_WIDE_INT guid;
      int id;
      if (!probe_marker_p (insn, &loc, &guid, &id))
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

      probe_node *parent = (root->guid ? probe_parent (root, loc, guid)
			    : NULL);
      if (!parent)
	{
	  /* Not traceable to this function (e.g. it has no probes of its
	     own): a top-level record of the probe's owner.  */
	  parent = child (root, guid, 0);
	  n_orphans++;
	}
      mark_pending_dangling ();
      emitted_probe p = { id, label, cold, false };
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

opt_pass *
lp_make_probes_pass (gcc::context *ctxt)
{
  return new pass_latepgo_probes (ctxt);
}

/* At the end of the file: the descriptors of every probed function.  */

void
lp_probes_finish (void)
{
  if (descs.is_empty ())
    return;
  FILE *f = asm_out_file;
  fputs ("\t.pushsection\t.pseudo_probe_desc,\"\",@progbits\n", f);
  for (probe_desc &d : descs)
    {
      fprintf (f, "\t.quad\t%#" PRIx64 "\n\t.quad\t%#" PRIx64
	       "\n\t.uleb128\t%u\n\t.ascii\t\"", (uint64_t) d.guid,
	       (uint64_t) d.checksum, (unsigned) strlen (d.name));
      for (const char *p = d.name; *p; p++)
	if (*p == '"' || *p == '\\')
	  fprintf (f, "\\%c", *p);
	else if (ISPRINT (*p))
	  fputc (*p, f);
	else
	  fprintf (f, "\\%03o", (unsigned char) *p);
      fputs ("\"\n", f);
      free (d.name);
    }
  fputs ("\t.popsection\n", f);
  descs.release ();
}
