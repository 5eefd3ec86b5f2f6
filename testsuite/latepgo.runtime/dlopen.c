/* A shared library loaded with dlopen writes its profile when it is
   unloaded (its exit handler belongs to it), and forking after dlclose
   is safe (its fork handler went with it): lib_fn [4] from the library
   (argv[1], two-mod-lib.c), main [1] from this program, in one file.  */

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

int
main (int argc, char **argv)
{
  lp_main[0]++;
  void *h = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return 2;
  void (*lib_call) (int) = (void (*) (int)) dlsym (h, "lib_call");
  if (!lib_call)
    return 3;
  lib_call (4);
  if (dlclose (h) != 0)
    return 4;
  pid_t child = fork ();
  if (child == 0)
    _exit (0);
  int status;
  waitpid (child, &status, 0);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 5;
}
