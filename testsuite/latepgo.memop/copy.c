/* copy.c: the instrumented file of memop.exp's program (main.c runs
   it): one memcpy of varying size.  */

#include <stddef.h>
#include <string.h>

char dst[4096], src[4096];

__attribute__ ((noinline)) void
copy (size_t n)
{
  memcpy (dst, src, n);
}
