/* __latepgo_before_exec writes the counts before exec replaces the
   process, and the exec'd image (same run token, inherited through the
   environment) merges its own into the same file: main [1, 10].
   With argv[1] == "other", the program execs argv[2] instead (another
   instrumented program), whose profile is appended.  */

#include <string.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x2345, 2)
LP_NAMES ("main")

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "stage2") == 0)
    {
      for (int i = 0; i < 10; i++)
	lp_main[1]++;
      return 0;
    }
  lp_main[0]++;
  __latepgo_before_exec ();
  if (argc > 2 && strcmp (argv[1], "other") == 0)
    execl (argv[2], argv[2], "3", (char *) 0);
  else
    execl ("/proc/self/exe", argv[0], "stage2", (char *) 0);
  return 2;
}
