/* Second file of static-name-clash.c.  */
static __attribute__ ((noinline)) int
helper (int x)
{
  return x * 2;
}

int
call_b_helper (int x)
{
  return helper (x);
}
