/* latepgo-abi.h: the one definition of what the plugin emits into object
   files for the runtime: sections and runtime symbols.  The formats the
   runtime writes and the tools read back are in format/.

   Included by plugin/ (C++) and libprof/ (C).  The layout
   is LLVM's raw instrumentation profile, version 8, as specified in
   doc/raw-format.md; the object-file side mirrors what
   clang 14 emits, so clang-instrumented objects and ours can share one
   program and one runtime.

   Per instrumented function the plugin emits, TU-local:
     __profc_<fn>  u64 counters[NumCounters]   section LATEPGO_SEC_CNTS  "aw", align 8
     __profd_<fn>  struct latepgo_data_record  section LATEPGO_SEC_DATA  "aw", align 8
     __profvp_<fn> void *heads[sites]          section LATEPGO_SEC_VALS  "aw", align 8
                   (only for a function with value sites: for an
                   indirect call its own first node, for a memop the
                   first node of __profvm_<fn>)
     __profvn_<fn> first nodes[indirect calls], zero   .bss, align 64
                   (only for a function with indirect calls)
     __profvm_<fn> a table block, then struct latepgo_value_node
                   [LATEPGO_MEMOP_BUCKETS per memop site]
                                               section LATEPGO_SEC_VMOP "aw", align 8
                   (only for a function with memop sites)
   and per translation unit:
     one names chunk (ULEB128 uncompressed length, ULEB128 compressed
     length or 0, then zlib stream or plain text; names separated by
     0x01)                                      section LATEPGO_SEC_NAMES "a", align 1
     optionally the build-time profile path     section LATEPGO_SEC_FNAME "a", NUL-terminated
     with indirect calls, the nodes of their target lists
                                                section LATEPGO_SEC_VNODES "aw", align 8
   A lean build (-fplugin-arg-latepgo-lean) emits no records and no
   names chunk; instead a lean block in LEAN_SECTION and a map outside
   the loaded image, both defined in format/lean-map.h (doc/lean.md).

   The linker concatenates each section per module (executable or shared
   object) and defines __start_<sec>/__stop_<sec>; the runtime linked
   into that module finds everything through them.  No constructor and
   no registration call per object file.  */

#ifndef LATEPGO_ABI_H
#define LATEPGO_ABI_H

/* The profile formats: the one definition, shared with the tools.  */
#include "../format/raw-format.h"
#include "../format/indexed-format.h"

/* Section names.  They are C identifiers so GNU ld provides
   __start_/__stop_ symbols for them.  Same names as clang's.  */
#define LATEPGO_SEC_DATA  "__llvm_prf_data"
#define LATEPGO_SEC_CNTS  "__llvm_prf_cnts"
#define LATEPGO_SEC_NAMES "__llvm_prf_names"
/* latepgo-only: the path given by -fplugin-arg-latepgo-generate=PATH.
   The runtime uses the first non-empty string it finds here.  */
#define LATEPGO_SEC_FNAME "__latepgo_prf_fname"

/* latepgo-only, continuous mode (doc/continuous.md): every object
   built with -fplugin-arg-latepgo-runtime-counter-relocation puts here
   one u64, 8-aligned: the number of records it emitted.  Their sum
   tells the runtime whether all, some or none of the module's
   functions count where the runtime points them.  */
#define LATEPGO_SEC_RELOC "__latepgo_prf_reloc"

/* latepgo-only, coverage modes (doc/coverage.md): every object built
   with -fplugin-arg-latepgo-coverage=function or =block puts here one
   u64, 8-aligned: (LATEPGO_COVERAGE_FUNCTION or _BLOCK) << 32 | the
   number of records it emitted.  Such an object's counters are single
   bytes, LLVM's byte coverage: 0xff until the code they stand for
   runs, then 0.  The runtime writes the module's profile with byte
   counters when all its records are of one coverage kind.  */
#define LATEPGO_SEC_COV "__latepgo_prf_cov"
#define LATEPGO_COVERAGE_FUNCTION 1
#define LATEPGO_COVERAGE_BLOCK 2
#define LATEPGO_COVERAGE_NOT_RUN 0xff

/* The FuncHash of every coverage=function record: a function's entry
   byte says nothing about its CFG, so its record matches whatever
   the function's body became (doc/coverage.md section 3).  Bits 60-63
   clear, first-run tag bits clear.  */
#define LATEPGO_FUNCTION_COVERAGE_HASH 0x000000000c0e4a9eULL

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
   size is not a constant, as LLVM's memop value profile (value kind 1,
   LP_VK_MEMOP): per call site LATEPGO_MEMOP_BUCKETS value nodes (struct
   latepgo_value_node), one per range of sizes as LLVM ranges them
   (InstrProfGetRangeRepValue): the sizes 0..8 exactly, then for
   k = 4..9 the range 2^(k-1)+1 .. 2^k-1 and 2^k exactly, then
   everything from 513 on.  Node B holds the range's representative
   value, latepgo_memop_bucket_min (B), the value clang's runtime
   records for any size of the range; counting a size is one add to
   its node's count.  The nodes of a function's memop sites are
   __profvm_<fn>, in section LATEPGO_SEC_VMOP, unpadded (8-aligned,
   a multiple of 24 bytes), so that the section is a sequence of
   blocks of LATEPGO_MEMOP_BUCKETS nodes; the runtime links each
   site's nodes in order at start-up (lp_memop_link), which makes them
   a value list as compiler-rt's (no relocations for them in the
   object).  The record's NumValueSites[1] is the number of memop
   sites; their list heads, the first node of each, follow the
   NumValueSites[0] indirect-call heads in __profvp_<fn>.  The writer
   takes the nodes with a count as the site's values (prof-vdata.c).

   __profvm_<fn> starts with a table block, one block's size
   (LATEPGO_MEMOP_BUCKETS * 24 bytes), before its sites' nodes: a u64
   (long) &LATEPGO_MEMOP_TABLES_SYMBOL - (long) &<the block> (a
   link-time constant, PC64 relocation, which a site's first node,
   value 0, never holds: the runtime skips such blocks), then from
   byte 8 on, for each size up to 512 and, at
   LATEPGO_MEMOP_RANGES_LAST, for every larger size, a byte: where its
   range's node starts in a site's nodes, in u64 words (3 per node;
   the count is the node's second word).  Instrumented code counts a
   size inline, right before the operation:
     W = ((unsigned char *) &__profvm_<fn>)[8 + SIZE]   (SIZE <= LATEPGO_MEMOP_RANGES_LAST)
     ((u64 *) NODES)[W + 1] += 1                        (NODES: the site's first node)
   or, for larger sizes, adds to the last node of the site directly
   (atomically with update=atomic or atomic-add: threads share the
   nodes).  The table and the nodes are one object, so one register
   holds the address of both: a compare, a branch, one load and one
   add per count.  The runtime's LATEPGO_MEMOP_TABLES_SYMBOL is only
   that reference: an object with table blocks fails to link with a
   runtime that would take them for sites.

   Objects of the latepgo before (2026-11-27, second version) have no
   table block and read the runtime's table LATEPGO_MEMOP_WORDS_SYMBOL
   (the same bytes); those before them read LATEPGO_MEMOP_RANGES_SYMBOL,
   the range numbers themselves; the runtime keeps both for them.
   Objects of older latepgo call __latepgo_memop_profile with their
   size counters instead; the runtime has no such function, so they
   fail to link with it rather than have it count into the wrong
   memory.  */
#define LATEPGO_SEC_VMOP "__latepgo_prf_vmop"
#define LATEPGO_MEMOP_BUCKETS 22
#define LATEPGO_MEMOP_TABLES_SYMBOL "__latepgo_memop_tables"
#define LATEPGO_MEMOP_WORDS_SYMBOL "__latepgo_memop_words"
#define LATEPGO_MEMOP_RANGES_SYMBOL "__latepgo_memop_ranges"
#define LATEPGO_MEMOP_RANGES_LAST 513
/* Where a table block's bytes start (after its u64 reference).  */
#define LATEPGO_MEMOP_TABLE_AT 8

/* Indirect-call target profiling, as LLVM's (compiler-rt's
   InstrProfilingValue.c): per call site, a list of the targets called
   there by address, each with its count, at most LATEPGO_ICALL_MAX_TARGETS
   per site.  A function with indirect-call sites has an array of
   list heads, __profvp_<fn>, one per site, in section LATEPGO_SEC_VALS
   (the memop sites' heads after them); its record's Values field holds
   the array's address and NumValueSites[0] the number of sites.  Each
   head starts out pointing at the site's own first node,
   __profvn_<fn>[SITE] (zero, in .bss), which instrumented code tests
   inline at its constant address; its value 0 says that no target has
   taken it yet (the runtime gives it to the site's first target).  A
   head may also be 0 (objects of older latepgo): the runtime then links
   a node from the pool.  Instrumented code calls
   LATEPGO_ICALL_TARGET_SYMBOL (TARGET, &__profvp_<fn>[SITE]) (or the
   _atomic variant with update=atomic: counts added atomically) right
   before the call when none of the nodes tested inline holds TARGET;
   hidden, nothrow, leaf.  The nodes have compiler-rt's layout (struct
   latepgo_value_node), so that compiler-rt's writer reads them when
   its runtime is linked into the module.  */
#define LATEPGO_SEC_VALS "__llvm_prf_vals"
/* The nodes of a module's lists come from its section
   LATEPGO_SEC_VNODES ("aw", zero): per translation unit,
   LATEPGO_ICALL_NODES_PER_SITE nodes for each indirect-call site,
   shared by all the sites of the module (compiler-rt sizes its pool
   the same way).  */
#define LATEPGO_SEC_VNODES "__latepgo_prf_vnds"
#define LATEPGO_ICALL_NODES_PER_SITE 4
#define LATEPGO_ICALL_TARGET_SYMBOL "__latepgo_icall_target"
#define LATEPGO_ICALL_TARGET_ATOMIC_SYMBOL "__latepgo_icall_target_atomic"
#define LATEPGO_ICALL_MAX_TARGETS 16
/* NumValueSites is 16 bits: a function's sites of a kind (indirect
   calls, memops) past that many are not profiled.  */
#define LATEPGO_MAX_VALUE_SITES 65535

struct latepgo_value_node
{
  unsigned long long value;
  unsigned long long count;
  struct latepgo_value_node *next;
};

/* First-run order (format/raw-format.h): the symbol of the runtime's
   clock, a hidden unsigned long long.  */
#define LATEPGO_CLOCK_SYMBOL "__latepgo_first_run_clock"

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

/* Runtime counter relocation (continuous mode): a hidden intptr_t of
   the runtime, 0 until the runtime maps the profile file, then the
   distance in bytes from the module's counters section to the file's
   counters in the mapping.  Relocation-built code reads it once per
   function call and updates every counter at its address plus the
   bias, with plain adds, or relaxed atomic adds with update=atomic or
   atomic-add (no per-thread shards).  */
#define LATEPGO_COUNTER_BIAS_SYMBOL "__latepgo_counter_bias"

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

#endif /* LATEPGO_ABI_H */
