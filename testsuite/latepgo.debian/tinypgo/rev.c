/* rev.c: each line of standard input reversed.  */
#include <stdio.h>
#include <string.h>

static void
reverse (char *s, size_t n)
{
  for (size_t i = 0; i < n / 2; i++)
    {
      char t = s[i];
      s[i] = s[n - 1 - i];
      s[n - 1 - i] = t;
    }
}

int
main (void)
{
  char line[256];
  while (fgets (line, sizeof line, stdin))
    {
      size_t n = strcspn (line, "\n");
      reverse (line, n);
      fputs (line, stdout);
    }
  return 0;
}
