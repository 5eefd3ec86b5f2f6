/* The targets of fnptr-main.c's call: twice 99 times in 100, thrice
   once.  */

typedef int (*op_fn) (int);

int
twice (int x)
{
  return 2 * x;
}

int
thrice (int x)
{
  return 3 * x;
}

op_fn
pick_op (int i)
{
  return i % 100 == 0 ? thrice : twice;
}
