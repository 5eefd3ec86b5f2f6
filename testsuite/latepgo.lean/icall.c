/* icall.c: an indirect call, which a lean build leaves unprofiled and
   says so (-Wlatepgo-lean-icall).  */

static int
square (int x)
{
  return x * x;
}

int (*volatile pick) (int) = square;

int
main (void)
{
  return pick (3) != 9;
}
