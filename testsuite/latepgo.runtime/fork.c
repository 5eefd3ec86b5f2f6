/* Fork children count from zero: the parent, a child and a grandchild
   each count in their own slot of main, and the profile of the whole
   tree must be exactly main [3, 10, 100] (with %p: one file each).  */

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 3)
LP_NAMES ("main")

int
main (void)
{
  lp_main[0]++;
  pid_t child = fork ();
  if (child < 0)
    return 2;
  if (child == 0)
    {
      for (int i = 0; i < 10; i++)
	lp_main[1]++;
      pid_t grandchild = fork ();
      if (grandchild == 0)
	{
	  for (int i = 0; i < 100; i++)
	    lp_main[2]++;
	  exit (0);
	}
      waitpid (grandchild, NULL, 0);
      exit (0);
    }
  int status;
  waitpid (child, &status, 0);
  lp_main[0] += 2;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 3;
}
