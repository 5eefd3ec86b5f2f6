/* md5.h: MD5 (RFC 1321), just enough for LLVM's name hashes: the one
   MD5 of the plugin and the tools.  */

#ifndef LATEPGO_MD5_H
#define LATEPGO_MD5_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Store the 16-byte MD5 digest of [DATA, DATA+LEN) in DIGEST.  */
void lp_md5 (const void *data, size_t len, unsigned char digest[16]);

/* MD5LOW64: the first 8 digest bytes read as a little-endian u64.
   This is LLVM's NameRef, indexed key hash and GUID
   (doc/raw-format.md, conventions).  */
uint64_t lp_md5low64 (const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_MD5_H */
