/* latepgo-abi.h: the one definition of what the plugin emits into object
   files and what the runtime and the tools read back.

   Included by plugin/ (C++), libprof/ (C) and contrib/ (C).  The layout
   is LLVM's raw instrumentation profile, version 8, as specified in
   doc/raw-format.md; the object-file side mirrors what
   clang 14 emits, so clang-instrumented objects and ours can share one
   program and one runtime.

   Per instrumented function the plugin emits, TU-local:
     __profc_<fn>  u64 counters[NumCounters]   section LATEPGO_SEC_CNTS  "aw", align 8
     __profd_<fn>  struct latepgo_data_record  section LATEPGO_SEC_DATA  "aw", align 8
   and per translation unit:
     one names chunk (ULEB128 uncompressed length, ULEB128 compressed
     length or 0, then zlib stream or plain text; names separated by
     0x01)                                      section LATEPGO_SEC_NAMES "a", align 1
     optionally the build-time profile path     section LATEPGO_SEC_FNAME "a", NUL-terminated

   The linker concatenates each section per module (executable or shared
   object) and defines __start_<sec>/__stop_<sec>; the runtime linked
   into that module finds everything through them.  No constructor and
   no registration call per object file.  */

#ifndef LATEPGO_ABI_H
#define LATEPGO_ABI_H

/* Section names.  They are C identifiers so GNU ld provides
   __start_/__stop_ symbols for them.  Same names as clang's.  */
#define LATEPGO_SEC_DATA  "__llvm_prf_data"
#define LATEPGO_SEC_CNTS  "__llvm_prf_cnts"
#define LATEPGO_SEC_NAMES "__llvm_prf_names"
/* latepgo-only: the path given by -fplugin-arg-latepgo-generate=PATH.
   The runtime uses the first non-empty string it finds here.  */
#define LATEPGO_SEC_FNAME "__latepgo_prf_fname"

/* Every record's `values' field is initialised by the plugin as
   (&LATEPGO_RUNTIME_SYMBOL - &record), a link-time constant (PC64
   relocation, no dynamic relocation).  The reference makes the linker
   pull the runtime's object out of libprof.a, as clang's reference to
   __llvm_profile_runtime does; the symbol is hidden so that every
   module gets its own runtime copy.  The runtime writes 0 for the
   field in profiles (LLVM readers ignore it).  */
#define LATEPGO_RUNTIME_SYMBOL "__latepgo_runtime"

/* Called by instrumented code right before execl/execle/execlp/execv/
   execve/execvp/execvpe/fexecve/execveat, whose success would discard
   the counters without running exit handlers.  Hidden, nothrow,
   returns nothing.  The runtime writes the profile and resets the
   counters (so a failed exec followed by a normal exit counts nothing
   twice).  */
#define LATEPGO_BEFORE_EXEC_SYMBOL "__latepgo_before_exec"

/* Size profiling of memcpy/mempcpy/memmove/memset/bzero calls whose
   size is not a constant: per call site, LATEPGO_MEMOP_BUCKETS plain
   counters after the function's edge counters, one per range of sizes
   as LLVM's memop profile ranges them (InstrProfGetRangeRepValue): the
   sizes 0..8 exactly, then for k = 4..9 the range 2^(k-1)+1 .. 2^k-1
   and 2^k exactly, then everything from 513 on.  Being plain counts,
   they merge by addition like every other counter.  Instrumented code
   calls LATEPGO_MEMOP_SYMBOL (COUNTERS, SIZE) (or the _atomic variant
   with update=atomic-add) right before the operation; hidden, nothrow, leaf.  */
#define LATEPGO_MEMOP_BUCKETS 22
#define LATEPGO_MEMOP_SYMBOL "__latepgo_memop_profile"
#define LATEPGO_MEMOP_ATOMIC_SYMBOL "__latepgo_memop_profile_atomic"

/* Indirect-call target profiling: per call site, one counter per
   candidate target (the address-taken functions of the file whose type
   is the call's, sorted by profile name) and one for any other target.
   Instrumented code calls LATEPGO_ICALL_SYMBOL (COUNTERS, TARGET,
   TABLE, N) (or the _atomic variant with update=atomic-add) right before the call; TABLE holds
   the N candidates' addresses, each as a signed 64-bit offset from
   TABLE itself (no dynamic relocations).  Hidden, nothrow, leaf.  */
#define LATEPGO_ICALL_SYMBOL "__latepgo_icall_profile"
#define LATEPGO_ICALL_ATOMIC_SYMBOL "__latepgo_icall_profile_atomic"

/* First-run order (GCC's time profile, for -freorder-functions): the
   last counter of every function profiled with values holds 0 until
   the function first runs, then the value of ++LATEPGO_CLOCK_SYMBOL, a
   hidden unsigned long long of the runtime.  Such a function says so
   in its FuncHash: bits 36-59 hold LATEPGO_FIRST_RUN_TAG (its checksum
   is the other 36 bits), so that merges -- the runtime's and
   latepgo-profdata's -- keep the earliest nonzero time of that counter
   instead of a sum, as GCC's time-profile merge does.  A clang IR hash
   carries the tag by chance once in 2^24 functions.  */
#define LATEPGO_CLOCK_SYMBOL "__latepgo_first_run_clock"
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

/* Per-thread counter shards (update=atomic; libprof/prof-shard.c).
   LATEPGO_SHARD_DELTA_SYMBOL is a hidden, initial-exec thread-local
   intptr_t of the runtime: the distance in bytes from the module's
   counters section to the calling thread's copy of it, or 0 if the
   thread has none yet.  Instrumented code then calls
   LATEPGO_SHARD_INIT_SYMBOL (void), hidden, nothrow, leaf, which
   returns the delta to use (0: the section itself).  Counters other
   than the first-run one are updated at their address plus the delta,
   with plain adds; the value-profile helpers get that address and are
   the plain ones.  */
#define LATEPGO_SHARD_DELTA_SYMBOL "__latepgo_shard_delta"
#define LATEPGO_SHARD_INIT_SYMBOL "__latepgo_shard_init"

/* The bucket of SIZE, and the smallest size of bucket B.  */
static inline unsigned
latepgo_memop_bucket (unsigned long long size)
{
  if (size <= 8)
    return (unsigned) size;
  if (size >= 513)
    return 21;
  unsigned k = 63 - (unsigned) __builtin_clzll (size);	/* 3..9 */
  if ((size & (size - 1)) == 0)
    return 9 + 2 * (k - 4) + 1;
  return 9 + 2 * (k - 3);
}

static inline unsigned long long
latepgo_memop_bucket_min (unsigned b)
{
  if (b <= 8)
    return b;
  if (b == 21)
    return 513;
  if ((b - 9) % 2 == 0)
    return (1ULL << ((b - 9) / 2 + 3)) + 1;
  return 1ULL << ((b - 10) / 2 + 4);
}

/* Raw profile constants (doc/raw-format.md, sections 2 and 3).  */
#define LATEPGO_RAW_MAGIC_64      0xff6c70726f667281ULL
#define LATEPGO_RAW_MAGIC_32      0xff6c70726f665281ULL
#define LATEPGO_RAW_VERSION       8ULL
#define LATEPGO_VARIANT_IR        (1ULL << 56)
#define LATEPGO_VARIANT_CSIR      (1ULL << 57)
#define LATEPGO_VARIANT_ENTRY     (1ULL << 58)
#define LATEPGO_VARIANT_MASK      (0xffULL << 56)
#define LATEPGO_RAW_HEADER_WORDS  11
#define LATEPGO_VALUE_KIND_LAST   1

/* Indexed profile constants (doc/indexed-format.md, section 2).  */
#define LATEPGO_INDEXED_MAGIC     0x8169666f72706cffULL
#define LATEPGO_INDEXED_VERSION   7ULL

/* FuncHash: bits 60-63 are reserved by LLVM (bit 60 = context
   sensitive); latepgo's CFG checksums keep them clear and are never 0.  */
#define LATEPGO_HASH_MASK         0x0fffffffffffffffULL

/* Names: separator between names in a chunk.  */
#define LATEPGO_NAME_SEPARATOR    '\001'

#ifndef __cplusplus
#include <stdint.h>

/* One per instrumented function, 48 bytes, 8-aligned; field order and
   sizes are LLVM's __llvm_profile_data for 64-bit targets.  */
struct latepgo_data_record
{
  uint64_t name_ref;          /* MD5LOW64 (PGO name).  */
  uint64_t func_hash;         /* CFG checksum, bits 60-63 clear.  */
  int64_t counter_ptr;        /* &first counter - &this record.  */
  uint64_t function_ptr;      /* 0: no value profiling.  */
  int64_t values;             /* &__latepgo_runtime - &this record (see above);
                                 written as 0 in profiles.  */
  uint32_t num_counters;      /* >= 1.  */
  uint16_t num_value_sites[2];/* 0, 0.  */
};

_Static_assert (sizeof (struct latepgo_data_record) == 48,
                "raw profile data record is 48 bytes");
#endif

#endif /* LATEPGO_ABI_H */
