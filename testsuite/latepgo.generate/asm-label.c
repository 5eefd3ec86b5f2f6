/* Functions declared with asm ("label"), as GCC's
   gcc.dg/tree-prof/pr52150.c: the symbols are the labels (no '*' may
   reach a symbol name, or the assembler rejects the counters), and the
   profile names follow LLVM's rule: the label, with the file for a
   static function.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

void foo (void) __asm__ ("bar");
static int helper (int) __asm__ ("helper_label");

int sink;

__attribute__ ((noinline)) void
foo (void)
{
  sink++;
}

static __attribute__ ((noinline)) int
helper (int x)
{
  return x * 2;
}

int
main (void)
{
  for (int i = 0; i < 3; i++)
    foo ();
  int t = 0;
  for (int i = 0; i < 4; i++)
    t += helper (i);
  return sink == 3 && t == 12 ? 0 : 1;
}

/* { dg-final { latepgo-profile-has "bar" } } */
/* { dg-final { latepgo-profile-lacks "foo" } } */
/* { dg-final { scan-latepgo-dump "^function \[^ \]*asm-label.c:helper_label .* asm=helper_label " } } */
/* { dg-final { latepgo-entry-count "bar" 3 } } */
/* { dg-final { latepgo-entry-count "asm-label.c:helper_label" 4 } } */
