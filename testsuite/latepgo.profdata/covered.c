/* covered.exp: main, used and the static helper run; unused and
   only_with_args do not (the test runs it without arguments).  */

__attribute__ ((noinline)) int
used (int x)
{
  return x + 1;
}

__attribute__ ((noinline)) int
unused (int x)
{
  return x * 3;
}

__attribute__ ((noinline)) static int
helper (int x)
{
  return x - 1;
}

__attribute__ ((noinline)) int
only_with_args (int x)
{
  return x * x;
}

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc > 1)
    return only_with_args (argc) == 0;
  if (argc > 5)
    return unused (argc);
  return helper (used (argc)) - 1;
}
