/* The loop of brstack.exp: main calls work once an iteration, so a
   made-up branch stack of iterations (the return from work, the call,
   the jump back to the loop head) gives known counts.  */

volatile int sink;

__attribute__ ((noipa)) int
work (int x)
{
  return x * 3 + 1;
}

int
main (int argc, char **argv)
{
  int s = 0;
  (void) argv;
  for (int i = 0; i < 1000 + argc; i++)
    s += work (i);
  sink = s;
  return 0;
}
