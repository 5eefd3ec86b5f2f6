/* merge-file-module.c: the instrumented code of the merge-file
   harness, built by GCC with the plugin in generate mode, so the
   harness's module has real profile sections for the runtime to
   write: two functions with a loop and a branch, and values on (the
   first-run counter).  */

volatile int fuzz_module_sink;

__attribute__ ((noinline)) void
fuzz_module_loop (int n)
{
  for (int i = 0; i < n; i++)
    if (i % 3 == 0)
      fuzz_module_sink += i;
    else if (i % 7 == 1)
      fuzz_module_sink -= i;
}

void
fuzz_module_run (void)
{
  for (int i = 0; i < 4; i++)
    fuzz_module_loop (10 + i);
}
