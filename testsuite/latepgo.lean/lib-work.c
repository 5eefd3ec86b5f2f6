/* lib-work.c: the shared library of the lean library test.  */

static int
step (int x)
{
  return x % 7 ? x / 2 : 3 * x + 1;
}

int
lib_run (int n)
{
  int s = 0;
  for (int i = 1; i <= n; i++)
    s += step (i);
  return s;
}
