/* A second program of probes.exp, after SQLite's register allocator:
   GCC splits release_temp_reg and release_temp_range into a header
   and a body (.part.0), inlines the headers early and the bodies back
   late, so the probes of release_temp_reg.part.0 reach
   release_temp_range through release_temp_range.part.0.  */
#include <stdio.h>
typedef struct Parse { int nTempReg; int aTempReg[8]; int nMem; int iRangeReg; int nRangeReg; int nErr; } Parse;
volatile int sink;

__attribute__ ((noinline)) void
release_registers (Parse *p, int i, int n)
{
  sink += i + n + p->nMem;
}

void
release_temp_reg (Parse *p, int reg)
{
  if (reg)
    {
      release_registers (p, reg, 1);
      if (p->nTempReg < 8)
	p->aTempReg[p->nTempReg++] = reg;
    }
}

void
release_temp_range (Parse *p, int reg, int n)
{
  if (n == 1)
    {
      release_temp_reg (p, reg);
      return;
    }
  release_registers (p, reg, n);
  if (n > p->nRangeReg)
    {
      p->nRangeReg = n;
      p->iRangeReg = reg;
    }
}

int
main (int argc, char **argv)
{
  Parse p = { 0 };
  for (int i = 0; i < argc * 100; i++)
    {
      release_temp_range (&p, i, 1 + (i & 3));
      release_temp_reg (&p, i & 7);
    }
  printf ("%d %d\n", p.nTempReg, sink);
  return 0;
}
