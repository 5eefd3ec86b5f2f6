/* prof-values.c: what instrumented code uses for value profiles.

   Memop sizes (latepgo-abi.h): instrumented code adds to the count of
   the site's value node of the size's range, which it reads from the
   table here.  Indirect-call targets: per call site a list of
   (target address, count) nodes, as compiler-rt's
   __llvm_profile_instrument_target keeps them.  Called once per
   executed site, so kept to a few instructions: no locks (nodes come
   from a static pool and are linked in by compare-and-swap), no
   allocation, safe in signal handlers and before the runtime started.  */

#include "prof-internal.h"

/* The first-run clock (latepgo-abi.h).  */
unsigned long long __latepgo_first_run_clock;

void __latepgo_icall_target (void *target,
			     struct latepgo_value_node **site);
void __latepgo_icall_target_atomic (void *target,
				    struct latepgo_value_node **site);

/* Where the node of the range (latepgo_memop_bucket) of every size up
   to 512 starts, in u64 words (3 per node), and at
   LATEPGO_MEMOP_RANGES_LAST that of all larger sizes: objects of the
   latepgo before table blocks count a memop's size with one load from
   it (latepgo-abi.h), no call; the plugin's table blocks hold the same
   bytes (from latepgo_memop_bucket).  Written out by the preprocessor from the same rule: 0..8
   exactly, then per power of two 2^k a range 2^(k-1)+1 .. 2^k-1 and
   2^k alone.  The STL bench's training run (callgrind, small input)
   with a helper call computing the range: 70.58M instructions; with a
   helper reading it here: 70.41M; with the range numbers read inline:
   69.74M (wall clock, 11 rounds: 1.078 -> 1.061 of plain -O2); words
   instead of range numbers, which spare the multiplication by 3 and a
   register: 71.32M -> 70.95M (memcmp sizes profiled too); each
   function's own table, in one address with its nodes: 70.81M ->
   70.61M.  */
#define LOG2_UPTO_512(n)						\
  ((n) >= 512 ? 9 : (n) >= 256 ? 8 : (n) >= 128 ? 7 : (n) >= 64 ? 6	\
   : (n) >= 32 ? 5 : (n) >= 16 ? 4 : 3)
#define BUCKET(n)							\
  ((n) <= 8 ? (n)							\
   : ((n) & ((n) - 1)) == 0 ? 9 + 2 * (LOG2_UPTO_512 (n) - 4) + 1	\
   : 9 + 2 * (LOG2_UPTO_512 (n) - 3))
#define B2(n) SCALE * BUCKET (n), SCALE * BUCKET ((n) + 1)
#define B4(n) B2 (n), B2 ((n) + 2)
#define B8(n) B4 (n), B4 ((n) + 4)
#define B16(n) B8 (n), B8 ((n) + 8)
#define B32(n) B16 (n), B16 ((n) + 16)
#define B64(n) B32 (n), B32 ((n) + 32)
#define B128(n) B64 (n), B64 ((n) + 64)
#define B256(n) B128 (n), B128 ((n) + 128)
#define B512(n) B256 (n), B256 ((n) + 256)
#define TABLE { B512 (0), SCALE * BUCKET (512),			\
		SCALE * (LATEPGO_MEMOP_BUCKETS - 1) }
#define SCALE 3
const unsigned char __latepgo_memop_words[LATEPGO_MEMOP_RANGES_LAST + 1]
  = TABLE;
#undef SCALE

/* The range numbers themselves, which objects of the latepgo before
   (2026-11-27) read (latepgo-abi.h).  */
#define SCALE 1
const unsigned char __latepgo_memop_ranges[LATEPGO_MEMOP_RANGES_LAST + 1]
  = TABLE;
#undef SCALE

/* The next free node of the module's pool (LATEPGO_SEC_VNODES, sized
   by the plugin from the number of sites, as compiler-rt's).  */
static size_t next_node;
static int pool_empty_reported;

/* A fresh node, or NULL (reported once) when the pool is used up.  */

static struct latepgo_value_node *
new_node (void)
{
  struct latepgo_value_node *end;
  struct latepgo_value_node *pool = lp_value_nodes (&end);
  size_t n = pool ? (size_t) (end - pool) : 0;
  size_t i = __atomic_fetch_add (&next_node, 1, __ATOMIC_RELAXED);
  if (i < n)
    return &pool[i];
  __atomic_store_n (&next_node, n, __ATOMIC_RELAXED);
  if (!__atomic_exchange_n (&pool_empty_reported, 1, __ATOMIC_RELAXED))
    lp_warning ("all %zu indirect-call value nodes are in use; targets "
		"first seen from now on are not counted", n);
  return NULL;
}

/* Count one call of TARGET at SITE: add to its node, else link in a
   new node at the end of the list.  A site keeps at most
   LATEPGO_ICALL_MAX_TARGETS targets; past that, as compiler-rt, a new
   target takes the place of the least counted one only once that one
   is down to zero, each new-target call taking one from it, so hot
   targets stay and cold ones come and go.  ATOMIC: counts are added
   atomically (update=atomic); list links always are.  */

static inline void
count_target (void *target, struct latepgo_value_node **site, int atomic)
{
  unsigned long long value = (unsigned long long) (uintptr_t) target;
  struct latepgo_value_node **link = site;
  struct latepgo_value_node *n, *min;
  unsigned count = 0;

  /* The walk only looks for TARGET: a site's targets are few and its
     list short, and a full list (the only case that needs the least
     counted node) is rare, so that node is looked for afterwards.  */
  while ((n = __atomic_load_n (link, __ATOMIC_ACQUIRE)) != NULL)
    {
      unsigned long long have = __atomic_load_n (&n->value, __ATOMIC_RELAXED);
      /* A site's first node is the compiler's, value 0 until a target
	 takes it (latepgo-abi.h); of two threads, the one whose target
	 does not take it goes on down the list.  */
      if (have == 0 && value != 0
	  && __atomic_compare_exchange_n (&n->value, &have, value, 0,
					  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	have = value;
      if (have == value)
	{
	  if (atomic)
	    __atomic_fetch_add (&n->count, 1, __ATOMIC_RELAXED);
	  else
	    n->count++;
	  return;
	}
      link = &n->next;
      count++;
    }
  if (count >= LATEPGO_ICALL_MAX_TARGETS)
    {
      min = __atomic_load_n (site, __ATOMIC_ACQUIRE);
      for (n = min->next; n; n = n->next)
	if (n->count < min->count)
	  min = n;
      if (min->count == 0)
	{
	  min->value = value;
	  min->count = 1;
	}
      else
	min->count--;
      return;
    }
  n = new_node ();
  if (!n)
    return;
  n->value = value;
  n->count = 1;
  n->next = NULL;
  struct latepgo_value_node *expected = NULL;
  /* Another thread linked a node here first: this call is not counted
     (compiler-rt drops it too), and the node is lost to the pool.  */
  __atomic_compare_exchange_n (link, &expected, n, 0, __ATOMIC_RELEASE,
			       __ATOMIC_RELAXED);
}

void
__latepgo_icall_target (void *target, struct latepgo_value_node **site)
{
  count_target (target, site, 0);
}

void
__latepgo_icall_target_atomic (void *target,
			       struct latepgo_value_node **site)
{
  count_target (target, site, 1);
}

/* The runtime's constructor and writer (prof-core.c) are needed by
   every module that counts values, even one whose records all point
   at their value sites rather than at __latepgo_runtime.  */
extern int __latepgo_runtime;
__attribute__ ((used)) static int *const pull_runtime = &__latepgo_runtime;
