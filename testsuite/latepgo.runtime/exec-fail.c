/* A failed exec after __latepgo_before_exec: the counters were written
   and reset, so the exit write adds only the later counts and nothing
   is counted twice: main [1, 5].  */

#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 2)
LP_NAMES ("main")

int
main (void)
{
  lp_main[0]++;
  __latepgo_before_exec ();
  execl ("/nonexistent/program", "program", (char *) 0);
  for (int i = 0; i < 5; i++)
    lp_main[1]++;
  return 0;
}
