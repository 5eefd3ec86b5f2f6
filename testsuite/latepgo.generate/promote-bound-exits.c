/* A closed loop takes no more accumulators than 512 flushes on its
   exit edges allow (one per promoted counter and exit): this loop
   leaves by a return from each of the 40 cases of its switch and by
   its end, 41 exits, so 12 of its counters are promoted (512 / 41),
   not the 20 a loop may otherwise take.  (With 528 cases, GCC 11's own
   -fprofile-generate takes minutes on x86-64 and AArch64, in
   rewrite_into_loop_closed_ssa: a test of its compile time.)  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;
unsigned short data[4096];

#define C(k) case (k): if (s > (k) * 8u) return s ^ (k); s += (k); break;
#define C4(k) C (k) C ((k) + 1) C ((k) + 2) C ((k) + 3)
#define C16(k) C4 (k) C4 ((k) + 4) C4 ((k) + 8) C4 ((k) + 12)
#define C40(k) C16 (k) C16 ((k) + 16) C4 ((k) + 32) C4 ((k) + 36)

__attribute__ ((noinline)) unsigned
scan (int n)
{
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    switch (data[i] % 40)
      {
	C40 (0)
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

/* { dg-final { latepgo-dump-field scan promoted 12 } } */
