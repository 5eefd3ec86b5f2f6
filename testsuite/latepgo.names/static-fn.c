/* The program of names.exp and gccflags.exp: one static function, one
   global.  */

static __attribute__ ((noinline)) int
sfun (int x)
{
  return x + 1;
}

int
main (int argc, char **argv)
{
  (void) argv;
  return sfun (argc) - 2;
}
