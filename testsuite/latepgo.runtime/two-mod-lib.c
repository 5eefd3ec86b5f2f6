/* The shared-library half of the two-module test (two-mod-main.c):
   lib_fn [N] for lib_call (N).  Linked with its own copy of libprof.  */

#include "lp-test.h"

LP_FUNCTION (lib_fn, LP_MD5_lib_fn, 0x11, 1)
LP_NAMES ("lib_fn")

void
lib_call (int n)
{
  for (int i = 0; i < n; i++)
    lp_lib_fn[0]++;
}
