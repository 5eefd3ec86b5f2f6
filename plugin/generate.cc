/* generate.cc: generate mode.  Counters on the edges off the spanning
   tree, and the per-function and per-file data the runtime writes out
   (layout: format/instrprof-data.def, doc/raw-format.md).

   For a function foo with N counters this emits, TU-local:

     static u64 __profc_foo[N]		section __llvm_prf_cnts
     static struct { ... } __profd_foo	section __llvm_prf_data
       = { MD5LOW64 ("foo"), checksum,
	   (long) &__profc_foo - (long) &__profd_foo,
	   &foo if an indirect call may reach foo, else 0,
	   &__profvp_foo if foo has S > 0 indirect calls,
	     else (long) &__latepgo_runtime - (long) &__profd_foo,
	   N, S, 0 };

   and on every counted edge  __profc_foo[i] = __profc_foo[i] + 1:
   plain adds on this thread's copy of the counters with update=atomic
   (shard.cc), a relaxed __atomic_fetch_add with update=atomic-add (or
   update=atomic where the target has no native TLS).  The address
   differences assemble to PC-relative relocations: the records add no
   dynamic relocation to a PIE or shared library, except for the
   absolute addresses of indirect-call targets and of value-site lists
   (values.cc), which compiler-rt's writer needs as addresses when its
   runtime shares the module.  Per file: one names
   chunk (zlib-compressed names) in __llvm_prf_names, with
   generate=PATH the path in __latepgo_prf_fname, and with
   runtime-counter-relocation (relocate.cc) the number of records in
   __latepgo_prf_reloc.  With lean, the records and the names chunk
   go out of the loaded image instead (lean.cc).  With
   coverage=function|block, coverage.cc makes the byte counters and
   their stores instead of counters and increments, and the file says
   so in __latepgo_prf_cov; with coverage=function, functions that
   have a byte here only through copies GCC inlined before our pass
   get a record too (coverage-inline.cc).  */

#include "gcc-common.h"
#include "generate.h"
#include "cfg-graph.h"
#include "names.h"
#include "arguments.h"
#include "promote.h"
#include "relocate.h"
#include "runtime-decls.h"
#include "shard.h"
#include "values.h"
#include "lean.h"
#include "coverage.h"
#include "coverage-inline.h"
#include "section-vars.h"
#include "../libprof/latepgo-abi.h"
#include <zlib.h>

/* One emitted function, remembered until the end of the pass.  */
struct lp_record
{
  char *name;
  tree counters;
  unsigned HOST_WIDE_INT checksum;
  int n_counters;
  tree fn;			/* The function, if its address is recorded.  */
  tree site_heads;		/* Its value lists, or NULL_TREE.  */
  int n_icall_sites;		/* Its profiled value sites of each kind.  */
  int n_memop_sites;
};

static vec<lp_record> records;

/* Trees kept across functions; registered as GC roots by plugin_init
   (no gengtype for plugins).  */
static tree record_type;
static tree runtime_decl;
static tree before_exec_decl;

const struct ggc_root_tab lp_generate_roots[] = {
  { &record_type, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &runtime_decl, 1, sizeof (tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node },
  { &before_exec_decl, 1, sizeof (tree), gt_ggc_mx_tree_node,
    gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* The tree type of each C type of format/instrprof-data.def.  */
#define LP_TREE_TYPE_uint64_t long_long_unsigned_type_node
#define LP_TREE_TYPE_int64_t long_long_integer_type_node
#define LP_TREE_TYPE_uint32_t unsigned_type_node
#define LP_TREE_TYPE_uint16_t short_unsigned_type_node

/* The identifier of element K of the COUNT fields NAME: NAME itself
   when COUNT is 1, else NAMEK.  */

static tree
record_field_name (const char *name, int count, int k)
{
  if (count == 1)
    return get_identifier (name);
  char buf[64];
  snprintf (buf, sizeof buf, "%s%d", name, k);
  return get_identifier (buf);
}

/* The struct type of records: latepgo_data_record, from the fields of
   format/instrprof-data.def, an array of COUNT as COUNT fields NAME0,
   NAME1...  finish_builtin_struct takes the fields last first.  */

static tree
get_record_type (void)
{
  if (record_type)
    return record_type;

  tree chain = NULL_TREE;
#define LP_RAW_DATA_ARRAY(CTYPE, COUNT, NAME, INIT, DOC)		\
  for (int k = 0; k < COUNT; k++)					\
    {									\
      tree f = build_decl (BUILTINS_LOCATION, FIELD_DECL,		\
			   record_field_name (#NAME, COUNT, k),		\
			   LP_TREE_TYPE_##CTYPE);			\
      DECL_CHAIN (f) = chain;						\
      chain = f;							\
    }
#define LP_RAW_DATA_FIELD(CTYPE, NAME, INIT, DOC)	\
  LP_RAW_DATA_ARRAY (CTYPE, 1, NAME, INIT, DOC)
#include "../format/instrprof-data.def"
  record_type = lang_hooks.types.make_type (RECORD_TYPE);
  finish_builtin_struct (record_type, "__latepgo_data_record", chain,
			 NULL_TREE);
  gcc_assert (tree_to_uhwi (TYPE_SIZE_UNIT (record_type)) == 48);
  return record_type;
}

/* extern hidden int __latepgo_runtime, and
   extern hidden void __latepgo_before_exec (void).  */

static void
init_runtime_decls (void)
{
  if (runtime_decl)
    return;
  runtime_decl = lp_runtime_var_decl (LATEPGO_RUNTIME_SYMBOL,
				      integer_type_node);
  before_exec_decl
    = lp_runtime_fn_decl (LATEPGO_BEFORE_EXEC_SYMBOL,
			  build_function_type_list (void_type_node,
						    NULL_TREE));
}

/* Whether STMT calls one of the exec functions, whose success loses
   the counters without running exit handlers.  */

static bool
exec_call_p (gimple *stmt)
{
  static const char *const names[] = {
    "execl", "execle", "execlp", "execv", "execve", "execvp", "execvpe",
    "fexecve", "execveat"
  };
  tree fndecl = gimple_call_fndecl (stmt);
  if (!fndecl || !TREE_PUBLIC (fndecl) || !DECL_NAME (fndecl))
    return false;
  const char *n = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (unsigned i = 0; i < ARRAY_SIZE (names); i++)
    if (strcmp (n, names[i]) == 0)
      return true;
  return false;
}

/* Flush the profile before every exec call of the current function.  */

static void
instrument_exec_calls (void)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi)) && exec_call_p (gsi_stmt (gsi)))
	{
	  gcall *flush = gimple_build_call (before_exec_decl, 0);
	  gsi_insert_before (&gsi, flush, GSI_SAME_STMT);
	}
}

/* Instrument the current function (NODE) whose graph is G and whose
   profile name is NAME.  Consumes G's fake edges.  */

void
lp_generate_function (cgraph_node *node, lp_graph *g, const char *name)
{
  int i;
  lp_edge *le;

  init_runtime_decls ();

  if (latepgo_opts.coverage)
    {
      lp_record r;
      r.counters = lp_coverage_function (node, g, name, &r.n_counters,
					 &r.checksum);
      instrument_exec_calls ();
      r.name = xstrdup (name);
      r.fn = NULL_TREE;
      r.site_heads = NULL_TREE;
      r.n_icall_sites = r.n_memop_sites = 0;
      records.safe_push (r);
      return;
    }

  /* The counter array, sized now that the tree is known.  */
  int n_counters = lp_record_counters (g);
  tree type = build_array_type (long_long_unsigned_type_node,
				build_index_type (size_int (n_counters - 1)));
  char *var_name = concat ("__profc_", lp_symbol_name (node->decl), NULL);
  tree counters = lp_build_section_var (var_name, type, LATEPGO_SEC_CNTS);
  free (var_name);
  SET_DECL_ALIGN (counters, 64);
  DECL_USER_ALIGN (counters) = 1;
  TREE_ADDRESSABLE (counters) = 1;
  DECL_INITIAL (counters) = build_constructor (type, NULL);
  varpool_node::finalize_decl (counters);

  lp_shard_begin (counters);
  /* Value sites first: their helper calls are part of the loops the
     counters may be promoted to.  Loops are found without fake edges.  */
  tree site_heads = lp_instrument_values (node, g);
  lp_release_graph (g);
  bool own_loops = lp_promote_begin ();
  auto_vec<class loop *> promote_to;
  if (!latepgo_opts.no_promote)
    lp_plan_promotions (g, &promote_to);
  g->n_promoted = 0;
  FOR_EACH_VEC_ELT (g->edges, i, le)
    if (le->counter >= 0
	&& lp_queue_counter (counters, le->counter, le->e,
			     latepgo_opts.no_promote ? NULL : promote_to[i]))
      g->n_promoted++;
  gsi_commit_edge_inserts ();
  lp_promote_end (own_loops);
  lp_instrument_first_run (g, counters);
  lp_shard_end (counters);
  instrument_exec_calls ();
  lp_inline_icall_targets ();
  lp_memop_count_branches ();

  lp_record r;
  r.name = xstrdup (name);
  r.counters = counters;
  r.checksum = g->checksum;
  r.n_counters = n_counters;
  r.fn = lp_indirect_target_p (node) ? node->decl : NULL_TREE;
  r.site_heads = site_heads;
  r.n_icall_sites = site_heads ? g->n_icall_sites : 0;
  r.n_memop_sites = site_heads ? g->n_memop_sites : 0;
  records.safe_push (r);
}

/* Append the ULEB128 encoding of V to OUT.  */

static void
push_uleb128 (auto_vec<char> *out, unsigned HOST_WIDE_INT v)
{
  do
    {
      unsigned char byte = v & 0x7f;
      v >>= 7;
      if (v)
	byte |= 0x80;
      out->safe_push ((char) byte);
    }
  while (v);
}

/* The names chunk of this file: ULEB128 length of the text, ULEB128
   length of its zlib stream (0 if stored plain), then the bytes.  */

static void
build_names_chunk (auto_vec<char> *chunk)
{
  auto_vec<char> text;
  unsigned i;
  lp_record *r;

  FOR_EACH_VEC_ELT (records, i, r)
    {
      if (i)
	text.safe_push (LATEPGO_NAME_SEPARATOR);
      for (const char *p = r->name; *p; p++)
	text.safe_push (*p);
    }

  uLongf zlen = compressBound (text.length ());
  unsigned char *z = XNEWVEC (unsigned char, zlen);
  bool compressed = (compress2 (z, &zlen, (const Bytef *) text.address (),
				text.length (), Z_BEST_COMPRESSION) == Z_OK
		     && zlen < text.length ());
  push_uleb128 (chunk, text.length ());
  if (compressed)
    {
      push_uleb128 (chunk, zlen);
      for (uLongf k = 0; k < zlen; k++)
	chunk->safe_push ((char) z[k]);
    }
  else
    {
      push_uleb128 (chunk, 0);
      chunk->safe_splice (text);
    }
  XDELETEVEC (z);
}

/* A read-only byte string variable NAME holding LEN bytes of DATA in
   SECTION.  */

static void
emit_bytes (const char *name, const char *data, size_t len,
	    const char *section)
{
  tree type = build_array_type (char_type_node,
				build_index_type (size_int (len - 1)));
  tree var = lp_build_section_var (name, type, section);
  tree str = build_string (len, data);
  TREE_TYPE (str) = type;
  TREE_READONLY (var) = 1;
  TREE_CONSTANT (var) = 1;
  SET_DECL_ALIGN (var, BITS_PER_UNIT);
  DECL_USER_ALIGN (var) = 1;
  DECL_INITIAL (var) = str;
  lp_mark_retained (var);
  varpool_node::finalize_decl (var);
  varpool_node::get (var)->force_output = 1;
}

/* A retained, read-only u64 NAME holding VALUE in SECTION, 8-aligned:
   a mark that tells the runtime something about this file's records
   (latepgo-abi.h, LATEPGO_SEC_RELOC and LATEPGO_SEC_COV).  */

static void
emit_u64_mark (const char *name, const char *section,
	       unsigned HOST_WIDE_INT value)
{
  tree u64 = long_long_unsigned_type_node;
  tree var = lp_build_section_var (name, u64, section);
  TREE_READONLY (var) = 1;
  TREE_CONSTANT (var) = 1;
  SET_DECL_ALIGN (var, 64);
  DECL_USER_ALIGN (var) = 1;
  DECL_INITIAL (var) = build_int_cstu (u64, value);
  lp_mark_retained (var);
  varpool_node::finalize_decl (var);
  varpool_node::get (var)->force_output = 1;
}

/* This file's share of the nodes of the module's indirect-call target
   lists (latepgo-abi.h): LATEPGO_ICALL_NODES_PER_SITE per site, zero.  */

static void
emit_value_nodes (void)
{
  unsigned HOST_WIDE_INT sites = 0;
  for (const lp_record &r : records)
    sites += r.n_icall_sites;
  if (!sites)
    return;
  /* A node is three u64s: value, count, next.  */
  tree type = build_array_type (long_long_unsigned_type_node,
				build_index_type (size_int
						  (3 * LATEPGO_ICALL_NODES_PER_SITE
						   * sites - 1)));
  tree var = lp_build_section_var ("__latepgo_vnodes", type,
				   LATEPGO_SEC_VNODES);
  SET_DECL_ALIGN (var, 64);
  DECL_INITIAL (var) = build_constructor (type, NULL);
  lp_mark_retained (var);
  varpool_node::finalize_decl (var);
  varpool_node::get (var)->force_output = 1;
}

/* The data records of this file and its names chunk, in the loaded
   image.  */

static void
emit_records_and_names (void)
{
  unsigned i;
  lp_record *r;
  tree rtype = get_record_type ();
  FOR_EACH_VEC_ELT (records, i, r)
    {
      const char *cnt_name = IDENTIFIER_POINTER (DECL_NAME (r->counters));
      char *var_name = concat ("__profd_", cnt_name + strlen ("__profc_"),
			       NULL);
      tree rec = lp_build_section_var (var_name, rtype, LATEPGO_SEC_DATA);
      free (var_name);
      SET_DECL_ALIGN (rec, 64);
      DECL_USER_ALIGN (rec) = 1;

      vec<constructor_elt, va_gc> *elts = NULL;
      tree f = TYPE_FIELDS (rtype);
      unsigned HOST_WIDE_INT name_ref
	= lp_md5_low64 (r->name, strlen (r->name));
      /* Each field as format/instrprof-data.def's INIT says.  */
#define LP_INIT_NAME_REF(TYPE) build_int_cstu (TYPE, name_ref)
#define LP_INIT_FUNC_HASH(TYPE) build_int_cstu (TYPE, r->checksum)
#define LP_INIT_COUNTERS(TYPE) lp_build_addr_diff (r->counters, rec)
#define LP_INIT_FUNCTION(TYPE) \
      (r->fn ? fold_convert (TYPE, build_fold_addr_expr (r->fn)) \
       : build_int_cst (TYPE, 0))
#define LP_INIT_VALUES(TYPE) \
      (r->site_heads \
       ? fold_convert (TYPE, build_fold_addr_expr (r->site_heads)) \
       : lp_build_addr_diff (runtime_decl, rec))
#define LP_INIT_NUM_COUNTERS(TYPE) build_int_cst (TYPE, r->n_counters)
#define LP_INIT_VALUE_SITES(TYPE) \
      build_int_cst (TYPE, k == LP_VK_INDIRECT_CALL ? r->n_icall_sites \
			   : k == LP_VK_MEMOP ? r->n_memop_sites : 0)
#define LP_RAW_DATA_ARRAY(CTYPE, COUNT, NAME, INIT, DOC)		\
      for (int k = 0; k < COUNT; k++, f = DECL_CHAIN (f))		\
	CONSTRUCTOR_APPEND_ELT (elts, f,				\
				LP_INIT_##INIT (LP_TREE_TYPE_##CTYPE));
#define LP_RAW_DATA_FIELD(CTYPE, NAME, INIT, DOC)	\
      LP_RAW_DATA_ARRAY (CTYPE, 1, NAME, INIT, DOC)
#include "../format/instrprof-data.def"
      DECL_INITIAL (rec) = build_constructor (rtype, elts);
      lp_mark_retained (rec);
      varpool_node::finalize_decl (rec);
      varpool_node::get (rec)->force_output = 1;
    }

  auto_vec<char> chunk;
  build_names_chunk (&chunk);
  emit_bytes ("__llvm_prf_nm", chunk.address (), chunk.length (),
	      LATEPGO_SEC_NAMES);
}

/* With lean: only the counters stay in the loaded image (lean.cc).  */

static void
finish_lean (void)
{
  auto_vec<lp_lean_fn> fns;
  unsigned i;
  lp_record *r;
  FOR_EACH_VEC_ELT (records, i, r)
    {
      lp_lean_fn f;
      f.counters = r->counters;
      f.name_ref = lp_md5_low64 (r->name, strlen (r->name));
      f.checksum = r->checksum;
      f.n_counters = r->n_counters;
      fns.safe_push (f);
    }
  auto_vec<char> chunk;
  build_names_chunk (&chunk);
  lp_lean_finish (fns, chunk.address (), chunk.length (), runtime_decl);
}

/* With coverage=function: a record for each function that has a byte
   in this file only through its inlined copies (coverage-inline.cc).  */

static void
add_inline_only_records (void)
{
  auto_vec<lp_inline_only_fn> fns;
  lp_coverage_inline_finish (&fns);
  for (const lp_inline_only_fn &f : fns)
    {
      lp_record r;
      r.name = f.name;
      r.counters = f.bytes;
      r.checksum = LATEPGO_FUNCTION_COVERAGE_HASH;
      r.n_counters = 1;
      r.fn = NULL_TREE;
      r.site_heads = NULL_TREE;
      r.n_icall_sites = r.n_memop_sites = 0;
      records.safe_push (r);
    }
}

/* Emit the records, the names chunk and the profile path of this
   file.  Called once, after the last function.  */

void
lp_generate_finish (void)
{
  unsigned i;
  lp_record *r;

  if (latepgo_opts.coverage == LP_FUNCTION_COVERAGE)
    add_inline_only_records ();
  if (records.is_empty ())
    return;

  lp_values_lean_warning ();
  if (latepgo_opts.lean)
    finish_lean ();
  else
    emit_records_and_names ();

  if (lp_relocation_p ())
    emit_u64_mark ("__latepgo_prf_reloc_n", LATEPGO_SEC_RELOC,
		   records.length ());
  if (latepgo_opts.coverage)
    emit_u64_mark ("__latepgo_prf_cov_n", LATEPGO_SEC_COV,
		   ((unsigned HOST_WIDE_INT) latepgo_opts.coverage << 32)
		   | records.length ());

  emit_value_nodes ();

  if (latepgo_opts.profile_path && *latepgo_opts.profile_path)
    emit_bytes ("__latepgo_prf_fname_str", latepgo_opts.profile_path,
		strlen (latepgo_opts.profile_path) + 1, LATEPGO_SEC_FNAME);

  FOR_EACH_VEC_ELT (records, i, r)
    free (r->name);
  records.release ();
}
