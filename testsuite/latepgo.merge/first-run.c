/* Functions that first run in an order set by the arguments: none:
   main, a, b; one or more: main, b, a, then only_args.  merge.exp runs
   it both ways and checks the first-run times (each function's last
   counter) of the merged profiles.  Each function has enough blocks
   of its own to get a first-run counter (LP_FIRST_RUN_MIN_BLOCKS).  */

volatile int sink;

__attribute__ ((noinline)) void
a (int n)
{
  for (int i = 0; i < n; i++)
    switch (i % 4)
      {
      case 0:
	sink += i;
	break;
      case 1:
	sink -= i;
	break;
      default:
	sink ^= i;
      }
}

__attribute__ ((noinline)) void
b (int n)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if ((i + j) % 3)
	sink += j;
}

__attribute__ ((noinline)) void
only_args (int n)
{
  while (n > 1)
    {
      if (n % 2)
	n = 3 * n + 1;
      else
	n /= 2;
      sink++;
    }
}

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc == 1)
    {
      a (10);
      b (10);
    }
  else
    {
      b (10);
      a (10);
      only_args (10);
    }
  return 0;
}
