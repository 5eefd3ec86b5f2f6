/* value-sites.cc: which statements of a function are value sites (a
   memop of variable size, an indirect call), and the words they add to
   the function's checksum.  The instrumentation graph (cfg-graph.cc)
   collects them and checksums them; values.cc instruments and annotates
   them.  */

#include "gcc-common.h"
#include "value-sites.h"
#include "memcmp-version.h"
#include "../libprof/latepgo-abi.h"

/* Whether STMT is a memop with a variable size; its size argument
   index in *SIZE_ARG.  The calls GCC itself would profile
   (interesting_stringop_to_profile_p), and memcmp and bcmp as LLVM.  */

bool
lp_memop_site_p (gimple *stmt, int *size_arg)
{
  if (!is_gimple_call (stmt) || !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL))
    return false;
  switch (DECL_FUNCTION_CODE (gimple_call_fndecl (stmt)))
    {
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMPCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMSET:
    /* Not profiled by GCC; by LLVM, and versioned here
       (memcmp-version.cc).  */
    case BUILT_IN_MEMCMP:
    case BUILT_IN_BCMP:
      *size_arg = 2;
      break;
    case BUILT_IN_BZERO:
      *size_arg = 1;
      break;
    default:
      return false;
    }
  tree size = gimple_call_arg (stmt, *size_arg);
  return TREE_CODE (size) != INTEGER_CST && INTEGRAL_TYPE_P (TREE_TYPE (size));
}

/* Whether STMT calls through a pointer.  */

bool
lp_icall_site_p (gimple *stmt)
{
  return (is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
	  && !gimple_call_fndecl (stmt) && gimple_call_fntype (stmt));
}

/* Collect the value sites of the current function into SITES, in
   block order, and their numbers: *N_ICALL indirect calls, *N_MEMOP
   memops, of which *N_CMP memcmp and bcmp calls.  */

void
lp_find_value_sites (vec<lp_value_site> *sites, int *n_icall, int *n_memop,
		     int *n_cmp)
{
  basic_block bb;
  int size_arg;

  sites->truncate (0);
  *n_icall = 0;
  *n_memop = 0;
  *n_cmp = 0;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	lp_value_site site = { stmt, false, 0, false };
	if (lp_memop_site_p (stmt, &size_arg)
	    && *n_memop < LATEPGO_MAX_VALUE_SITES)
	  {
	    site.index = (*n_memop)++;
	    site.cmp = lp_memcmp_call_p (stmt);
	    *n_cmp += site.cmp;
	  }
	else if (lp_icall_site_p (stmt)
		 && *n_icall < LATEPGO_MAX_VALUE_SITES)
	  {
	    site.icall = true;
	    site.index = (*n_icall)++;
	  }
	else
	  continue;
	sites->safe_push (site);
      }
}

/* The kind words of the value sites in the checksum, with the number
   of counters each has: an indirect call (none); a memop whose sizes
   are value data (none); and, for lp_checksum_value_sites's
   MEMOP_COUNTERS, a memop as latepgo before its sizes were value data
   wrote it, with LATEPGO_MEMOP_BUCKETS counters.  The memop's word
   differs from that older one so that an older profile of a function
   with memops never matches (use.cc says why).  */
#define CHECKSUM_ICALL 1
#define CHECKSUM_MEMOP_VALUES 2
#define CHECKSUM_MEMOP_COUNTERS 0

/* Append the value SITES (N_CMP of them memcmp or bcmp calls) to the
   checksummed BYTES: kind, block and number of counters
   (doc/data-path.md section 4).  With
   MEMOP_COUNTERS, the words latepgo wrote for the same sites when memop
   sizes were counters; with BEFORE_CMP, or MEMOP_COUNTERS, those it
   wrote before it profiled memcmp and bcmp, without their sites.  */

void
lp_checksum_value_sites (const vec<lp_value_site> &sites, int n_cmp,
			 vec<unsigned char> *bytes, bool memop_counters,
			 bool before_cmp)
{
  auto push_word = [bytes] (unsigned HOST_WIDE_INT w)
    {
      for (int k = 0; k < 4; k++)
	bytes->safe_push ((unsigned char) (w >> (8 * k)));
    };
  bool skip_cmp = before_cmp || memop_counters;
  push_word (0x76616c73);	/* "vals" */
  push_word (sites.length () - (skip_cmp ? n_cmp : 0));
  for (const lp_value_site &s : sites)
    {
      if (s.cmp && skip_cmp)
	continue;
      push_word (s.icall ? CHECKSUM_ICALL
		 : memop_counters ? CHECKSUM_MEMOP_COUNTERS
		 : CHECKSUM_MEMOP_VALUES);
      push_word (gimple_bb (s.stmt)->index);
      push_word (!s.icall && memop_counters ? LATEPGO_MEMOP_BUCKETS : 0);
    }
}
