/* exec.c: known counts in work (), then the program execs itself once;
   the second image does the work again and ends as argv[1] says
   ("kill": SIGKILL, else exit).  */

#include <signal.h>
#include <string.h>
#include <unistd.h>

volatile long sink;
int work (int);

__attribute__ ((noinline)) int
work (int i)
{
  return i % 3 == 0 ? i * 2 : i + 1;
}

int
main (int argc, char **argv)
{
  for (int i = 0; i < 1000; i++)
    sink += work (i);
  if (argc == 2)
    execl ("/proc/self/exe", argv[0], argv[1], "again", (char *) 0);
  if (argc > 1 && strcmp (argv[1], "kill") == 0)
    kill (getpid (), SIGKILL);
  return 0;
}
