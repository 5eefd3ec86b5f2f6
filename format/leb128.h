/* leb128.h: reading the LEB128 numbers of the raw profile's name
   chunks (doc/raw-format.md section 7) and of the pseudo probe
   sections (probe-format.h).  */

#ifndef LATEPGO_LEB128_H
#define LATEPGO_LEB128_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a LEB128 read found.  */
enum leb_status
{
  LEB_OK,
  LEB_TRUNCATED,		/* The buffer ends inside the number.  */
  LEB_TOO_BIG			/* It does not fit in 64 bits.  */
};

/* Read the ULEB128 (SLEB128) number at *OFF in the SIZE bytes at P
   into *OUT, advancing *OFF past it.  On an error *OFF is left
   wherever reading stopped.  */
enum leb_status leb_read_u (const unsigned char *p, size_t size,
			    size_t *off, uint64_t *out);
enum leb_status leb_read_s (const unsigned char *p, size_t size,
			    size_t *off, int64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_LEB128_H */
