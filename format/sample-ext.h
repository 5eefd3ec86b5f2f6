/* sample-ext.h: LLVM's extensible binary sample profile (SPF_Ext_Binary,
   version 103, as LLVM 12 to 14 write it; doc/sample-format.md,
   "Extensible binary"): its constants, and the decoded profile
   sample-ext-read.c makes of a file, which sample-ext-text.c turns
   into the text format (the plugin's sample-use) and latepgo-profdata
   into its own profile (contrib/profdata/sample-ext-load.c).  */

#ifndef LATEPGO_SAMPLE_EXT_H
#define LATEPGO_SAMPLE_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "SPROF42" and the format number 4, as a ULEB128 at the start.  */
#define LP_SX_MAGIC 0x5350524f46343204ull
#define LP_SX_VERSION 103

/* Section types (SecType).  */
enum
{
  LP_SX_SUMMARY = 1,
  LP_SX_NAME_TABLE = 2,
  LP_SX_SYMBOL_LIST = 3,
  LP_SX_FUNC_OFFSETS = 4,
  LP_SX_FUNC_METADATA = 5,
  LP_SX_CS_NAME_TABLE = 6,
  LP_SX_PROFILES = 32		/* SecLBRProfile.  */
};

/* Section flags: the common ones in the low 32 bits of a header's
   flags, the section's own in the high 32.  */
#define LP_SX_FLAG_COMPRESS 1ull
#define LP_SX_FLAG_MD5 (1ull << 32)		/* Name table.  */
#define LP_SX_FLAG_FIXED_MD5 (2ull << 32)	/* Name table.  */
#define LP_SX_FLAG_UNIQ_SUFFIX (4ull << 32)	/* Name table.  */
#define LP_SX_FLAG_PARTIAL (1ull << 32)		/* Summary.  */
#define LP_SX_FLAG_FULL_CONTEXT (2ull << 32)	/* Summary.  */
#define LP_SX_FLAG_FS_DISCRIM (4ull << 32)	/* Summary.  */
/* Summary: some context has attribute 2, ShouldBeInlined (the CS
   preinliner's decision).  */
#define LP_SX_FLAG_PREINLINED (16ull << 32)
#define LP_SX_FLAG_ORDERED (1ull << 32)		/* Function offsets.  */
#define LP_SX_FLAG_PROBES (1ull << 32)		/* Function metadata.  */
#define LP_SX_FLAG_ATTRIBUTES (2ull << 32)	/* Function metadata.  */

/* A body line: LINE.DISC: COUNT, and its call targets
   TARGETS[FIRST_TARGET, +NUM_TARGETS).  */
struct lp_sx_rec
{
  uint32_t line, disc;
  uint64_t count;
  size_t first_target, num_targets;
};

struct lp_sx_target
{
  uint32_t name;		/* Name table index.  */
  uint64_t count;
};

/* A function profile: top-level (CTX a name index, or with contexts a
   context index) or an inlinee at LINE.DISC of its parent (CTX a name
   index).  Its inlinees are FUNCS[FIRST_CALL, +NUM_CALLS).  */
struct lp_sx_func
{
  uint32_t ctx, line, disc;
  uint64_t head, total, checksum;
  uint32_t attrs;
  size_t first_rec, num_recs, first_call, num_calls;
};

/* A context frame: NAME (name index) called at LINE.DISC, the leaf
   0.0.  */
struct lp_sx_frame
{
  uint32_t name, line, disc;
};

struct lp_sx_profile
{
  /* The name table: NAMES[I] of NAME_LEN[I] bytes (MD5 names as their
     decimal number, as LLVM prints them).  */
  const char **names;
  size_t *name_len;
  size_t num_names;
  /* Contexts: context I is FRAMES[CTX_FIRST[I], CTX_FIRST[I + 1]).  */
  struct lp_sx_frame *frames;
  size_t *ctx_first;
  size_t num_contexts;
  /* The top-level profiles are FUNCS[0, NUM_TOP), in file order.  */
  struct lp_sx_func *funcs;
  size_t num_funcs, num_top;
  struct lp_sx_rec *recs;
  size_t num_recs;
  struct lp_sx_target *targets;
  size_t num_targets;
  int md5;			/* Names are MD5 hashes.  */
  int cs;			/* Top-level profiles are contexts.  */
  int probes;			/* Checksums are meaningful.  */
  int attributes;		/* Attributes were given.  */
  int preinlined;		/* The summary's LP_SX_FLAG_PREINLINED.  */
  /* What sample-ext-read.c owns.  */
  char *md5_text;
  unsigned char **inflated;
  size_t num_inflated;
};

/* Whether the SIZE bytes at P start with the extensible binary magic.  */
int lp_sx_is_ext (const unsigned char *p, size_t size);

/* Decode the extensible binary sample profile P[0, SIZE) into *PROF.
   P must outlive *PROF (names point into it).  Returns 0, or -1 with
   a message in ERR (and *PROF freed).  */
int lp_sx_decode (const unsigned char *p, size_t size,
		  struct lp_sx_profile *prof, struct lp_err *err);

void lp_sx_free (struct lp_sx_profile *prof);

/* Print context CTX as the text format names it, "[a:1 @ b:2.1 @ c]",
   into a new string (malloc; NULL if out of memory).  */
char *lp_sx_context_name (const struct lp_sx_profile *prof, size_t ctx);

/* PROF in LLVM's text format, as llvm-profdata 14 writes it but in
   the file's order: a new NUL-terminated string (malloc) of *LEN
   bytes, NULL if out of memory.  */
char *lp_sx_to_text (const struct lp_sx_profile *prof, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_SAMPLE_EXT_H */
