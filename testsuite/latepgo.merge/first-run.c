/* Functions that first run in an order set by the arguments: none:
   main, a, b; one or more: main, b, a, then only_args.  merge.exp runs
   it both ways and checks the first-run times (each function's last
   counter) of the merged profiles.  */

volatile int sink;

#define BODY(K)						\
  for (int i = 0; i < n; i++)				\
    if (i % K == 0)					\
      sink += i;					\
    else if (i % 7 == 1)				\
      sink -= i;

__attribute__ ((noinline)) void a (int n) { BODY (3) }
__attribute__ ((noinline)) void b (int n) { BODY (5) }
__attribute__ ((noinline)) void only_args (int n) { BODY (2) }

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc == 1)
    {
      a (10);
      b (10);
    }
  else
    {
      b (10);
      a (10);
      only_args (10);
    }
  return 0;
}
