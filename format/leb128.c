/* leb128.c: LEB128 readers (leb128.h).  */

#include "leb128.h"

enum leb_status
leb_read_u (const unsigned char *p, size_t size, size_t *off, uint64_t *out)
{
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7)
    {
      if (*off >= size)
	return LEB_TRUNCATED;
      unsigned char b = p[(*off)++];
      if (shift >= 64 || (shift == 63 && (b & 0x7e)))
	return LEB_TOO_BIG;
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
	{
	  *out = v;
	  return LEB_OK;
	}
    }
}

enum leb_status
leb_read_s (const unsigned char *p, size_t size, size_t *off, int64_t *out)
{
  uint64_t v = 0;
  unsigned shift = 0;
  unsigned char b;
  do
    {
      if (*off >= size)
	return LEB_TRUNCATED;
      if (shift >= 64)
	return LEB_TOO_BIG;
      b = p[(*off)++];
      v |= (uint64_t) (b & 0x7f) << shift;
      shift += 7;
    }
  while (b & 0x80);
  if (shift < 64 && (b & 0x40))
    v |= ~(uint64_t) 0 << shift;
  *out = (int64_t) v;
  return LEB_OK;
}
