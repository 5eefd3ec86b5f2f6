/* pin-probes.c: a probes build for the pinned pseudo-probe sections and
   sample profile (pin.exp).  hot's loop and cold's body are separate
   probe regions; pin.exp's perf script samples their instructions.  */

volatile int sink;

__attribute__ ((noinline)) void
cold (int x)
{
  sink = x * 7;
}

__attribute__ ((noinline)) void
hot (int n)
{
  for (int i = 0; i < n; i++)
    {
      if (i % 3 == 0)
	sink += i;
      else
	sink -= 1;
    }
}

int
main (int argc, char **argv)
{
  (void) argv;
  hot (1000);
  if (argc > 1)
    cold (argc);
  return 0;
}
