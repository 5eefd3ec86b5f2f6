/* raw-format.h: the constants of LLVM's raw instrumentation profile,
   version 8, and latepgo's additions to it (doc/raw-format.md).  The
   fields themselves are in instrprof-data.def.  Included by the
   plugin (C++), the runtime and the tools.  */

#ifndef LATEPGO_RAW_FORMAT_H
#define LATEPGO_RAW_FORMAT_H

/* Magic, version and variant bits (doc/raw-format.md, sections 2
   and 3).  */
#define LATEPGO_RAW_MAGIC_64      0xff6c70726f667281ULL
#define LATEPGO_RAW_MAGIC_32      0xff6c70726f665281ULL
#define LATEPGO_RAW_VERSION       8ULL
#define LATEPGO_VARIANT_IR        (1ULL << 56)
#define LATEPGO_VARIANT_CSIR      (1ULL << 57)
#define LATEPGO_VARIANT_ENTRY     (1ULL << 58)
#define LP_VARIANT_DBG_CORRELATE  (1ULL << 59)
#define LP_VARIANT_BYTE_COVERAGE  (1ULL << 60)
#define LP_VARIANT_ENTRY_ONLY     (1ULL << 61)
#define LATEPGO_VARIANT_MASK      (0xffULL << 56)

/* The words of the raw header: LP_H_MAGIC ... LP_H_VALUE_KIND_LAST,
   then their number.  */
enum lp_raw_header_word
{
#define LP_RAW_HEADER_FIELD(NAME, DOC) LP_H_##NAME,
#include "instrprof-data.def"
  LATEPGO_RAW_HEADER_WORDS
};

/* Value kinds: LP_VK_INDIRECT_CALL, LP_VK_MEMOP.  */
enum lp_value_kind
{
#define LP_VALUE_KIND(NAME, VALUE, TEXT) LP_VK_##NAME = VALUE,
#include "instrprof-data.def"
  LP_NUM_VALUE_KINDS
};
#define LATEPGO_VALUE_KIND_LAST   (LP_NUM_VALUE_KINDS - 1)

/* LLVM keeps at most this many values per site (u8 site counts).  */
#define LP_MAX_VALUES_PER_SITE 255

/* FuncHash: bits 60-63 are reserved by LLVM (bit 60 = context
   sensitive); latepgo's CFG checksums keep them clear and are never 0.  */
#define LATEPGO_HASH_MASK         0x0fffffffffffffffULL
#define LP_CS_HASH_BIT            (1ULL << 60)

/* First-run order (GCC's time profile, for -freorder-functions): the
   last counter of every function profiled with values holds 0 until
   the function first runs, then the value of ++LATEPGO_CLOCK_SYMBOL, a
   hidden unsigned long long of the runtime.  Such a function says so
   in its FuncHash: bits 36-59 hold LATEPGO_FIRST_RUN_TAG (its checksum
   is the other 36 bits), so that merges -- the runtime's and
   latepgo-profdata's -- keep the earliest nonzero time of that counter
   instead of a sum, as GCC's time-profile merge does.  A clang IR hash
   carries the tag by chance once in 2^24 functions.  */
#define LATEPGO_FIRST_RUN_TAG_MASK (0xffffffULL << 36)
#define LATEPGO_FIRST_RUN_TAG      (0x1a7e5dULL << 36)

/* Whether the last counter of a record with FuncHash HASH is a
   first-run time.  */
static inline int
latepgo_has_first_run (unsigned long long hash)
{
  return (hash & LATEPGO_FIRST_RUN_TAG_MASK) == LATEPGO_FIRST_RUN_TAG;
}

/* The merge of first-run times A and B: the earlier, 0 meaning "never
   ran".  */
static inline unsigned long long
latepgo_first_run_merge (unsigned long long a, unsigned long long b)
{
  return a && (!b || a < b) ? a : b;
}

/* Names: separator between names in a chunk.  */
#define LATEPGO_NAME_SEPARATOR    '\001'

#ifndef __cplusplus
#include <stdint.h>

/* One per instrumented function, 48 bytes, 8-aligned; field order and
   sizes are LLVM's __llvm_profile_data for 64-bit targets.  The plugin
   builds the same type from instrprof-data.def.  */
struct latepgo_data_record
{
#define LP_RAW_DATA_FIELD(CTYPE, NAME, INIT, DOC) CTYPE NAME;
#define LP_RAW_DATA_ARRAY(CTYPE, COUNT, NAME, INIT, DOC) CTYPE NAME[COUNT];
#include "instrprof-data.def"
};

_Static_assert (sizeof (struct latepgo_data_record) == 48,
		"raw profile data record is 48 bytes");
#endif

#endif /* LATEPGO_RAW_FORMAT_H */
