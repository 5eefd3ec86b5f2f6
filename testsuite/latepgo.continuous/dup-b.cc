/* dup-b.cc: the other copy of dup.h's twice (); ends as argv[1] says
   ("kill": SIGKILL, else exit).  */

#include "dup.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

int fa (int);
volatile int sink;

int
main (int argc, char **argv)
{
  for (int i = 0; i < 10; i++)
    sink += fa (i) + twice (i);
  if (argc > 1 && strcmp (argv[1], "kill") == 0)
    kill (getpid (), SIGKILL);
  return 0;
}
