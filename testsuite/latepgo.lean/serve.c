/* serve.c: a server's main loop, left through exit() in a callee
   (serve-handle.c), for lean-counts.exp.  */

#include <stdlib.h>

extern int handle (int);
extern int last_request;

static int served;

__attribute__ ((noinline)) int
serve (void)
{
  for (int req = 0;; req++)
    served += handle (req);
}

int
main (int argc, char **argv)
{
  last_request = argc > 1 ? atoi (argv[1]) : 10;
  serve ();
  return 0;
}
