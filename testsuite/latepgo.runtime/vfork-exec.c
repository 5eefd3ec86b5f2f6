/* exec from a vfork child: the child shares the parent's memory, so
   __latepgo_before_exec leaves the counts to the parent; the exec'd
   image and the parent each write their own: main [1, 10, 100].  */

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 3)
LP_NAMES ("main")

/* The stage2 branch repeats exec.c's on purpose: each test program
   stays one file that reads on its own.  */
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
  pid_t child = vfork ();
  if (child == 0)
    {
      __latepgo_before_exec ();
      execl ("/proc/self/exe", "vfork-exec", "stage2", (char *) 0);
      _exit (127);
    }
  int status;
  waitpid (child, &status, 0);
  for (int i = 0; i < 100; i++)
    lp_main[2]++;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 3;
}
