/* __llvm_profile_reset_counters zeroes the counters: the exit write
   holds only what was counted after the reset, main [2].  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

int
main (void)
{
  lp_main[0] += 3;
  __llvm_profile_reset_counters ();
  lp_main[0] += 2;
  return 0;
}
