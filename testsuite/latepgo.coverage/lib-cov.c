/* lib-cov.c: a shared library for lib-main.c: lib_used runs,
   lib_unused does not.  */

volatile int lib_sink;

int
lib_used (int n)
{
  lib_sink += n;
  return lib_sink;
}

int
lib_unused (int n)
{
  lib_sink -= n;
  return lib_sink;
}
