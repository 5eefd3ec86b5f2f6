/* prof-store.h: latepgo-profdata's record store: records keyed by
   (name, FuncHash), summed with weights as inputs are read.  */

#ifndef LATEPGO_PROF_STORE_H
#define LATEPGO_PROF_STORE_H

#include "profile.h"

/* Records keyed by (name, FuncHash).  Memory grows with the number of
   distinct records only.  */
struct lp_store
{
  struct lp_record **buckets;
  size_t num_buckets;           /* A power of two.  */
  size_t num_records;
  uint64_t variant;             /* Union of the inputs' variant bits.  */
  int have_kind;                /* Nonzero once VARIANT is set.  */
};

void lp_store_init (struct lp_store *store);
void lp_store_free (struct lp_store *store);

/* Find the record NAME/NAME_LEN with MD5 NAME_MD5 and FuncHash HASH, or
   NULL.  */
struct lp_record *lp_store_find (const struct lp_store *store,
				 const char *name, size_t name_len,
				 uint64_t name_md5, uint64_t hash);

/* Add REC to STORE with every count multiplied by WEIGHT (>= 1).
   Counts saturate at 2^64-1.  A record with the same name and hash but
   a different number of counters is dropped with a warning naming WHERE
   (the input file) and the function, as is value data whose number of
   sites changed.  Returns the number of problems warned about.  */
int lp_store_add (struct lp_store *store, const struct lp_record_in *rec,
		  uint64_t weight, const char *where);

/* Return a freshly allocated array of the STORE's records sorted by
   name bytes, then FuncHash; the caller frees the array only.  */
struct lp_record **lp_store_sorted (const struct lp_store *store);

/* Combine an input's variant bits V into STORE.  Returns 0, or -1 with
   ERR set when the kinds cannot be mixed (IR with front-end).  */
int lp_store_merge_variant (struct lp_store *store, uint64_t v,
			    struct lp_err *err);

#endif /* LATEPGO_PROF_STORE_H */
