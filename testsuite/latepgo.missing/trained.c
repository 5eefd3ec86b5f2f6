/* The trained program of missing.exp.  With -DNEW_FUNCTION it has a
   function the training build did not have (and nothing else
   changes).  */

static volatile int sink;

static __attribute__ ((noinline)) void
work (int i)
{
  if (i % 3)
    sink = i;
  else
    sink = -i;
}

#ifdef NEW_FUNCTION
__attribute__ ((noinline)) void
new_function (int i)
{
  for (int k = 0; k < i; k++)
    sink = k;
}
#endif

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    work (i);
  return 0;
}
