/* A hot call through a function pointer whose usual target is defined
   in another file (fnptr-ops.c); run is kept out of line so the call
   stays indirect until the profile says where it goes.  */

typedef int (*op_fn) (int);
extern op_fn pick_op (int);

__attribute__ ((noinline)) int
run (op_fn f, int x)
{
  return f (x);
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 10000; i++)
    s += run (pick_op (i), i);
  return s == 42;
}
