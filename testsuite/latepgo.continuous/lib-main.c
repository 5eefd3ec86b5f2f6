/* lib-main.c: calls lib-work.c's shared library, then ends as argv[1]
   says ("kill": SIGKILL, else exit).  */

#include <signal.h>
#include <string.h>
#include <unistd.h>

extern int lib_run (int);
volatile int sink;

int
main (int argc, char **argv)
{
  sink = lib_run (500);
  if (argc > 1 && strcmp (argv[1], "kill") == 0)
    kill (getpid (), SIGKILL);
  return 0;
}
