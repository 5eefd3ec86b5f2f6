/* anchors.cc: the CFG anchors of the current function's blocks, which
   a use build needs to map a stale profile onto the changed function
   (salvage.cc, doc/stale-salvage.md).  A generate build records them
   with the graph's edges and counter numbering in the non-allocated
   section .latepgo_anchors (format/anchors.h), one record per
   instrumented function: nothing of it is loaded at run time.

   An anchor must not change when unrelated code of the function
   changes: a block's line is relative to the function's first line,
   and its shape hash covers what its statements do (codes, operators,
   integer constants, callees) but no SSA names, declarations' uids or
   locations.  */

#include "gcc-common.h"
#include "anchors.h"
#include "cfg-graph.h"
#include "names.h"
#include "values.h"
#include "../format/anchors.h"

/* The location of STMT in the current function: inlined code counts
   at the call site of its outermost inlined function, which is what
   the caller's source says.  */

static location_t
outer_location (gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  for (tree b = gimple_block (stmt); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      loc = BLOCK_SOURCE_LOCATION (b);
  return loc;
}

static void
push_u64 (auto_vec<unsigned char> *v, unsigned HOST_WIDE_INT w)
{
  for (int k = 0; k < 8; k++)
    v->safe_push ((unsigned char) (w >> (8 * k)));
}

static void
push_str (auto_vec<unsigned char> *v, const char *s)
{
  while (*s)
    v->safe_push ((unsigned char) *s++);
  v->safe_push (0);
}

/* Add OP to a shape: its tree code, and the value of an integer
   constant (a changed constant is a changed statement).  */

static void
push_operand (auto_vec<unsigned char> *v, tree op)
{
  if (!op)
    return;
  push_u64 (v, TREE_CODE (op));
  if (TREE_CODE (op) == INTEGER_CST && tree_fits_shwi_p (op))
    push_u64 (v, tree_to_shwi (op));
}

/* The name a call's target goes by in anchors: its assembler name, an
   internal function's name, or "*" for an indirect call.  */

static const char *
callee_name (gcall *call)
{
  if (gimple_call_internal_p (call))
    return internal_fn_name (gimple_call_internal_fn (call));
  tree fn = gimple_call_fndecl (call);
  if (!fn)
    return "*";
  return IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
}

/* Fill ANCHORS with one anchor per block of the current function,
   indexed as G's blocks.  */

void
lp_block_anchors (const lp_graph *g, vec<lp_block_anchor> *anchors)
{
  int fn_line = LOCATION_LINE (DECL_SOURCE_LOCATION (current_function_decl));
  anchors->truncate (0);
  anchors->safe_grow_cleared (g->n_blocks);
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    {
      lp_block_anchor *a = &(*anchors)[bb->index];
      a->line = ANCHORS_NO_LINE;
      a->loop_depth = current_loops ? bb_loop_depth (bb) : 0;
      auto_vec<unsigned char> shape, calls;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (is_gimple_debug (stmt) || gimple_code (stmt) == GIMPLE_LABEL
	      || gimple_code (stmt) == GIMPLE_PREDICT
	      || gimple_code (stmt) == GIMPLE_NOP)
	    continue;
	  location_t loc = outer_location (stmt);
	  if (a->line == ANCHORS_NO_LINE && !RESERVED_LOCATION_P (loc))
	    a->line = LOCATION_LINE (loc) - fn_line;
	  push_u64 (&shape, gimple_code (stmt));
	  switch (gimple_code (stmt))
	    {
	    case GIMPLE_ASSIGN:
	      push_u64 (&shape, gimple_assign_rhs_code (stmt));
	      for (unsigned i = 1; i < gimple_num_ops (stmt); i++)
		push_operand (&shape, gimple_op (stmt, i));
	      break;
	    case GIMPLE_COND:
	      push_u64 (&shape, gimple_cond_code (stmt));
	      push_operand (&shape, gimple_cond_lhs (stmt));
	      push_operand (&shape, gimple_cond_rhs (stmt));
	      break;
	    case GIMPLE_SWITCH:
	      push_u64 (&shape,
			gimple_switch_num_labels (as_a <gswitch *> (stmt)));
	      break;
	    case GIMPLE_CALL:
	      {
		const char *name = callee_name (as_a <gcall *> (stmt));
		push_str (&shape, name);
		push_str (&calls, name);
		break;
	      }
	    default:
	      break;
	    }
	}
      a->shape = lp_md5_low64 (shape.address (), shape.length ());
      a->calls = (calls.is_empty () ? 0
		  : lp_md5_low64 (calls.address (), calls.length ()) | 1);
    }
}

/* The records of this unit's functions, as assembler text.  */
static auto_vec<char> records_asm;

static void
append (const char *s)
{
  while (*s)
    records_asm.safe_push (*s++);
}

static void
append_long (long v)
{
  char buf[32];
  snprintf (buf, sizeof buf, "\t.long\t%ld\n", v);
  append (buf);
}

static void
append_quad (unsigned HOST_WIDE_INT v)
{
  char buf[40];
  snprintf (buf, sizeof buf, "\t.quad\t0x%" HOST_WIDE_INT_PRINT "x\n", v);
  append (buf);
}

/* Record the anchors of the current function (profile name NAME),
   instrumented with graph G, before its instrumentation changes the
   CFG.  */

void
lp_anchors_record (const lp_graph *g, const char *name)
{
  auto_vec<lp_block_anchor> anchors;
  lp_block_anchors (g, &anchors);
  append_long (ANCHORS_RECORD_MAGIC);
  append_long (ANCHORS_VERSION);
  append_quad (lp_md5_low64 (name, strlen (name)));
  append_quad (g->checksum);
  append_quad (g->checksum_plain);
  append_long (g->n_blocks);
  append_long (g->edges.length ());
  append_long (g->values ? g->value_sites.length () : 0);
  for (const lp_block_anchor &a : anchors)
    {
      append_long (a.line);
      append_long (a.loop_depth);
      append_quad (a.shape);
      append_quad (a.calls);
    }
  unsigned i;
  lp_edge *le;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      append_long (le->src);
      append_long (le->dst);
      append_long (le->counter >= 0 ? le->counter
		   : le->on_tree ? ANCHORS_ON_TREE : ANCHORS_IGNORED);
    }
  if (g->values)
    for (const lp_value_site &s : g->value_sites)
      {
	append_long (gimple_bb (s.stmt)->index);
	/* No value site has counters (an older latepgo's memops had).  */
	append_long (0);
	append_quad (lp_value_site_key (&s));
      }
}

/* After the unit's last function: its records as one toplevel asm
   statement, which LTO streams with the code.  */

void
lp_anchors_finish (void)
{
  if (records_asm.is_empty ())
    return;
  auto_vec<char> text;
  const char head[] = "\t.pushsection\t" ANCHORS_SECTION ",\"\",@progbits\n";
  const char tail[] = "\t.popsection";
  for (const char *s = head; *s; s++)
    text.safe_push (*s);
  text.safe_splice (records_asm);
  for (const char *s = tail; *s; s++)
    text.safe_push (*s);
  symtab->finalize_toplevel_asm (build_string (text.length (),
					       text.address ()));
  records_asm.release ();
}
