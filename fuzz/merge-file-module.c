/* merge-file-module.c: the instrumented code of the merge-file
   harness, built by GCC with the plugin in generate mode, so the
   harness's module has real profile sections for the runtime to
   write: two functions with a loop and a branch, and values on (the
   first-run counter).  */

volatile int fuzz_module_sink;

__attribute__ ((noinline)) void
fuzz_module_loop (int n)
{
  int i = 0;
  do
    fuzz_module_sink += i % 5 ? i : -i;
  while (++i < n);
}

void
fuzz_module_run (void)
{
  for (int i = 0; i < 4; i++)
    fuzz_module_loop (10 + i);
}
