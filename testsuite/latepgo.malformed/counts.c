/* A small program for the runtime's merge tests: a loop and a branch
   in a function profiled with values (so with a first-run time).  */

volatile int sink;

__attribute__ ((noinline)) void
loop (int n)
{
  for (int i = 0; i < n; i++)
    if (i % 3 == 0)
      sink += i;
    else if (i % 7 == 1)
      sink -= i;
}

int
main (void)
{
  loop (10);
  return 0;
}
