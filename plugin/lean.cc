/* lean.cc: with -fplugin-arg-latepgo-lean, what only the tools need
   leaves the loaded image (doc/lean.md).  Instead of a data record per
   function and the names chunk in allocated sections, the file gets

     a map chunk in the non-allocated section LEAN_MAP_SECTION: each
     function's name hash, checksum, number of counters and the
     link-time address of its counters, and the names chunk;

     a lean block in the allocated section LEAN_SECTION: the number of
     functions and where their first-run counters are, the little the
     runtime needs to merge profiles of one build and to map counters
     in continuous mode.

   Layouts: format/lean-map.h.  The map holds absolute addresses,
   which in a non-allocated section the linker resolves at link time
   (as it does for DWARF): they cost no dynamic relocation and nothing
   at load time.  The section is emitted as a variable, not as toplevel
   asm as the CFG anchors are, so that LTO keeps its references to the
   TU-local counters right; its name carries the section flags,
   GCC's own flags going into an assembler comment.  */

#include "gcc-common.h"
#include "lean.h"
#include "section-vars.h"
#include "runtime-decls.h"
#include "../format/lean-map.h"
#include "../libprof/latepgo-abi.h"

static tree
u64_cst (unsigned HOST_WIDE_INT v)
{
  return build_int_cstu (long_long_unsigned_type_node, v);
}

/* The link-time address of VAR, as a u64 initializer.  */

static tree
address_of (tree var)
{
  return fold_convert (long_long_unsigned_type_node,
		       build_fold_addr_expr (var));
}

/* A static, read-only u64[N_WORDS] variable NAME in SECTION, 8-aligned;
   finish_words gives it its contents.  */

static tree
build_words_var (const char *name, const char *section, unsigned n_words)
{
  tree type = build_array_type (long_long_unsigned_type_node,
				build_index_type (size_int (n_words - 1)));
  tree var = lp_build_section_var (name, type, section);
  SET_DECL_ALIGN (var, 64);
  DECL_USER_ALIGN (var) = 1;
  TREE_READONLY (var) = 1;
  TREE_CONSTANT (var) = 1;
  return var;
}

/* Initialize VAR with WORDS and keep it although nothing refers to
   it.  */

static void
finish_words (tree var, vec<tree> *words)
{
  vec<constructor_elt, va_gc> *elts = NULL;
  unsigned i;
  tree w;
  FOR_EACH_VEC_ELT (*words, i, w)
    CONSTRUCTOR_APPEND_ELT (elts, size_int (i),
			    fold_convert (long_long_unsigned_type_node, w));
  DECL_INITIAL (var) = build_constructor (TREE_TYPE (var), elts);
  lp_mark_retained (var);
  varpool_node::finalize_decl (var);
  varpool_node::get (var)->force_output = 1;
}

/* The map chunk of FNS, whose names chunk is the NAMES_LEN bytes at
   NAMES.  */

static void
emit_map (const vec<lp_lean_fn> &fns, const char *names, size_t names_len)
{
  static tree cnts_start;
  if (!cnts_start)
    cnts_start = lp_runtime_var_decl ("__start_" LATEPGO_SEC_CNTS,
				      char_type_node);

  auto_vec<tree> words;
  unsigned n_words = (LEAN_MAP_HEADER_WORDS
		      + fns.length () * LEAN_MAP_RECORD_WORDS
		      + (names_len + 7) / 8);
  words.safe_push (u64_cst (LEAN_MAP_MAGIC
			    | (unsigned HOST_WIDE_INT) LEAN_MAP_VERSION << 32));
  words.safe_push (u64_cst (n_words));
  words.safe_push (address_of (cnts_start));
  words.safe_push (u64_cst (fns.length ()
			    | (unsigned HOST_WIDE_INT) names_len << 32));
  for (const lp_lean_fn &f : fns)
    {
      words.safe_push (address_of (f.counters));
      words.safe_push (u64_cst (f.name_ref));
      words.safe_push (u64_cst (f.checksum));
      /* No value sites: latepgo's value profiles are counters.  */
      words.safe_push (u64_cst (f.n_counters));
    }
  for (size_t k = 0; k < names_len; k += 8)
    {
      unsigned HOST_WIDE_INT w = 0;
      for (size_t b = 0; b < 8 && k + b < names_len; b++)
	w |= (unsigned HOST_WIDE_INT) (unsigned char) names[k + b] << (8 * b);
      words.safe_push (u64_cst (w));
    }
  gcc_assert (words.length () == n_words);

  /* The target assembler's comment (ASM_COMMENT_START: '#' on x86-64,
     '//' on AArch64, whose assembler rejects '#' there) makes GCC's
     flags that follow the name a comment: the section is not allocated
     and takes no space in the loaded image.  */
  tree var = build_words_var ("__latepgo_map",
			      LEAN_MAP_SECTION ",\"\",@progbits "
			      ASM_COMMENT_START, n_words);
  /* An assembler-local name: no symbol in the binary's symbol table.
     A symbol of a non-allocated section has an address that overlaps
     the loaded code's, and valgrind 3.19 then aborts reading the
     binary's symbols ("Assertion 'in_rx' failed") once the map is
     larger than the gap before .text (SQLite's, 83 KB).  */
  SET_DECL_ASSEMBLER_NAME (var, get_identifier ("*.Llatepgo_map"));
  finish_words (var, &words);
}

/* The lean block of FNS: their number and their first-run counters,
   and the reference that pulls the runtime (RUNTIME_DECL) in.  */

static void
emit_block (const vec<lp_lean_fn> &fns, tree runtime_decl)
{
  auto_vec<unsigned> first_run;
  for (unsigned i = 0; i < fns.length (); i++)
    if (latepgo_has_first_run (fns[i].checksum))
      first_run.safe_push (i);

  tree var = build_words_var ("__latepgo_lean", LEAN_SECTION,
			      LEAN_BLOCK_HEADER_WORDS
			      + 2 * first_run.length ());
  auto_vec<tree> words;
  words.safe_push (u64_cst (fns.length ()));
  words.safe_push (u64_cst (first_run.length ()));
  words.safe_push (lp_build_addr_diff (runtime_decl, var));
  unsigned k, i;
  FOR_EACH_VEC_ELT (first_run, k, i)
    {
      /* Not &counters[N - 1] - &block: GCC 12's assembler output of
	 that came out with the offset's sign flipped.  */
      words.safe_push (lp_build_addr_diff (fns[i].counters, var));
      words.safe_push (u64_cst (fns[i].n_counters));
    }
  finish_words (var, &words);
}

void
lp_lean_finish (const vec<lp_lean_fn> &fns, const char *names,
		size_t names_len, tree runtime_decl)
{
  if (fns.is_empty ())
    return;
  emit_map (fns, names, names_len);
  emit_block (fns, runtime_decl);
}
