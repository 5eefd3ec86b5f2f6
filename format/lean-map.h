/* lean-map.h: what a lean generate build
   (-fplugin-arg-latepgo-lean, doc/lean.md) keeps out of the loaded
   image, and the little it keeps in.  One definition for the plugin,
   which writes both (plugin/lean.cc), the runtime, which reads the
   lean blocks (libprof/prof-lean.c), and latepgo-profdata, which reads
   the map (lean-map-read.c) and joins it with a lean raw profile
   (contrib/profdata/map-join.c).

   The map: section LEAN_MAP_SECTION, not allocated (nothing of it is
   loaded; strip removes it as debug information, objcopy
   --only-keep-debug keeps it).  One chunk per translation unit, the
   linker concatenates them; every field is a little-endian u64:
     magic LEAN_MAP_MAGIC (the low 32 bits; the high 32 bits hold
       LEAN_MAP_VERSION),
     words: the chunk's size in u64 words, this header included,
     counters_start: the link-time address of the module's counters
       section (__start___llvm_prf_cnts, a relocation the linker
       resolves),
     num_records | names_size << 32,
     num_records records of LEAN_MAP_RECORD_WORDS words:
       counters: the link-time address of the function's first
	 counter (0 when the linker dropped them),
       name_ref: MD5LOW64 of its profile name,
       func_hash: its FuncHash,
       num_counters | num_value_sites[0] << 32 | num_value_sites[1] << 48,
     the names chunk of the file (doc/raw-format.md section 7),
     names_size bytes, then zeros to a multiple of 8.
   A reader skips zero words between chunks.

   The lean blocks: section LEAN_SECTION, allocated, read-only.  One
   block per translation unit, u64 words, 8-aligned, no padding:
     num_functions, num_first_run,
     &LATEPGO_RUNTIME_SYMBOL - &block (pulls in the runtime),
     num_first_run pairs of words: &counters - &block and the number
       of counters, for each function whose last counter is a
       first-run time (format/raw-format.h), which merges keep the
       earliest of.
   All references are PC-relative: no dynamic relocations.  */

#ifndef LATEPGO_LEAN_MAP_H
#define LATEPGO_LEAN_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LEAN_MAP_SECTION ".debug_latepgo_map"
#define LEAN_SECTION "__latepgo_prf_lean"
#define LEAN_MAP_MAGIC 0x504d504cu	/* "LPMP" */
#define LEAN_MAP_VERSION 1u
#define LEAN_MAP_HEADER_WORDS 4
#define LEAN_MAP_RECORD_WORDS 4
#define LEAN_BLOCK_HEADER_WORDS 3

/* One function of a map.  */
struct lean_map_record
{
  uint64_t counters;		/* Link-time address of its first counter.  */
  uint64_t name_ref;
  uint64_t func_hash;
  uint32_t num_counters;
  uint16_t num_value_sites[2];
};

/* A map: every chunk's records, and their names chunks back to back
   (the raw format's names section, doc/raw-format.md section 7).  */
struct lean_map
{
  uint64_t counters_start;	/* Of the first chunk; all must agree.  */
  struct lean_map_record *records;
  size_t num_records;
  unsigned char *names;
  size_t names_size;
};

/* Parse the SIZE bytes of a map section at DATA into MAP.  Return 0,
   or -1 with ERR saying what is wrong (and MAP holding nothing).  */
int lean_map_parse (const unsigned char *data, size_t size,
		    struct lean_map *map, struct lp_err *err);

void lean_map_free (struct lean_map *map);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_LEAN_MAP_H */
