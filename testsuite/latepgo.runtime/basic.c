/* A program with two instrumented functions and known counts: main
   [1, N] and foo [N], N from argv[1] (default 5).  Prints its pid and
   exits with status argv[2] (default 0).  Used by the file name,
   pattern, merging and error tests.  */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 2)
LP_FUNCTION (foo, LP_MD5_foo, 0x99, 1)
LP_NAMES ("main\\001foo")

static void
foo (void)
{
  lp_foo[0]++;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 5;
  lp_main[0]++;
  for (int i = 0; i < n; i++)
    {
      lp_main[1]++;
      foo ();
    }
  printf ("%d\n", (int) getpid ());
  return argc > 2 ? atoi (argv[2]) : 0;
}
