/* gcc-common.h: every GCC header the plugin needs, in an order that
   compiles with the plugin headers of GCC 11 and GCC 12, and the one
   place that hides their differences.  Include this first.

   As the Linux kernel's scripts/gcc-plugins/gcc-common.h, the passes
   are written against GCC 12's interfaces, and this file supplies them
   for GCC 11 (BUILDING_GCC_MAJOR, from bversion.h); no other file of
   the plugin tests the GCC version.  What GCC 11 lacks:

     gcov-iov.h           gcov-io.h includes it, but gcc-11-plugin-dev
                          does not ship it: plugin/Makefile generates
                          it (gen/gcov-iov.h) from the compiler's own
                          .gcno header
     startswith           system.h's prefix test (GCC 12)
     remap_profile_filename  -fprofile-prefix-map (GCC 12); GCC 11's
                          -ffile-prefix-map maps __FILE__ and debug
                          info only, and its macro map is what
                          profile names get instead (doc/usage.md)
     loops_list           the range over a function's loops (GCC 12);
                          GCC 11 has FOR_EACH_LOOP's loop_iterator
     lp_keep_debug_markers  the per-function debug_nonbind_markers_p
                          of GCC 12 (an Optimization option there, a
                          global one in GCC 11)

   Anything else a new GCC changes goes here too.  */

#ifndef LATEPGO_GCC_COMMON_H
#define LATEPGO_GCC_COMMON_H

#include "gcc-plugin.h"
#include "bversion.h"
#include "tree-pass.h"
#include "context.h"
#include "tree.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "basic-block.h"
#include "cgraph.h"
#include "cfganal.h"
#include "cfghooks.h"
#include "tree-cfg.h"
#include "tree-cfgcleanup.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "stringpool.h"
#include "varasm.h"
#include "attribs.h"
#include "profile.h"
#include "predict.h"
#include "diagnostic-core.h"
#include "diagnostic.h"
#include "tree-ssa-loop-niter.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "builtins.h"
#include "memmodel.h"
#include "cfgloop.h"
#include "options.h"
#include "opts.h"
#include "tree-dfa.h"
#include "gimplify.h"
#include "sreal.h"
#include "gcov-io.h"
#include "md5.h"
#include "file-prefix-map.h"
#include "langhooks.h"
#include "output.h"
#include "intl.h"
#include "tree-inline.h"
#include "tree-eh.h"
#include "internal-fn.h"

#if BUILDING_GCC_MAJOR < 11 || BUILDING_GCC_MAJOR > 12
#error "latepgo supports GCC 11 and GCC 12 (see doc/usage.md)"
#endif

#if BUILDING_GCC_MAJOR < 12

/* True if STR starts with PREFIX (GCC 12's system.h).  */

static inline bool
startswith (const char *str, const char *prefix)
{
  return strncmp (str, prefix, strlen (prefix)) == 0;
}

/* GCC 11 maps no profile names.  Its -ffile-prefix-map fills the
   macro and debug maps; the macro map (-ffile-prefix-map and
   -fmacro-prefix-map) names the main file as __FILE__ does, so a
   build reproducible under GCC 12's -ffile-prefix-map stays so.  */

static inline const char *
remap_profile_filename (const char *filename)
{
  return remap_macro_filename (filename);
}

/* for (auto loop : loops_list (fn, flags)), over GCC 11's
   loop_iterator: the same loops in the same order.  */

class loops_list
{
public:
  loops_list (function *fn, unsigned flags)
    : m_first (NULL), m_iter (fn, &m_first, flags)
  {
  }

  class iterator
  {
  public:
    iterator (loop_iterator *it, loop_p loop) : m_it (it), m_loop (loop) {}
    loop_p operator* () const { return m_loop; }
    iterator &operator++ ()
    {
      m_loop = m_it->next ();
      return *this;
    }
    bool operator!= (const iterator &other) const
    {
      return m_loop != other.m_loop;
    }

  private:
    loop_iterator *m_it;
    loop_p m_loop;
  };

  iterator begin () { return iterator (&m_iter, m_first); }
  iterator end () { return iterator (&m_iter, NULL); }

private:
  /* Declared first: M_ITER's constructor sets it.  */
  loop_p m_first;
  loop_iterator m_iter;
};

/* Keep the debug markers of the function whose optimization options
   are OPTS.  GCC 11's debug_nonbind_markers_p is global only, and the
   caller sets it.  */

static inline void
lp_keep_debug_markers (tree)
{
}

#else

static inline void
lp_keep_debug_markers (tree opts)
{
  TREE_OPTIMIZATION (opts)->x_debug_nonbind_markers_p = 1;
}

#endif

#endif /* LATEPGO_GCC_COMMON_H */
