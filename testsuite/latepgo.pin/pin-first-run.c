/* pin-first-run.c: known first-run order for the pinned profiles
   (pin.exp).  main runs first, then c, a and b, so the first-run
   counters (the last counter of each function large enough to get one:
   four blocks of its own) hold 1, 2, 3 and 4.  The runtime takes them
   from a call counter, not a clock, so every run writes the same
   values.  never_run keeps 0.  */

volatile int sink;

/* Inlined (always, so before instrumentation): each caller has the
   loop's blocks of its own.  */
static inline __attribute__ ((always_inline)) void
mix (int n, int k)
{
  for (int i = 0; i < n; i++)
    {
      if (i % k == 0)
	sink += i;
      else if (i % 7 == 1)
	sink -= i;
    }
}

__attribute__ ((noinline)) void a (int n) { mix (n, 3); }
__attribute__ ((noinline)) void b (int n) { mix (n, 5); }
__attribute__ ((noinline)) void c (int n) { mix (n, 2); }
__attribute__ ((noinline)) void never_run (int n) { mix (n, 4); }

int
main (void)
{
  for (int i = 0; i < 2; i++)
    {
      c (6);
      a (6);
      b (6);
    }
  if (sink == 12345)
    never_run (1);
  return 0;
}
