/* The build-time profile path (__latepgo_prf_fname) names the file
   unless the environment or __llvm_profile_set_filename says otherwise.
   With argv[1] == "api" the program calls
   __llvm_profile_set_filename ("api.profraw").  Counts: main [1].  */

#include <string.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")
LP_FNAME ("build.profraw")

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "api") == 0)
    __llvm_profile_set_filename ("api.profraw");
  lp_main[0]++;
  return 0;
}
