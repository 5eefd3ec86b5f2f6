/* raw-names.h: NameRef -> name map of a raw profile's names blob.  */

#ifndef LATEPGO_RAW_NAMES_H
#define LATEPGO_RAW_NAMES_H

#include "profile.h"

/* Decode the names blob [BLOB, BLOB+LEN) and make it the current map
   (a no-op when it equals the current blob).  Returns 0, or -1 with
   ERR set (truncated chunk, zlib error, empty name).  */
int lp_raw_names_load (const unsigned char *blob, size_t len,
		       struct lp_err *err);

/* Find NAME_REF in the current map: store the name in *NAME and *LEN (not
   NUL-terminated) and return 1, or return 0.  */
int lp_raw_names_lookup (uint64_t name_ref, const char **name, size_t *len);

#endif /* LATEPGO_RAW_NAMES_H */
