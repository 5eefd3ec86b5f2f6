/* A site's first node is its own (values.cc, build_site_heads), not one
   of the module's pool, which holds 4 nodes per site
   (LATEPGO_ICALL_NODES_PER_SITE): the only indirect-call site of this
   program keeps all five of its targets with exact counts.  With every
   node from the pool, the fifth target was not counted and the runtime
   warned that the nodes were used up.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

typedef int (*fn_t) (int);
__attribute__ ((noinline)) int t0 (int x) { return x + 0; }
__attribute__ ((noinline)) int t1 (int x) { return x + 1; }
__attribute__ ((noinline)) int t2 (int x) { return x + 2; }
__attribute__ ((noinline)) int t3 (int x) { return x + 3; }
__attribute__ ((noinline)) int t4 (int x) { return x + 4; }

fn_t volatile table[5] = { t0, t1, t2, t3, t4 };
volatile int sink;

__attribute__ ((noinline)) void
call (int i)
{
  sink += table[i] (i);
}

int
main (void)
{
  for (int i = 0; i < 5; i++)
    for (int k = 0; k < 10 + i; k++)
      call (i);
  return 0;
}

/* { dg-final { latepgo-ic-targets "call" {0:t4:14 0:t3:13 0:t2:12 0:t1:11 0:t0:10} } } */
