/* profdata-reader.c: libFuzzer harness for one of latepgo-profdata's
   readers, chosen at compile time: -DREADER=lp_raw_read,
   lp_indexed_read or lp_text_read.

   The input must be rejected with a message, or read without error;
   a profile read is then merged into a record store and written as a
   text profile, and that text must open again (format detection
   included) and give back the store's records with the same counts:
   whatever the tool accepts, it must be able to read back what it
   writes from it.  */

#define _GNU_SOURCE
#include "profile.h"
#include "prof-store.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef READER
#error "compile with -DREADER=lp_raw_read (or lp_indexed_read, lp_text_read)"
#endif

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

/* Die loudly: libFuzzer keeps the input that got here.  */
static void
broken (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz: %s: %s\n", what, detail);
  abort ();
}

/* Sum the record REC into the struct lp_store CTX with weight 1.  */
static void
sink_store (void *ctx, const struct lp_record_in *rec)
{
  lp_store_add (ctx, rec, 1, NULL);
}

/* Check that the text profile in FD holds exactly STORE's records.  */
static void
check_text (int fd, const struct lp_store *store)
{
  char path[64];
  struct lp_profile prof;
  struct lp_err err;
  struct lp_store back;

  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  if (lp_profile_open (&prof, path, &err) < 0)
    broken ("the text written does not read back", err.msg);
  lp_store_init (&back);
  lp_profile_emit (&prof, sink_store, &back);
  lp_profile_close (&prof);
  if (back.num_records != store->num_records)
    broken ("the text written reads back", "with another number of records");
  struct lp_record **recs = lp_store_sorted (store);
  for (size_t i = 0; i < store->num_records; i++)
    {
      const struct lp_record *r = recs[i];
      const struct lp_record *b = lp_store_find (&back, r->name, r->name_len,
						 r->name_md5, r->hash);
      if (!b || b->num_counts != r->num_counts
	  || memcmp (b->counts, r->counts, r->num_counts * 8) != 0)
	broken ("the text written reads back", r->name);
    }
  free (recs);
  lp_store_free (&back);
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct lp_profile prof;
  struct lp_err err;
  struct lp_store store;

  memset (&prof, 0, sizeof prof);
  prof.path = "fuzz-input";
  prof.data = data;
  prof.size = size;
  if (READER (&prof, NULL, NULL, &err) < 0)
    return 0;
  lp_store_init (&store);
  if (lp_store_merge_variant (&store, prof.variant, &err) < 0)
    broken ("variant of a single input refused", err.msg);
  if (READER (&prof, sink_store, &store, &err) < 0)
    broken ("a validated input failed to emit", err.msg);

  int fd = memfd_create ("fuzz-text", MFD_CLOEXEC);
  FILE *out = fd < 0 ? NULL : fdopen (dup (fd), "w");
  if (!out)
    broken ("cannot make a memory file", "memfd_create");
  struct lp_record **recs = lp_store_sorted (&store);
  if (lp_write_text (out, recs, store.num_records, store.variant) < 0
      || fclose (out) != 0)
    broken ("cannot write the text profile", "stdio");
  free (recs);
  if (store.num_records)
    check_text (fd, &store);
  close (fd);
  lp_store_free (&store);
  return 0;
}
