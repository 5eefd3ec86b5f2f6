/* lower-bound.h: binary search over arrays of structs sorted by a u64
   key that is their first member (lp_value, raw-read.c's address map,
   probe descriptors).  */

#ifndef LATEPGO_LOWER_BOUND_H
#define LATEPGO_LOWER_BOUND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The index of the first of the N elements of SIZE bytes at BASE whose
   leading u64 is >= KEY (N if none).  */
static inline size_t
lp_lower_bound_u64 (const void *base, size_t n, size_t size, uint64_t key)
{
  const unsigned char *p = base;
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      uint64_t k;
      memcpy (&k, p + mid * size, sizeof k);
      if (k < key)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo;
}

#endif /* LATEPGO_LOWER_BOUND_H */
