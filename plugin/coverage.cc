/* coverage.cc: the coverage modes of generate
   (-fplugin-arg-latepgo-coverage=function|block; doc/coverage.md).

   Instead of counters, one byte per function or per block, LLVM's byte
   coverage: 0xff in the object file, and a plain store of 0 when the
   code runs.  No load, no add, no atomic: stores of the same constant
   cannot race, so update=atomic changes nothing here, and a loop
   stores the same 0 again.  The runtime writes the bytes as they are,
   with the byte-coverage variant bit (and the function-entry-only bit
   for coverage=function).

   coverage=function: one byte, stored on the edge out of ENTRY, and
   into the bytes of the functions GCC inlined into it before our pass
   where their copies start (coverage-inline.cc).  The
   record's FuncHash is LATEPGO_FUNCTION_COVERAGE_HASH, not the CFG
   checksum: whether a function ran does not depend on its CFG, so the
   profile stays valid for a function edited since training.

   coverage=block: one byte per class of blocks that always run
   together.  Blocks A and B with A dominating B and B post-dominating A
   run together: whenever A runs, B runs (every path from A to the exit
   passes B), and B runs only after A.  Such a class has one block
   that dominates all the others, its head; the byte is stored at the
   head and stands for the whole class.  A block B is in the class of
   its immediate dominator D exactly when B post-dominates D, so the
   classes come from one walk up the dominator tree per block
   (lp_coverage_block_bytes).  Dominance is computed while the graph's
   fake edges are in the CFG: a call that may not return (exit,
   longjmp; doc/data-path.md section 3) ends a class.  A loop that
   never ends between the head and a block, or a signal that kills the
   process there, marks the block covered though it did not run.  The
   record's FuncHash is a checksum of the graph (which fixes the
   classes) and of the number of bytes, so a block profile never
   matches a full profile's record of the same function.  */

#include "gcc-common.h"
#include "coverage.h"
#include "coverage-bytes.h"
#include "coverage-inline.h"
#include "arguments.h"
#include "dump.h"
#include "names.h"
#include "relocate.h"
#include "../libprof/latepgo-abi.h"

STATIC_ASSERT (LP_FUNCTION_COVERAGE == LATEPGO_COVERAGE_FUNCTION
	       && LP_BLOCK_COVERAGE == LATEPGO_COVERAGE_BLOCK);

/* Set BYTE_OF[I] to the byte of block I of the current function, -1
   for ENTRY and EXIT, and return the number of bytes (see the top).
   Bytes are numbered in block index order of their class heads' first
   members, so a use build of the same CFG numbers them alike.  */

int
lp_coverage_block_bytes (int *byte_of)
{
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  calculate_dominance_info (CDI_POST_DOMINATORS);

  int n = last_basic_block_for_fn (cfun);
  for (int i = 0; i < n; i++)
    byte_of[i] = -1;
  int n_bytes = 0;
  basic_block entry = ENTRY_BLOCK_PTR_FOR_FN (cfun);
  for (int i = NUM_FIXED_BLOCKS; i < n; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
      if (!bb)
	continue;
      basic_block head = bb;
      for (;;)
	{
	  basic_block idom = get_immediate_dominator (CDI_DOMINATORS, head);
	  if (!idom || idom == entry
	      || !dominated_by_p (CDI_POST_DOMINATORS, idom, head))
	    break;
	  head = idom;
	}
      if (byte_of[head->index] < 0)
	byte_of[head->index] = n_bytes++;
      byte_of[i] = byte_of[head->index];
    }
  return n_bytes;
}

/* The FuncHash of a coverage=block record of graph G with N_BYTES
   bytes: MD5 of the graph's checksum and N_BYTES, in the bits a
   checksum may use and without the first-run tag bits, never 0.  */

unsigned HOST_WIDE_INT
lp_coverage_block_hash (const lp_graph *g, int n_bytes)
{
  unsigned char bytes[8 + 4 + 5];
  for (int k = 0; k < 8; k++)
    bytes[k] = (unsigned char) (g->checksum_plain >> (8 * k));
  for (int k = 0; k < 4; k++)
    bytes[8 + k] = (unsigned char) ((unsigned) n_bytes >> (8 * k));
  memcpy (bytes + 12, "block", 5);
  unsigned HOST_WIDE_INT h = (lp_md5_low64 (bytes, sizeof bytes)
			      & LATEPGO_HASH_MASK
			      & ~LATEPGO_FIRST_RUN_TAG_MASK);
  return h ? h : 1;
}

/* Instrument the current function (NODE, profile name NAME, graph G)
   for the coverage kind of latepgo_opts: emit its bytes and store to
   them.  Set *N_BYTES and *HASH for its record, release G, and return
   the byte array.  The dump gets one line:
     coverage NAME kind=function|block bytes=N hash=0xH  */

tree
lp_coverage_function (cgraph_node *node, lp_graph *g, const char *name,
		      int *n_bytes, unsigned HOST_WIDE_INT *hash)
{
  int n_blocks = last_basic_block_for_fn (cfun);
  auto_vec<int> byte_of;
  byte_of.safe_grow (n_blocks);
  bool block = latepgo_opts.coverage == LP_BLOCK_COVERAGE;
  int n = block ? lp_coverage_block_bytes (byte_of.address ()) : 1;
  *hash = (block ? lp_coverage_block_hash (g, n)
	   : LATEPGO_FUNCTION_COVERAGE_HASH);
  *n_bytes = n;
  lp_release_graph (g);

  tree bytes = (block ? lp_coverage_bytes_var (node->decl, n)
	       : lp_coverage_own_byte (node->decl));
  tree base = NULL_TREE;
  if (lp_relocation_p ())
    base = make_temp_ssa_name (build_pointer_type (TREE_TYPE (bytes)),
			       NULL, "PROF_reloc");

  if (!block)
    gsi_insert_on_edge_immediate (single_succ_edge
				    (ENTRY_BLOCK_PTR_FOR_FN (cfun)),
				  lp_coverage_byte_store (bytes, base, 0));
  else
    {
      /* At the head of each class: the block whose own byte it is.  */
      auto_vec<bool> stored;
      stored.safe_grow_cleared (n);
      for (int i = NUM_FIXED_BLOCKS; i < n_blocks; i++)
	{
	  basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
	  if (!bb || byte_of[i] < 0)
	    continue;
	  basic_block idom = get_immediate_dominator (CDI_DOMINATORS, bb);
	  bool head = (idom == ENTRY_BLOCK_PTR_FOR_FN (cfun)
		       || byte_of[idom->index] != byte_of[i]);
	  if (!head)
	    continue;
	  gcc_assert (!stored[byte_of[i]]);
	  stored[byte_of[i]] = true;
	  gimple_stmt_iterator gsi = gsi_after_labels (bb);
	  gsi_insert_before (&gsi,
			     lp_coverage_byte_store (bytes, base, byte_of[i]),
			     GSI_NEW_STMT);
	}
    }
  /* The dominators were those of the graph, fake edges included.  */
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  if (base)
    lp_relocation_prologue (base, bytes);
  if (FILE *dump = lp_dump_stream ())
    fprintf (dump, "coverage %s kind=%s bytes=%d hash=0x%"
	     HOST_WIDE_INT_PRINT "x\n", name, block ? "block" : "function",
	     n, *hash);
  if (!block)
    lp_coverage_inline_instances (node->decl);
  return bytes;
}
