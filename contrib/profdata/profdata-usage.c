/* profdata-usage.c: lp_usage_asked (profdata-cmd.h), shared by the
   command line of latepgo-profdata and by the subcommands that take
   no options.  */

#include "profdata-cmd.h"

#include <string.h>

int
lp_usage_asked (int argc, char **argv, void (*usage) (FILE *))
{
  if (argc < 2)
    {
      usage (stderr);
      return 1;
    }
  if (strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "--help") == 0)
    {
      usage (stdout);
      return 0;
    }
  return -1;
}
