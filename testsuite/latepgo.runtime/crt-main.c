/* compiler-rt's runtime and latepgo's in one module: clang-instrumented
   code (crt-part.c) pulls in compiler-rt, latepgo-instrumented code
   (this file) pulls in libprof.  latepgo's runtime must stand down and
   compiler-rt writes the one profile, with main [1, 6] among its
   records; no default.profraw from latepgo.  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 2)
LP_NAMES ("main")

extern int crt_fn (int);

int
main (void)
{
  int s = 0;
  lp_main[0]++;
  for (int i = 0; i < 6; i++)
    {
      lp_main[1]++;
      s += crt_fn (i);
    }
  return s == 0;
}
