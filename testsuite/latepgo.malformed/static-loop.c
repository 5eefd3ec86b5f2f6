/* A static function, named "FILE:loop" in the profile: copied to a
   file whose name starts with '#' by malformed.exp.  */

volatile int sink;

__attribute__ ((noinline)) static void
loop (int n)
{
  for (int i = 0; i < n; i++)
    if (i % 3 == 0)
      sink += i;
}

int
main (void)
{
  loop (10);
  return 0;
}
