/* coverage-bytes.cc: the byte arrays of the coverage modes and the
   stores into them (coverage.cc, coverage-inline.cc;
   doc/coverage.md section 2): per function, __profc_SYM, u8[N] in the
   counters section, every byte LATEPGO_COVERAGE_NOT_RUN, and the
   store of 0 that marks a byte covered.  */

#include "gcc-common.h"
#include "coverage-bytes.h"
#include "names.h"
#include "section-vars.h"
#include "../libprof/latepgo-abi.h"

/* The byte array of function FNDECL: N bytes of
   LATEPGO_COVERAGE_NOT_RUN in the counters section, byte-aligned.  */

tree
lp_coverage_bytes_var (tree fndecl, int n)
{
  tree type = build_array_type (unsigned_char_type_node,
				build_index_type (size_int (n - 1)));
  char *var_name = concat ("__profc_", lp_symbol_name (fndecl), NULL);
  tree bytes = lp_build_section_var (var_name, type, LATEPGO_SEC_CNTS);
  free (var_name);
  SET_DECL_ALIGN (bytes, BITS_PER_UNIT);
  DECL_USER_ALIGN (bytes) = 1;
  TREE_ADDRESSABLE (bytes) = 1;
  char *init = XNEWVEC (char, n);
  memset (init, LATEPGO_COVERAGE_NOT_RUN, n);
  tree str = build_string (n, init);
  XDELETEVEC (init);
  TREE_TYPE (str) = type;
  DECL_INITIAL (bytes) = str;
  varpool_node::finalize_decl (bytes);
  return bytes;
}

/* The statement BYTES[IDX] = 0, through BASE when BASE is not NULL
   (runtime counter relocation).  */

gimple *
lp_coverage_byte_store (tree bytes, tree base, int idx)
{
  tree array = bytes;
  if (base)
    array = build2 (MEM_REF, TREE_TYPE (bytes), base,
		    build_int_cst (TREE_TYPE (base), 0));
  tree ref = build4 (ARRAY_REF, unsigned_char_type_node, array,
		     build_int_cst (integer_type_node, idx), NULL_TREE,
		     NULL_TREE);
  return gimple_build_assign (ref, build_int_cst (unsigned_char_type_node,
						  0));
}
