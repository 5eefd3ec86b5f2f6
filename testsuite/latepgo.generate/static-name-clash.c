/* Static functions with the same name in two files get two records
   (the profile name carries the file), each with its own counts.  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-additional-sources "helpers/static-name-clash-b.c" } */

static __attribute__ ((noinline)) int
helper (int x)
{
  return x + 1;
}

int call_b_helper (int);

int
main (void)
{
  int t = 0;
  for (int i = 0; i < 3; i++)
    t += helper (i);
  for (int i = 0; i < 5; i++)
    t += call_b_helper (i);
  return t == 6 + 20 ? 0 : 1;
}

/* { dg-final { scan-latepgo-dump-times "^function \[^ \]*static-name-clash.c:helper " 1 } } */
/* { dg-final { scan-latepgo-dump-times "^function \[^ \]*static-name-clash-b.c:helper " 1 } } */
/* { dg-final { latepgo-entry-count "static-name-clash.c:helper" 3 } } */
/* { dg-final { latepgo-entry-count "static-name-clash-b.c:helper" 5 } } */
