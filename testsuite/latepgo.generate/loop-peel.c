/* A loop that always runs twice is peeled by the use rebuild, as with
   native -fprofile-use (which also enables the growth cunroll needs
   for that: -fpeel-loops implies it only when given on the command
   line).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int two = 2;
unsigned char buf[64];

__attribute__ ((noinline)) int
sum (const unsigned char *p, int n)
{
  int s = 0;
  for (int i = 0; i < n && p[i]; i++)
    s += p[i] * 3;
  return s;
}

int
main (void)
{
  long t = 0;
  for (int i = 0; i < 64; i++)
    buf[i] = i + 1;
  for (int k = 0; k < 1000; k++)
    t += sum (buf + (k & 7), two);
  return t == 0;
}

/* { dg-final { scan-latepgo-use-tree-dump cunroll "^Peeled loop \[0-9\]+, 3 times" } } */
