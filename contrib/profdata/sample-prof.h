/* sample-prof.h: LLVM's text sample profiles (doc/sample-format.md)
   in latepgo-profdata: read (flat, nested inlinees, CS contexts
   "[a:1 @ b]", latepgo's '#' extension lines), merge with weights,
   write sorted, and show.  */

#ifndef LATEPGO_SAMPLE_PROF_H
#define LATEPGO_SAMPLE_PROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sp_target
{
  char *name;
  uint64_t count;
};

struct sp_size
{
  uint64_t size, count;
};

/* A body line "ID[.DISC]: COUNT [F:N]...", with its "#sizes".  */
struct sp_rec
{
  uint32_t id, disc;
  uint64_t count;
  struct sp_target *targets;
  size_t num_targets, cap_targets;
  struct sp_size *sizes;
  size_t num_sizes, cap_sizes;
};

/* A "#branch SRC: TO:N TO:M" line; the lists kept as written.  */
struct sp_branch
{
  char *src, *to[2];
  uint64_t count[2];
};

struct sp_func;
struct sp_arena;

/* An inlinee "ID[.DISC]: NAME:TOTAL" and its body.  */
struct sp_callsite
{
  uint32_t id, disc;
  struct sp_func *f;
};

/* A function, an inlinee or a CS context ("[a:1 @ b]" as its name).  */
struct sp_func
{
  char *name;
  uint64_t total, head, hash, attrs;
  int has_hash, has_attrs;
  uint64_t first_sample;	/* latepgo's rank, 0 if none.  */
  struct sp_rec *recs;
  size_t num_recs, cap_recs;
  struct sp_callsite *calls;
  size_t num_calls, cap_calls;
  struct sp_branch *branches;
  size_t num_branches, cap_branches;
};

/* The top-level functions (or contexts), hashed by name.  */
struct sp_profile
{
  struct sp_func **funcs;
  size_t num_funcs, cap_funcs;
  size_t *slots;		/* Index + 1 into funcs, 0 empty.  */
  size_t num_slots;
  /* Names are MD5 hashes in decimal, read from an extensible binary
     profile with an MD5 name table: written back as those hashes.  */
  int md5_names;
  /* A context has attribute 2 (ShouldBeInlined): the extensible
     binary summary's "preinlined" flag.  llvm-profdata 14 keeps it in a
     global that its text reader sets and its binary reader does not:
     in a merge it is that of the last text input, and -1 here (an
     extensible binary input) leaves it alone.  */
  int preinlined;
  struct sp_arena *arena;	/* See sp_profile_init_arena.  */
};

void sp_profile_init (struct sp_profile *p);
/* P, empty, to be read (sp_parse, sp_read_file), merged into another
   and freed, but not changed otherwise: its memory comes from an arena
   freed at once.  */
void sp_profile_init_arena (struct sp_profile *p);
void sp_profile_free (struct sp_profile *p);

/* Parse the text profile BUF[0, LEN) into P (empty), every count
   multiplied by WEIGHT.  Return 0, or -1 with "line N: WHY" in ERR.  */
int sp_parse (struct sp_profile *p, const char *buf, size_t len,
	      uint64_t weight, char *err, size_t errlen);

/* Read the file PATH, text or extensible binary (sample-ext-load.c),
   into P; -1 with a message in ERR on error (sample-read-file.c).  */
int sp_read_file (struct sp_profile *p, const char *path, uint64_t weight,
		  char *err, size_t errlen);

/* Add SRC into DST.  A function or inlinee whose !CFGChecksum differs
   from DST's is left out, warned about with PATH; returns the number
   left out.  */
size_t sp_merge (struct sp_profile *dst, const struct sp_profile *src,
		 const char *path);

/* The index + 1 in P->funcs of the function NAME, 0 if none.  */
size_t sp_index (const struct sp_profile *p, const char *name);

/* Sort P (functions by total descending then name, lines by id) and
   write it; -1 on a write error.  */
int sp_write (struct sp_profile *p, FILE *out);

/* Sort the body of every function of P as sp_write writes it: lines
   by id and discriminator, call targets by count then name, sizes,
   inlinees by call site then name.  */
void sp_sort_bodies (struct sp_profile *p);

/* Building P from another encoding (sample-ext-load.c): the top-level
   function NAME, created if need be; its body line ID.DISC, created;
   a call target added to a line; the inlinee NAME (LEN bytes) at
   ID.DISC of F, created.  */
struct sp_func *sp_top (struct sp_profile *p, const char *name);
struct sp_rec *sp_rec_at (struct sp_func *f, uint32_t id, uint32_t disc);
void sp_add_target (struct sp_rec *r, const char *name, size_t len,
		    uint64_t n);
struct sp_func *sp_call_at (struct sp_func *f, uint32_t id, uint32_t disc,
			    const char *name, size_t len);

/* Parse the extensible binary profile BUF[0, LEN) into P (empty),
   counts multiplied by WEIGHT (sample-ext-load.c).  */
/* Allocate what the readers add to P in P's arena from now on (P made by
   sp_profile_init_arena), or, with NULL, no longer.  */
void sp_use_arena (struct sp_profile *p);

int sp_load_ext (struct sp_profile *p, const unsigned char *buf, size_t len,
		 uint64_t weight, char *err, size_t errlen);

/* Write P (sorted by sp_sort_bodies) to OUT as the extensible binary
   profile llvm-profdata 14 merge --sample --extbinary writes, with an
   MD5 name table if MD5 (sample-ext-write.c).  Returns 0, -1 with a
   message in ERR if P cannot be written so (it mixes contexts and
   plain functions), -2 on a write error.  */
int sp_write_ext (struct sp_profile *p, FILE *out, int md5, char *err,
		  size_t errlen);

#endif /* LATEPGO_SAMPLE_PROF_H */
