/* plugin-indexed.c: libFuzzer harness for format/indexed-read.c as
   plugin/profile-read.cc drives it: open, the summary fields, then
   every record, whose counters the plugin reads straight from the
   file.  The tools' path (indexed-sink.c) is the "indexed" harness.

   The input must be rejected with a message, or every record handed
   out must lie inside the input (AddressSanitizer checks the reads)
   and be what the parser promises: at least one counter, a key hash
   that is the name's MD5, value data that walks to its end.  */

#include "indexed-read.h"
#include "le.h"
#include "md5.h"

#include "broken.h"

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

/* Die loudly: libFuzzer keeps the input that got here.  */
/* lp_indexed_kind_fn: read every byte the kind's sites cover.  */
static void
read_kind (void *ctx, uint32_t kind, uint32_t num_sites,
	   const unsigned char *site_values, const unsigned char *pairs)
{
  uint64_t *sum = ctx;
  for (uint32_t s = 0; s < num_sites; s++)
    for (unsigned v = 0; v < site_values[s]; v++, pairs += 16)
      *sum += le_read_u64 (pairs) ^ le_read_u64 (pairs + 8) ^ kind;
}

/* lp_indexed_record_fn: read REC as the plugin does, and its value
   data as the tools do.  */
static void
read_record (void *ctx, const struct lp_indexed_record *rec)
{
  uint64_t *sum = ctx;
  if (rec->num_counts == 0)
    broken ("a record without counters");
  if (lp_md5low64 (rec->name, rec->name_len) != rec->name_md5)
    broken ("a key hash that is not the name's MD5");
  for (uint32_t i = 0; i < rec->num_counts; i++)
    *sum += le_read_u64 (rec->counts + 8 * i);
  if (rec->values_size < 8)
    broken ("value data shorter than its header");
  lp_indexed_values (rec, read_kind, sum);
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct lp_indexed idx;
  struct lp_err err;
  uint64_t sum = 0;
  enum lp_indexed_status st = lp_indexed_open (&idx, data, size, &err);

  if (st == LP_INDEXED_OK)
    {
      for (unsigned i = 0; i <= idx.summary_fields && i < 64; i++)
	sum += lp_indexed_summary_field (&idx, i);
      /* The hot count the plugin reads (plugin/profile-read.cc).  */
      sum += lp_indexed_summary_min_count (&idx, 990000);
      st = lp_indexed_walk (&idx, read_record, &sum, &err);
    }
  if (st != LP_INDEXED_OK && err.msg[0] == 0)
    broken ("a rejection without a message");
  /* Keep SUM alive so that the reads are not optimized away.  */
  if (sum == 0x5eed5eed5eed5eedULL)
    fprintf (stderr, "fuzz: %llu\n", (unsigned long long) sum);
  return 0;
}
