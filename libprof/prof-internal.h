/* prof-internal.h: declarations shared by the runtime's source files.
   Nothing here is visible outside the module the runtime is linked
   into (all objects are built with -fvisibility=hidden).

   Design, in one place:
   - prof-core.c owns the process state and the lifecycle hooks: the
     constructor (run token, file name, atexit, pthread_atfork), the
     exit write, the fork child handler and __latepgo_before_exec.
   - prof-platform-linux.c finds the module's sections through the
     linker's __start_/__stop_ symbols and its build ID through
     dl_iterate_phdr.
   - prof-writer.c lays out one raw profile (LLVM raw version 8) in
     memory, folding duplicate records.
   - prof-merge.c reads an existing profile file and adds its counts.
   - prof-file.c chooses the file name and decides, under a lock,
     whether to merge into, append to or replace the existing file.
   - prof-api.c is compiler-rt's user API on top of the above.
   - prof-shard.c gives each thread its own copy of the counters with
     update=atomic, and adds them up for every write.
   - prof-lean.c reads the blocks of lean objects (-fplugin-arg-
     latepgo-lean), whose records are not in the module.
   - prof-continuous.c maps the profile file for continuous mode (%c)
     and points relocation-built code at the counters in it.
   README tells the user-visible rules.

   Nothing on the exit, exec and fork paths calls malloc, stdio or the
   dynamic loader: memory comes from mmap, output from write(2).  The
   constructor is the only place that reads the environment and calls
   dl_iterate_phdr.  */

#ifndef LATEPGO_PROF_INTERNAL_H
#define LATEPGO_PROF_INTERNAL_H

#include "prof-port.h"
#include "latepgo-abi.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Declarations below name things defined in the runtime; keep even
   references to them module-local (no GOT or PLT indirection).  */
#pragma GCC visibility push(hidden)

/* Why a profile is being written.  */
enum lp_write_reason
{
  LP_WRITE_EXIT,		/* atexit handler.  */
  LP_WRITE_EXEC,		/* __latepgo_before_exec.  */
  LP_WRITE_API			/* __llvm_profile_write_file/_dump.  */
};

/* Where the current file name pattern came from, in increasing
   precedence (compiler-rt's ProfileNameSpecifier order).  */
enum lp_name_source
{
  LP_NAME_UNSET,
  LP_NAME_DEFAULT,		/* "default.profraw".  */
  LP_NAME_BUILD,		/* __latepgo_prf_fname (generate=PATH).  */
  LP_NAME_ENV,			/* LLVM_PROFILE_FILE, LATEPGO_PROFILE_FILE.  */
  LP_NAME_API			/* __llvm_profile_set_filename.  */
};

/* ------------------------------------------------------------------ */
/* prof-state.c: process state.  */

struct lp_state
{
  int initialized;
  int inert;			/* compiler-rt's runtime is in this module.  */
  int dumped;			/* __llvm_profile_dump ran: no more writes.  */
  int busy;			/* A write is in progress.  */
  int write_fd;			/* Its file descriptor, or -1.  */
  pid_t pid;			/* getpid () as of start-up or the last fork.  */
  uint64_t token;		/* Run token of this process tree.  */
};

extern struct lp_state lp_state;

/* Name of the environment variable carrying the run token to exec'd
   descendants and to the other instrumented modules of the process.  */
#define LP_TOKEN_ENV "__LATEPGO_RUN_TOKEN"

extern void lp_init (void);
extern void lp_reset_counters (void);

/* ------------------------------------------------------------------ */
/* prof-platform-linux.c: the module's sections and identity.  */

struct lp_sections
{
  const struct latepgo_data_record *data_begin, *data_end;
  uint64_t *cnts_begin, *cnts_end;
  const char *names_begin, *names_end;
  /* LATEPGO_SEC_RELOC: per relocation-built object, its record count.  */
  const uint64_t *reloc_begin, *reloc_end;
  /* LEAN_SECTION (format/lean-map.h): per lean object, its block.  */
  const uint64_t *lean_begin, *lean_end;
  /* LATEPGO_SEC_COV: per coverage object, its kind and record count.  */
  const uint64_t *cov_begin, *cov_end;
};

extern void lp_get_sections (struct lp_sections *);
extern struct latepgo_value_node *lp_value_nodes (struct latepgo_value_node **);
extern struct latepgo_value_node *lp_memop_nodes (struct latepgo_value_node **);
extern const char *lp_build_time_filename (void);
extern int lp_compiler_rt_present (void);
extern void lp_find_binary_id (void);
extern size_t lp_binary_id (const unsigned char **);
extern int lp_suspend_pdeathsig (void);
extern void lp_restore_pdeathsig (int);
extern int lp_hostname (char *, size_t);
extern uint64_t lp_entropy (void);

/* ------------------------------------------------------------------ */
/* prof-msg.c: diagnostics on stderr.  */

extern int lp_verbose;
extern void lp_error (const char *, ...) LP_PRINTF (1, 2);
extern void lp_warning (const char *, ...) LP_PRINTF (1, 2);
extern void lp_note (const char *, ...) LP_PRINTF (1, 2);

/* ------------------------------------------------------------------ */
/* prof-util.c: memory, I/O loops, hashing, number formatting.  */

extern void *lp_alloc (size_t);
extern void lp_free (void *, size_t);
extern int lp_pread_all (int, void *, size_t, uint64_t);
extern int lp_pwrite_all (int, const void *, size_t, uint64_t);
extern int lp_write_all (int, const void *, size_t);
extern uint64_t lp_hash_bytes (uint64_t, const void *, size_t);
extern size_t lp_format_u64 (char *, uint64_t);
extern uint64_t lp_mix64 (uint64_t);

#define LP_HASH_INIT 0xcbf29ce484222325ULL

static inline uint64_t
lp_pad8 (uint64_t n)
{
  return (8 - n % 8) % 8;
}

/* ------------------------------------------------------------------ */
/* prof-writer.c: one raw profile in memory.  */

/* Counters of a duplicate record, folded into the first record with
   the same name, hash and size: slots FROM .. FROM+N-1 are added to
   TO .. TO+N-1 (indices into the counters section).  */
struct lp_dup
{
  uint64_t from, to;
  uint64_t n;
};

/* A profile as it goes to the file: BUF holds header, binary IDs,
   records, counters, names and names padding, SIZE bytes.  RAW is the
   snapshot of the live counters the counters area was computed from.  */
struct lp_image
{
  unsigned char *buf;
  size_t buf_alloc, size;
  size_t ids_off, data_off, counters_off, names_off;
  uint64_t num_records, num_counters, names_size, ids_size;
  unsigned counter_size;		/* 8, or 1 for byte coverage.  */
  uint64_t variant;		/* Variant bits of the header.  */
  /* Counts: the byte counters of a coverage module are taken as 1
     (covered) or 0 (prof-coverage.c).  */
  uint64_t *raw;
  size_t raw_alloc;
  struct lp_dup *dups;
  size_t num_dups, dups_alloc;
  /* One bit per counter: set for the first-run time of a record
     (latepgo_has_first_run), which merges keep the earliest of.  */
  uint64_t *first_run;
  size_t first_run_alloc;
  uint64_t skipped;		/* Malformed records left out.  */
  int lean;			/* Lean objects: records in the binary.  */
  /* Value data (prof-vdata.c): every record of the module with
     value sites (indirect calls, memops) and the written record it
     goes to; each written record's first site in the module-wide site
     numbering;
     the encoded blocks, VDATA_SIZE bytes after the names padding.  */
  struct lp_vsrc *vsrc;
  size_t num_vsrc, vsrc_alloc;
  uint64_t *site_base;
  size_t site_base_alloc;
  uint64_t num_sites;
  unsigned char *vdata;
  size_t vdata_size, vdata_alloc;
};

/* A record with value sites, and the written record (index
   OUT) that holds its values.  */
struct lp_vsrc
{
  const struct latepgo_data_record *rec;
  uint64_t out;
};

/* Whether counter SLOT of IMG is a first-run time.  */
static inline int
lp_is_first_run_slot (const struct lp_image *img, uint64_t slot)
{
  return (img->first_run[slot / 64] >> (slot % 64)) & 1;
}

/* Counter SLOT of IMG merged with OTHER: the earlier first-run time,
   or the sum saturated at 2^64-1.  */
static inline uint64_t
lp_merge_slot (const struct lp_image *img, uint64_t slot, uint64_t mine,
	       uint64_t other)
{
  uint64_t sum;
  if (lp_is_first_run_slot (img, slot))
    return latepgo_first_run_merge (mine, other);
  return __builtin_add_overflow (mine, other, &sum) ? UINT64_MAX : sum;
}

#define LP_HEADER_SIZE (LATEPGO_RAW_HEADER_WORDS * 8)
/* The header words are LP_H_MAGIC ... (format/raw-format.h).  */
#define LP_RECORD_SIZE ((int) sizeof (struct latepgo_data_record))

extern int lp_image_build (struct lp_image *, uint64_t, uint64_t);
extern void lp_image_snapshot (struct lp_image *);
extern void lp_image_fill_counters (struct lp_image *, const uint64_t *);
extern void lp_image_free (struct lp_image *);
extern uint64_t lp_module_signature (void);

/* ------------------------------------------------------------------ */
/* prof-lean.c: what a lean build leaves in the module.  */

extern uint64_t lp_lean_functions (const struct lp_sections *);
extern void lp_lean_mark_first_run (const struct lp_sections *, uint64_t *);
/* prof-coverage.c: byte counters of coverage=function|block modules.  */

extern int lp_counter_kind (void);
extern uint64_t lp_kind_variant (int);
extern void lp_coverage_snapshot (uint64_t *, const unsigned char *,
				  uint64_t);
extern unsigned char lp_coverage_byte (uint64_t);
extern void lp_coverage_merge (unsigned char *, const unsigned char *,
			       uint64_t);

/* prof-vdata.c, prof-values.c: value data (indirect-call targets,
   memop sizes).  */

extern uint64_t lp_record_value_sites (const struct latepgo_data_record *);
extern void lp_memop_link (const char *);
extern int lp_vdata_build (struct lp_image *, const unsigned char *, size_t);
extern uint64_t lp_vdata_length (int, uint64_t, const uint64_t *, uint64_t,
				 uint64_t);
extern void lp_vdata_reset (void);

/* ------------------------------------------------------------------ */
/* prof-merge.c: the existing contents of a profile file.  */

/* What lp_scan_file found.  */
struct lp_scan
{
  uint64_t end;			/* End of the last well-formed profile.  */
  int64_t match;		/* Offset of a profile to merge into, or -1.  */
  int ours;			/* Some profile carries our run token.  */
  int foreign;			/* Bytes that are not our profiles.  */
  uint64_t match_end;		/* End of the profile at MATCH.  */
};

extern int lp_scan_file (int, uint64_t, const struct lp_image *, uint64_t,
			 int, struct lp_scan *);
extern int lp_merge_counters (int, uint64_t, struct lp_image *, int *);
extern int lp_merge_values (int, uint64_t, uint64_t, uint64_t,
			    struct lp_image *);
extern void lp_warn_dropped_tail (const char *, uint64_t,
				  const struct lp_scan *);

/* ------------------------------------------------------------------ */
/* prof-shard.c: per-thread counters (update=atomic).  */

extern void lp_shards_init (void);
extern void lp_shards_add (uint64_t *, size_t);
extern void lp_shards_reset (void);
extern void lp_shards_fork_child (void);

/* ------------------------------------------------------------------ */
/* prof-file.c: file names and the write policy.  */

extern void lp_file_init (void);
extern void lp_set_filename (const char *, enum lp_name_source, const char *);
extern int lp_write_profile (enum lp_write_reason);
extern void lp_forget_written (void);
extern int lp_file_continuous (void);
extern int lp_open_for_mapping (char *, int *);
extern void lp_file_keep_name (const char *);
#define LP_PATH_MAX 4096

/* ------------------------------------------------------------------ */
/* prof-continuous.c: continuous mode (%c), counters in the file.  */

extern void lp_continuous_start (void);
extern int lp_continuous_mapped (void);
extern void lp_continuous_flush (void);
extern void lp_continuous_reset (void);

#pragma GCC visibility pop

#endif /* LATEPGO_PROF_INTERNAL_H */
