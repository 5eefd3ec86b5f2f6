/* nested-calls.c: GCC inlines value_double into sum early, before the
   probes are numbered, and real_value into that copy later: real_value
   is an inlinee of sum at sum's call of real_value.  The call of step
   on the same line has the same locus as the early-inlined copy of
   value_double, but another callee.  */

typedef struct mem { int flags; double r; long i; } mem;

static double __attribute__ ((noinline))
slow_real (mem *p)
{
  return (double) p->i * 1.5;
}

static double
real_value (mem *p)
{
  if (p->flags & 1)
    return p->r;
  if (p->flags & 2)
    return (double) p->i;
  return slow_real (p);
}

double
value_double (mem *p)
{
  return real_value (p);
}

static void __attribute__ ((noinline))
step (double *acc, double x)
{
  *acc += x;
}

/* Kept apart from main, so that its probes are its own with -flto.  */
__attribute__ ((noinline, noclone)) double
sum (mem *m, int n)
{
  double acc = 0;
  for (int i = 0; i < n; i++)
    {
      if (m[i].flags & 4)
	step (&acc, value_double (&m[i]));
      else
	acc += 1;
    }
  return acc;
}

int
main (void)
{
  mem m[3] = { { 1, 2.0, 0 }, { 6, 0, 3 }, { 4, 0, 5 } };
  return (int) sum (m, 3) == 11 ? 0 : 1;
}
