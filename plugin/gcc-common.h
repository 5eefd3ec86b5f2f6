/* gcc-common.h: every GCC header the plugin needs, in an order that
   compiles with GCC 12's plugin headers.  Include this first.  */

#ifndef LATEPGO_GCC_COMMON_H
#define LATEPGO_GCC_COMMON_H

#include "gcc-plugin.h"
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

#endif /* LATEPGO_GCC_COMMON_H */
