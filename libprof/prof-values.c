/* prof-values.c: the value-profile helpers instrumented code calls.

   Memop sizes and indirect-call targets (latepgo-abi.h): plain
   counters after the function's edge counters.  Called once per
   executed site, so kept to a few instructions: no state, no locks,
   safe in signal handlers and before the runtime started.  */

#include "latepgo-abi.h"

/* The first-run clock (latepgo-abi.h).  */
unsigned long long __latepgo_first_run_clock;

void __latepgo_memop_profile (unsigned long long *counters,
			      unsigned long long size);
void __latepgo_memop_profile_atomic (unsigned long long *counters,
				     unsigned long long size);
void __latepgo_icall_profile (unsigned long long *counters, void *target,
			      const long long *table, unsigned n);
void __latepgo_icall_profile_atomic (unsigned long long *counters,
				     void *target, const long long *table,
				     unsigned n);

void
__latepgo_memop_profile (unsigned long long *counters, unsigned long long size)
{
  counters[latepgo_memop_bucket (size)]++;
}

/* update=atomic: exact totals when threads share the site.  */

void
__latepgo_memop_profile_atomic (unsigned long long *counters,
				unsigned long long size)
{
  __atomic_fetch_add (&counters[latepgo_memop_bucket (size)], 1,
		      __ATOMIC_RELAXED);
}

/* The index of TARGET in the N candidates of TABLE, or N (other).
   Entries are addresses relative to the table (no relocations); the
   tables are short (at most 16 entries).  */

static inline unsigned
icall_index (void *target, const long long *table, unsigned n)
{
  long long rel = (long long) ((char *) target - (const char *) table);
  unsigned i = 0;
  while (i < n && table[i] != rel)
    i++;
  return i;
}

void
__latepgo_icall_profile (unsigned long long *counters, void *target,
			 const long long *table, unsigned n)
{
  counters[icall_index (target, table, n)]++;
}

void
__latepgo_icall_profile_atomic (unsigned long long *counters, void *target,
				const long long *table, unsigned n)
{
  __atomic_fetch_add (&counters[icall_index (target, table, n)], 1,
		      __ATOMIC_RELAXED);
}
