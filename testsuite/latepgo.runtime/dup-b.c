/* Second translation unit of the duplicate-record test (dup-a.c).  */

#include "lp-test.h"

LP_FUNCTION (inl, LP_MD5_inl, 0x77, 2)
LP_FUNCTION (inl_other_cfg, LP_MD5_inl, 0x78, 1)
LP_NAMES ("inl")

void
dup_b (void)
{
  lp_inl[0] += 10;
  lp_inl[1] += 20;
  lp_inl_other_cfg[0] += 5;
}
