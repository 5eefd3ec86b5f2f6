/* Targets of indirect calls are counted by address (the runtime's
   per-site lists) and named in the profile; the use rebuild makes the
   usual target a direct call, which GCC then inlines.  The call's
   value is used after it: a call in tail position whose other targets
   are hot, as negate is here, is left indirect (tail-icall.cc).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

static int add1 (int x) { return x + 1; }
static int twice (int x) { return x * 2; }
static int negate (int x) { return -x; }
static long other (long x) { return x; }	/* Another type.  */

int (*volatile table[3]) (int) = { add1, twice, negate };
long (*volatile other_p) (long) = other;

__attribute__ ((noinline)) int
apply (int (*f) (int), int x)
{
  return f (x) * 3;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 1000; i++)
    s += apply (table[i % 10 == 0 ? 2 : 0], i);
  return (s + other_p (0)) == 0;
}

/* apply: the entry counter, the counter after the call (the indirect
   call may not return, so it ends its block: every call returned), the
   first-run rank (0: apply is too small to have one); the call's
   targets, the most called first.  */
/* { dg-final { latepgo-count "apply" {1000 1000 0} } } */
/* { dg-final { latepgo-ic-targets "apply" {0:latepgo.generate/values-icall.c:add1:900 0:latepgo.generate/values-icall.c:negate:100} } } */
/* { dg-final { scan-latepgo-use-dump "^  value site 0 targets add1:900 negate:100$" } } */
/* { dg-final { scan-latepgo-use-tree-dump optimized "if \\(f_\[0-9\]+\\(D\\) == add1\\)" } } */
