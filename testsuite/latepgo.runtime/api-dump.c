/* __llvm_profile_dump writes once and disables every later write,
   including the one at exit: the file holds main [3], not [5].  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

int
main (void)
{
  lp_main[0] += 3;
  if (__llvm_profile_dump () != 0)
    return 2;
  lp_main[0] += 2;
  if (__llvm_profile_write_file () != 0)
    return 3;
  return 0;
}
