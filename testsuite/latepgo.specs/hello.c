/* A small C program built through latepgo-generate.specs.  */
#include <stdio.h>

static int
collatz_steps (unsigned long n)
{
  int steps = 0;
  while (n != 1)
    {
      n = (n & 1) ? 3 * n + 1 : n / 2;
      steps++;
    }
  return steps;
}

int
main (void)
{
  int total = 0;
  for (unsigned long i = 1; i <= 100; i++)
    total += collatz_steps (i);
  printf ("%d\n", total);
  return 0;
}
