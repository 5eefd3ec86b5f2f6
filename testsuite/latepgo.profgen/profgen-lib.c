/* The shared library of profgen.exp's shared-library test: lib_mix is
   called once per iteration of hotcold.c's loop.  */

__attribute__ ((noinline)) unsigned
lib_mix (unsigned x)
{
  for (int i = 0; i < 4; i++)
    x = (x << 5) ^ (x >> 3) ^ 0x5bd1e995u;
  return x;
}
