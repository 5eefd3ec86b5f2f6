/* A closed loop whose counters would need more than 512 flushes on its
   exit edges (one per promoted counter and exit) keeps them on their
   edges: this loop leaves by a return from each of the 528 cases of
   its switch, so even one accumulator would take 528 flushes, and
   promoting all its counters over a quarter of a million.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;
unsigned short data[4096];

#define C(k) case (k): if (s > (k) * 8u) return s ^ (k); s += (k); break;
#define C4(k) C (k) C ((k) + 1) C ((k) + 2) C ((k) + 3)
#define C16(k) C4 (k) C4 ((k) + 4) C4 ((k) + 8) C4 ((k) + 12)
#define C64(k) C16 (k) C16 ((k) + 16) C16 ((k) + 32) C16 ((k) + 48)
#define C256(k) C64 (k) C64 ((k) + 64) C64 ((k) + 128) C64 ((k) + 192)
#define C528(k) C256 (k) C256 ((k) + 256) C16 ((k) + 512)

__attribute__ ((noinline)) unsigned
scan (int n)
{
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    switch (data[i] % 528)
      {
	C528 (0)
      }
  return s;
}

int
main (void)
{
  for (int i = 0; i < 4096; i++)
    data[i] = i * 7;
  sink = scan (4096);
  return 0;
}

/* { dg-final { latepgo-dump-field scan promoted 0 } } */
