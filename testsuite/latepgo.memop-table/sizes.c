/* sizes.c: the instrumented file of table.exp's program (main.c runs
   it): one function with two memop sites, a memcpy and a memcmp of
   the same varying size, counted through its own table block.  */

#include <stddef.h>
#include <string.h>

char dst[1024], src[1024];
int acc;

__attribute__ ((noinline)) void
both (size_t n)
{
  memcpy (dst, src, n);
  acc += memcmp (dst, src + 1, n);
}
