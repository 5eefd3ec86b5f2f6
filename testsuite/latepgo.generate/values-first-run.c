/* The first-run rank of every function (GCC's time profile), for
   -freorder-functions: the order in which functions first ran, whatever
   their order in the file.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;

__attribute__ ((noinline)) void a (void) { sink++; }
__attribute__ ((noinline)) void b (void) { sink++; }
__attribute__ ((noinline)) void c (void) { sink++; }
__attribute__ ((noinline)) void never (void) { sink++; }

int
main (void)
{
  for (int i = 0; i < 3; i++)
    {
      c ();
      b ();
      a ();
    }
  if (sink > 100)
    never ();
  return 0;
}

/* { dg-final { latepgo-count "c" {3 2} } } */
/* { dg-final { latepgo-count "b" {3 3} } } */
/* { dg-final { latepgo-count "a" {3 4} } } */
/* { dg-final { latepgo-count "never" {0 0} } } */
/* { dg-final { scan-latepgo-use-dump "^function c .*\\n(  .*\\n)*  first run 2$" } } */
