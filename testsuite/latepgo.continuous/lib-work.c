/* lib-work.c: a shared library with known counts in lib_work ().  */

__attribute__ ((noinline)) int
lib_work (int i)
{
  return i & 1 ? i * 3 : i / 2;
}

int
lib_run (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += lib_work (i);
  return s;
}
