/* lib-main.c: the executable of the lean library test; calls
   lib-work.c's shared library.  */

extern int lib_run (int);
volatile int sink;

int
main (void)
{
  for (int i = 0; i < 3; i++)
    sink += lib_run (200 + i);
  return 0;
}
