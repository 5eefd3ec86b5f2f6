/* A site with more targets than a list keeps (LATEPGO_ICALL_MAX_TARGETS,
   16): t0..t15 are called 100 + i times each, then t16..t19 once each.
   As compiler-rt, each call of a target not in the full list takes one
   count from the least counted target (t0) instead of taking its
   place, so the hot targets stay: t0 ends at 96, t16..t19 are not
   kept.  The three sites of unused give the module's node pool (4 nodes
   per site) room for the 16 targets of the hot site.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

typedef int (*fn_t) (int);
__attribute__ ((noinline)) int t0 (int x) { return x + 0; }
__attribute__ ((noinline)) int t1 (int x) { return x + 1; }
__attribute__ ((noinline)) int t2 (int x) { return x + 2; }
__attribute__ ((noinline)) int t3 (int x) { return x + 3; }
__attribute__ ((noinline)) int t4 (int x) { return x + 4; }
__attribute__ ((noinline)) int t5 (int x) { return x + 5; }
__attribute__ ((noinline)) int t6 (int x) { return x + 6; }
__attribute__ ((noinline)) int t7 (int x) { return x + 7; }
__attribute__ ((noinline)) int t8 (int x) { return x + 8; }
__attribute__ ((noinline)) int t9 (int x) { return x + 9; }
__attribute__ ((noinline)) int t10 (int x) { return x + 10; }
__attribute__ ((noinline)) int t11 (int x) { return x + 11; }
__attribute__ ((noinline)) int t12 (int x) { return x + 12; }
__attribute__ ((noinline)) int t13 (int x) { return x + 13; }
__attribute__ ((noinline)) int t14 (int x) { return x + 14; }
__attribute__ ((noinline)) int t15 (int x) { return x + 15; }
__attribute__ ((noinline)) int t16 (int x) { return x + 16; }
__attribute__ ((noinline)) int t17 (int x) { return x + 17; }
__attribute__ ((noinline)) int t18 (int x) { return x + 18; }
__attribute__ ((noinline)) int t19 (int x) { return x + 19; }

fn_t volatile table[20] = { t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11,
			    t12, t13, t14, t15, t16, t17, t18, t19 };
volatile int sink;

__attribute__ ((noinline)) void
call (int i)
{
  sink += table[i] (i);
}

__attribute__ ((noinline)) void
unused (int i)
{
  sink += table[i] (1);
  sink += table[i] (2);
  sink += table[i] (3);
}

int
main (void)
{
  for (int i = 0; i < 16; i++)
    for (int k = 0; k < 100 + i; k++)
      call (i);
  for (int i = 16; i < 20; i++)
    call (i);
  if (sink == 12345)
    unused (0);
  return 0;
}

/* { dg-final { latepgo-ic-targets "call" {0:t15:115 0:t14:114 0:t13:113 0:t12:112 0:t11:111 0:t10:110 0:t9:109 0:t8:108 0:t7:107 0:t6:106 0:t5:105 0:t4:104 0:t3:103 0:t2:102 0:t1:101 0:t0:96} } } */
