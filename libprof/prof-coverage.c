/* prof-coverage.c: modules built with coverage=function or
   coverage=block (latepgo-abi.h, LATEPGO_SEC_COV; doc/coverage.md).

   Their counters are single bytes, LLVM's byte coverage: 0xff until
   the code runs, then 0.  The rest of the runtime keeps working on
   64-bit counts: a snapshot turns each byte into a count of 1
   (covered) or 0, so folding duplicate records, the difference since
   the last write and the merges all keep their meaning ("covered in
   either" is a nonzero sum); the counters area of the profile is
   written back as bytes.  A module's profile has one counter size, so
   a module that links coverage objects with counting ones, or
   function coverage with block coverage, writes no profile.  */

#include "prof-internal.h"

/* The sum of the LATEPGO_SEC_COV marks of SECS: records per kind.  */

static void
count_marked (const struct lp_sections *secs, uint64_t *function,
	      uint64_t *block)
{
  *function = *block = 0;
  for (const uint64_t *p = secs->cov_begin; p && p < secs->cov_end; p++)
    {
      uint64_t kind = *p >> 32, n = *p & 0xffffffffu;
      if (kind == LATEPGO_COVERAGE_FUNCTION)
	*function += n;
      else if (kind == LATEPGO_COVERAGE_BLOCK)
	*block += n;
    }
}

/* The kind of this module's counters: 0 (64-bit counts),
   LATEPGO_COVERAGE_FUNCTION or LATEPGO_COVERAGE_BLOCK, or -1 when it
   mixes them (reported once).  */

int
lp_counter_kind (void)
{
  static int kind = -2;
  if (kind != -2)
    return kind;

  struct lp_sections secs;
  uint64_t function, block, records = 0;
  lp_get_sections (&secs);
  count_marked (&secs, &function, &block);
  for (const struct latepgo_data_record *r = secs.data_begin;
       r && r < secs.data_end; r++)
    if (r->num_counters)
      records++;
  /* Lean objects have no records in the module (prof-lean.c).  */
  records += lp_lean_functions (&secs);
  if (function + block == 0)
    kind = 0;
  else if (function == records)
    kind = LATEPGO_COVERAGE_FUNCTION;
  else if (block == records)
    kind = LATEPGO_COVERAGE_BLOCK;
  else
    {
      lp_error ("this module links objects built with "
		"-fplugin-arg-latepgo-coverage=function (%llu functions), "
		"=block (%llu) and without coverage (%llu); one profile "
		"holds one kind of counters: no profile written",
		(unsigned long long) function, (unsigned long long) block,
		(unsigned long long) (records - function - block));
      kind = -1;
    }
  return kind;
}

/* The variant bits of a profile with counters of KIND.  */

uint64_t
lp_kind_variant (int kind)
{
  if (kind == LATEPGO_COVERAGE_FUNCTION)
    return (LATEPGO_VARIANT_IR | LP_VARIANT_BYTE_COVERAGE
	    | LP_VARIANT_ENTRY_ONLY);
  if (kind == LATEPGO_COVERAGE_BLOCK)
    return LATEPGO_VARIANT_IR | LP_VARIANT_BYTE_COVERAGE;
  return LATEPGO_VARIANT_IR;
}

/* N bytes at BYTES as counts in RAW: 1 where covered, else 0.  */

void
lp_coverage_snapshot (uint64_t *raw, const unsigned char *bytes, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    raw[i] = bytes[i] == 0;
}

/* The byte of count C: 0 (covered) if C is not 0.  */

unsigned char
lp_coverage_byte (uint64_t c)
{
  return c ? 0 : LATEPGO_COVERAGE_NOT_RUN;
}

/* Merge the N bytes of FILE into MINE: covered if covered in either.  */

void
lp_coverage_merge (unsigned char *mine, const unsigned char *file, uint64_t n)
{
  for (uint64_t i = 0; i < n; i++)
    if (file[i] == 0)
      mine[i] = 0;
}
