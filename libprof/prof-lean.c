/* prof-lean.c: the blocks that lean objects (-fplugin-arg-latepgo-lean,
   doc/lean.md) leave in the loaded image, section LEAN_SECTION
   (format/lean-map.h).  Their functions have no data records in the
   module, so the runtime learns from the blocks how many functions
   count (continuous mode checks it) and which counters are first-run
   times (merges keep the earliest of those).  The names, hashes and
   counter layout are in the binary's map, which latepgo-profdata
   merge --binary joins with the profile.

   The section is the blocks back to back; a block that does not fit
   is reported once and ends the walk.  */

#include "prof-internal.h"
#include "../format/lean-map.h"

/* Call FN (SECS, BLOCK, ARG) for every well-formed block.  */

static void
walk_blocks (const struct lp_sections *secs,
	     void (*fn) (const struct lp_sections *, const uint64_t *, void *),
	     void *arg)
{
  static int warned;
  const uint64_t *p = secs->lean_begin;
  while (p && p < secs->lean_end)
    {
      uint64_t left = secs->lean_end - p;
      if (left < LEAN_BLOCK_HEADER_WORDS
	  || p[1] > (left - LEAN_BLOCK_HEADER_WORDS) / 2)
	{
	  if (!warned)
	    lp_warning ("section %s is damaged at byte %zu; the profile "
			"misses some lean functions", LEAN_SECTION,
			(size_t) ((const char *) p
				  - (const char *) secs->lean_begin));
	  warned = 1;
	  return;
	}
      fn (secs, p, arg);
      p += LEAN_BLOCK_HEADER_WORDS + 2 * p[1];
    }
}

static void
add_functions (const struct lp_sections *secs, const uint64_t *block,
	       void *arg)
{
  *(uint64_t *) arg += block[0];
}

/* The number of instrumented functions of the module's lean objects.  */

uint64_t
lp_lean_functions (const struct lp_sections *secs)
{
  uint64_t n = 0;
  walk_blocks (secs, add_functions, &n);
  return n;
}

static void
mark_block (const struct lp_sections *secs, const uint64_t *block,
	    void *arg)
{
  uint64_t *bits = arg;
  uintptr_t begin = (uintptr_t) secs->cnts_begin;
  uintptr_t end = (uintptr_t) secs->cnts_end;
  for (uint64_t k = 0; k < block[1]; k++)
    {
      const uint64_t *pair = block + LEAN_BLOCK_HEADER_WORDS + 2 * k;
      uintptr_t first = (uintptr_t) block + (uintptr_t) pair[0];
      uint64_t n = pair[1];
      if (!begin || n == 0 || first < begin || first >= end
	  || (first - begin) % 8 != 0 || n > (end - first) / 8)
	continue;
      uint64_t last = (first - begin) / 8 + n - 1;
      bits[last / 64] |= (uint64_t) 1 << (last % 64);
    }
}

/* Set in BITS (one bit per counter of the module) the first-run
   counters of its lean functions.  */

void
lp_lean_mark_first_run (const struct lp_sections *secs, uint64_t *bits)
{
  walk_blocks (secs, mark_block, bits);
}
