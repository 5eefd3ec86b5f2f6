/* le.h: little-endian numbers, the byte order of the indexed profile
   and of the pseudo probe sections (doc/indexed-format.md section 1).
   The raw reader, which also reads big-endian profiles, has its own
   byte-swapping readers.  */

#ifndef LATEPGO_LE_H
#define LATEPGO_LE_H

#include <stdint.h>

/* The u64 (u32) stored little-endian at P.  */
static inline uint64_t
le_read_u64 (const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static inline uint32_t
le_read_u32 (const unsigned char *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16
	 | (uint32_t) p[3] << 24;
}

/* Store V little-endian in the 8 (4) bytes at P.  */
static inline void
le_write_u64 (unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

static inline void
le_write_u32 (unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

#endif /* LATEPGO_LE_H */
