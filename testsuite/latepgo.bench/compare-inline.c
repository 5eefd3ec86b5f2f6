/* compare-inline.c: the program of compare.exp.  helper and mid are
   calls in the plain build and inlined by hand (always_inline) in the
   other; keep stays a call in both, called by main and by mid, so in
   the other build mid's calls of keep are main's; twice is named as GCC
   names a clone of "twice", so that its cost must fold onto "twice".  */
#ifdef HAND_INLINE
#define INLINED static inline __attribute__ ((always_inline))
#else
#define INLINED static __attribute__ ((noinline))
#endif
#include <stdlib.h>

/* noipa: were keep known to be const, GCC could reuse keep (i + 1) of one
   iteration as keep (i) of the next.  */
__attribute__ ((noipa)) int keep (int x) { return x ^ 0x5a5a; }
INLINED int helper (int x) { return x * 7 + (x >> 3); }
INLINED int mid (int x) { return keep (x + 1) - 3; }
__attribute__ ((noinline)) int twice (int x) __asm__ ("twice.constprop.0");
int twice (int x) { return 2 * x + 1; }

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000, s = 0;
  for (int i = 0; i < n; i++)
    s += helper (i) + keep (i) + twice (i) + mid (i);
  return s == 42;
}
