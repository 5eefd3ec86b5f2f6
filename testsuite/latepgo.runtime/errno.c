/* The runtime's hooks preserve errno: __latepgo_before_exec, the fork
   child handler and the API functions.  Prints "errno preserved".  */

#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

int
main (void)
{
  lp_main[0]++;
  errno = 42;
  __latepgo_before_exec ();
  if (errno != 42)
    return 2;
  errno = 43;
  __llvm_profile_write_file ();
  __llvm_profile_set_filename ("errno.profraw");
  __llvm_profile_reset_counters ();
  if (errno != 43)
    return 3;
  errno = 44;
  pid_t child = fork ();
  if (child == 0)
    _exit (errno == 44 ? 0 : 1);
  int status;
  waitpid (child, &status, 0);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 4;
  printf ("errno preserved\n");
  return 0;
}
