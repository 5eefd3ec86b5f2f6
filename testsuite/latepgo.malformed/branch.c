/* A loop with a branch taken 3 times in 4, for the use build of a
   profile whose counts were scaled up by a huge weight.  */

volatile int sink;

__attribute__ ((noinline)) void
work (int n)
{
  for (int i = 0; i < n; i++)
    if (i % 4)
      sink += i;
    else
      sink -= 3 * i;
}

int
main (void)
{
  work (4000);
  return 0;
}
