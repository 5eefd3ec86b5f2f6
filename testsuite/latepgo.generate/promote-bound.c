/* A closed loop takes at most 20 counters into accumulators: every
   accumulator is live in all the loop's blocks and flushed on all its
   exits, so a loop with hundreds of counters (a generated scanner)
   would otherwise give GCC hundreds of thousands of PHIs and flushes
   to chew on for minutes.  This loop has one counter per case of a
   256-case switch and a single exit; only 20 of them are promoted.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;
unsigned char data[1024];

#define C(k) case (k): s = s * 3 + (k); break;
#define C4(k) C (k) C ((k) + 1) C ((k) + 2) C ((k) + 3)
#define C16(k) C4 (k) C4 ((k) + 4) C4 ((k) + 8) C4 ((k) + 12)
#define C64(k) C16 (k) C16 ((k) + 16) C16 ((k) + 32) C16 ((k) + 48)
#define C256(k) C64 (k) C64 ((k) + 64) C64 ((k) + 128) C64 ((k) + 192)

__attribute__ ((noinline)) unsigned
scan (int n)
{
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    switch (data[i])
      {
	C256 (0)
      }
  return s;
}

int
main (void)
{
  for (int i = 0; i < 1024; i++)
    data[i] = i * 7;
  sink = scan (1024);
  return 0;
}

/* { dg-final { latepgo-dump-field scan promoted 20 } } */
