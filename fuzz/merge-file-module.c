/* merge-file-module.c: the instrumented code of the merge-file
   harness, built by GCC with the plugin in generate mode, so the
   harness's module has real profile sections for the runtime to
   write: two functions with a loop and a branch, values on (the
   first-run counter), an indirect call with two targets and a memcpy
   of varying size, so that the profile has value data of both kinds
   after its names.  */

#include <string.h>

volatile int fuzz_module_sink;
char fuzz_module_buf[64];
volatile unsigned fuzz_module_size = 8;

__attribute__ ((noinline)) void
fuzz_module_loop (int n)
{
  int i = 0;
  do
    fuzz_module_sink += i % 5 ? i : -i;
  while (++i < n);
}

void (*volatile fuzz_module_loops[2]) (int) = { fuzz_module_loop, 0 };

__attribute__ ((noinline)) void
fuzz_module_twice (int n)
{
  fuzz_module_loop (n);
  fuzz_module_loop (n);
}

void
fuzz_module_run (void)
{
  fuzz_module_loops[1] = fuzz_module_twice;
  for (int i = 0; i < 4; i++)
    {
      fuzz_module_loops[i & 1] (10 + i);
      memcpy (fuzz_module_buf, fuzz_module_buf + 32, fuzz_module_size + i);
    }
}
