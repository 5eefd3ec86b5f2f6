/* An indirect call whose hot target is a static function of the same
   file (icall.exp: moved-unit-promoted).  Compiled from two build
   directories at different depths, the file's static functions have
   other profile names in the use build than in training.  */

typedef int (*op_t) (int);

__attribute__ ((noinline)) static int
twice (int x)
{
  return 2 * x;
}

__attribute__ ((noinline)) static int
thrice (int x)
{
  return 3 * x;
}

op_t volatile ops[2] = { twice, thrice };

__attribute__ ((noinline)) int
run (int i)
{
  return ops[i % 100 == 0] (i);
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 10000; i++)
    s += run (i);
  return s == 0;
}
