/* A function whose name is a UTF-8 C identifier.  */

volatile int sink;

__attribute__ ((noinline)) int
café (int n)
{
  for (int i = 0; i < n; i++)
    if (i % 3)
      sink += i;
  return sink;
}

int
main (void)
{
  return café (10) == 12345;
}
