/* The first-run rank of every function (GCC's time profile), for
   -freorder-functions: the order in which functions first ran, whatever
   their order in the file.  Functions too small to matter (fewer than
   four blocks of their own) and inline ones keep 0.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;

#define BODY(K)						\
  for (int i = 0; i < n; i++)				\
    if (i % K == 0)					\
      sink += i;					\
    else if (i % 7 == 1)				\
      sink -= i;

__attribute__ ((noinline)) void a (int n) { BODY (3) }
__attribute__ ((noinline)) void b (int n) { BODY (5) }
__attribute__ ((noinline)) void c (int n) { BODY (2) }
__attribute__ ((noinline)) void never (int n) { BODY (4) }
__attribute__ ((noinline)) void tiny (void) { sink++; }

int
main (void)
{
  for (int i = 0; i < 3; i++)
    {
      c (10);
      tiny ();
      b (10);
      a (10);
    }
  if (sink == 12345)
    never (1);
  return 0;
}

/* Four edge counters (as the spanning tree places them), then the
   rank: main 1, c 2, b 3, a 4; never ran: 0; tiny, too small: 0.  */
/* { dg-final { latepgo-count "c" {15 15 3 3 2} } } */
/* { dg-final { latepgo-count "b" {24 6 6 3 3} } } */
/* { dg-final { latepgo-count "a" {18 12 6 3 4} } } */
/* { dg-final { latepgo-count "never" {0 0 0 0 0} } } */
/* { dg-final { latepgo-count "tiny" {3 0} } } */
/* { dg-final { scan-latepgo-use-dump "^function c .*\\n(  .*\\n)*  first run 2$" } } */
/* tiny has no rank of its own and takes its caller's (main, 1), so GCC
   places it next to main.  */
/* { dg-final { scan-latepgo-use-dump "^first run tiny 1 inherited$" } } */
