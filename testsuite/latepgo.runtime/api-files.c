/* __llvm_profile_set_filename between writes: each file gets all the
   counts as of its write, as with compiler-rt: a.profraw main [3],
   b.profraw (at exit) main [5].  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

int
main (void)
{
  __llvm_profile_set_filename ("a.profraw");
  lp_main[0] += 3;
  if (__llvm_profile_write_file () != 0)
    return 2;
  __llvm_profile_set_filename ("b.profraw");
  lp_main[0] += 2;
  return 0;
}
