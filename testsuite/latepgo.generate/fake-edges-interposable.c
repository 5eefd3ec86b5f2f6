/* In a -fPIC build a public function may be replaced at run time by
   another definition (interposition), which might leave: a call to it
   ends its block, a call to a static function that returns does not.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fPIC" } */

volatile int sink;

__attribute__ ((noinline)) void
store_public (int x)
{
  sink = x;
}

__attribute__ ((noinline)) static void
store (int x)
{
  sink = x + 1;
}

void
calls_public (int n)
{
  for (int i = 0; i < n; i++)
    store_public (i);
}

void
calls_static (int n)
{
  for (int i = 0; i < n; i++)
    store (i);
}

/* { dg-final { latepgo-dump-field calls_public fake 2 } } */
/* { dg-final { latepgo-dump-field calls_static fake 1 } } */
