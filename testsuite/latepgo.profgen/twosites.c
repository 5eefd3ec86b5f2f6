/* One function called from two call sites of main with different
   work: site A (work (1)) three times as often as site B (work (2)),
   each call about as long, for --csprof from IP samples with
   call stacks (profgen.exp, csprof-ip).  */

volatile unsigned long sink;

__attribute__ ((noipa)) unsigned long
work (int kind)
{
  unsigned long s = 0;
  if (kind == 1)
    for (unsigned long i = 0; i < 20000; i++)
      s += i * 3 + (s >> 3);
  else
    for (unsigned long i = 0; i < 20000; i++)
      s ^= i * 5 + (s << 1);
  return s;
}

int
main (void)
{
  /* Two loops: two call sites that cannot be merged.  */
  for (int n = 0; n < 18000; n++)
    sink += work (1);		/* Site A.  */
  for (int n = 0; n < 6000; n++)
    sink ^= work (2);		/* Site B.  */
  return 0;
}
