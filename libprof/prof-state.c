/* prof-state.c: the runtime's per-module state (prof-internal.h), in a
   file of its own: the lifecycle hooks (prof-core.c) and the profile
   writer (prof-file.c) both use it, and neither should need the other
   for it.  */

#include "prof-internal.h"

struct lp_state lp_state = { .write_fd = -1 };
