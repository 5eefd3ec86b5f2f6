/* main.c: memop.exp's program, built without the plugin, so that the
   profile has one record (copy.c's copy): copy's memcpy runs 1000
   times, 900 times with size 8 and 100 times with 100 (LLVM's memop
   range 65..127, whose representative value is 65).  */

#include <stddef.h>

extern char dst[];
extern void copy (size_t);
volatile int small = 8;

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    copy (i % 10 == 0 ? 100 : small);
  return dst[1];
}
