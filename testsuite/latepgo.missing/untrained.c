/* A second program of the same package that the training run never
   ran (as bzip2recover next to bzip2): its main shares the trained
   main's name but not its control flow, its other functions have no
   record at all.  */

static volatile int sink;

static __attribute__ ((noinline)) int
recover (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    t += i & 7;
  return t;
}

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc > 3)
    sink = 1;
  return recover (argc * 100) == 12345;
}
