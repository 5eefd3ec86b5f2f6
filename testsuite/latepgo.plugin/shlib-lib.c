/* The shared library of the plugin.exp use test with a shared library:
   lib_work runs 100 times, lib_unused never.  */

volatile int lib_sink;

int
lib_work (int i)
{
  if (i % 4 == 0)
    lib_sink += i;
  return lib_sink;
}

int
lib_unused (int i)
{
  return lib_sink * i;
}
