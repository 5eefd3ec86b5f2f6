/* The program of profgen.exp's memop-window test, which feeds
   latepgo-profgen made-up samples of it.  copy's memcpy takes its size
   from copy's own third argument: DX holds it from copy's entry to the
   call.  copy_twice's memcpy doubles its argument first.  copy_tail's
   memcpy is a tail call, a jump.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) size_t
copy (char *d, const char *s, size_t n)
{
  memcpy (d, s, n);
  return n * 3;
}

__attribute__ ((noinline)) size_t
copy_twice (char *d, const char *s, size_t n)
{
  memcpy (d, s, 2 * n);
  return n;
}

__attribute__ ((noinline)) void *
copy_tail (char *d, const char *s, size_t n)
{
  return memcpy (d, s, n);
}

int
main (int argc, char **argv)
{
  static char src[64] = "latepgo", dst[64];
  size_t n = argc > 1 ? strtoul (argv[1], NULL, 10) % 64 : 40;
  size_t r = copy (dst, src, n);
  r += copy_twice (dst, src, n / 2);
  copy_tail (dst + 1, src, n / 2);
  printf ("%zu %s\n", r, dst);
  return 0;
}
