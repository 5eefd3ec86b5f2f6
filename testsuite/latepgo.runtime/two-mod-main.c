/* Two modules, each with its own runtime: this executable (main [1])
   and two-mod-lib.c's shared library (lib_fn [4]) each write their
   own profile; with one file name the second is appended to the
   first.  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

extern void lib_call (int);

int
main (void)
{
  lp_main[0]++;
  lib_call (4);
  return 0;
}
