/* Duplicate records: inl (hash 0x77, 2 counters) is emitted in dup-a.c
   and dup-b.c, each copy with its own TU-local counters, as an inline
   function instrumented in two translation units.  The profile must
   hold one inl record with the sums [11, 22]; dup-b.c's copy of inl
   with another hash (0x78) stays a record of its own.  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1, 1)
LP_FUNCTION (inl, LP_MD5_inl, 0x77, 2)
LP_NAMES ("main\\001inl")

extern void dup_b (void);

int
main (void)
{
  lp_main[0]++;
  lp_inl[0] += 1;
  lp_inl[1] += 2;
  dup_b ();
  return 0;
}
