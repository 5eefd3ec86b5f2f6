/* The other file of lto-main.c.  */

__attribute__ ((noipa)) int
classify (unsigned x)
{
  if ((x >> 7) % 10 == 0)
    return (int) (x & 15) * 3;
  return (int) (x & 1);
}

/* With -DKEEP_APART, -flto leaves it out of line too.  */
#ifdef KEEP_APART
__attribute__ ((noipa))
#endif
int
weight (int c)
{
  return c > 40 ? c - 40 : c + 1;
}
