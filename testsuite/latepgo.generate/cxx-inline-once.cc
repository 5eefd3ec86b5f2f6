// An inline function and a template emitted in two translation units
// (COMDAT): the linked program keeps one copy and the profile shows one
// record per function with the true total, not one per object file.
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-additional-sources "helpers/cxx-inline-once-b.cc" } */

#include "helpers/inline-once.h"

int from_b (int);

int
main ()
{
  int t = 0;
  for (int i = 0; i < 10; i++)
    t += shared_inline (4) + shared_template (i);
  t += from_b (6);
  return t == 20 + 81 + 27 ? 0 : 1;
}

/* { dg-final { latepgo-profile-has "_Z13shared_inlinei" } } */
/* { dg-final { latepgo-record-count "_Z13shared_inlinei" 1 } } */
/* { dg-final { latepgo-record-count "_Z15shared_templateIiET_S0_" 1 } } */
/* { dg-final { latepgo-entry-count "_Z13shared_inlinei" 16 } } */
/* { dg-final { latepgo-entry-count "_Z15shared_templateIiET_S0_" 16 } } */
