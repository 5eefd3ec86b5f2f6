/* prof-shard.c: per-thread counter shards, for update=atomic.

   A locked add on a shared counter costs tens of cycles, and far more
   when threads share the cache line.  With update=atomic, instrumented
   code instead counts into its thread's own copy of the module's
   counters section (a shard), with plain adds:

     d = __latepgo_shard_delta;			(thread-local, initial-exec)
     if (d == 0) d = __latepgo_shard_init ();	(once per thread)
     base = (char *) &__profc_fn + d;		... base[i] += 1

   A shard is as large as the module's counters section; the delta is
   the distance from the section to the shard, so one thread-local word
   serves every function of the module.  0 means "no shard yet".

   Counts reach the profile by three routes:
     - a thread that exits folds its shard into the section with atomic
       adds (a pthread key destructor) and frees the shard for the next
       new thread;
     - a write adds up the section and every shard (lp_shards_add), so
       the exiting thread's own counts and those of threads still
       running are in it;
     - a reset zeroes the shards too.

   Shards are never unmapped: code of this module may run in a thread
   after the thread's destructors ran, or after the exit write.  The
   list of shards only grows (lock-free push), a shard is claimed with
   a compare-and-swap: the slow path takes no lock, so it is safe in a
   signal handler and in a fork child.

   If the runtime has not started yet (code run by an earlier
   constructor), stood down for compiler-rt, or cannot map memory, the
   init returns 0 without remembering it: such code counts into the
   section itself, with plain adds, as update=single.  */

#include "prof-internal.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>

struct lp_shard
{
  struct lp_shard *next;	/* Older shard of this module.  */
  int owned;			/* A thread counts into it.  */
  uint64_t *counters;		/* Mirror of the counters section.  */
};

/* Read by instrumented code of this module (latepgo-abi.h).  Initial
   exec: one load from the thread pointer, also in shared objects.  */
__thread intptr_t __latepgo_shard_delta __attribute__ ((tls_model
							("initial-exec")));

intptr_t __latepgo_shard_init (void);

static struct lp_shard *shards;
static pthread_key_t shard_key;
static int shard_key_ok;
static int shards_ready;	/* lp_shards_init ran.  */
static int map_failed_warned;

/* The number of counters of this module, and where they start.  */

static uint64_t *
section_counters (size_t *n)
{
  struct lp_sections secs;
  lp_get_sections (&secs);
  *n = secs.cnts_begin ? (size_t) (secs.cnts_end - secs.cnts_begin) : 0;
  return secs.cnts_begin;
}

/* A free shard claimed for the calling thread, or NULL.  */

static struct lp_shard *
claim_free_shard (void)
{
  for (struct lp_shard *s = __atomic_load_n (&shards, __ATOMIC_ACQUIRE); s;
       s = s->next)
    {
      int expected = 0;
      if (__atomic_load_n (&s->owned, __ATOMIC_RELAXED) == 0
	  && __atomic_compare_exchange_n (&s->owned, &expected, 1, 0,
					  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
	return s;
    }
  return NULL;
}

/* A new zeroed shard of N counters, owned by the calling thread and on
   the list, or NULL.  The counters start on a page boundary after the
   header, so their cache lines are the thread's own.  */

static struct lp_shard *
new_shard (size_t n)
{
  size_t page = 4096;
  size_t size = page + (n * 8 + page - 1) / page * page;
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  struct lp_shard *s = p;
  s->owned = 1;
  s->counters = (uint64_t *) ((char *) p + page);
  struct lp_shard *head = __atomic_load_n (&shards, __ATOMIC_RELAXED);
  do
    s->next = head;
  while (!__atomic_compare_exchange_n (&shards, &head, s, 1,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  return s;
}

/* Called by instrumented code when the calling thread has no shard
   yet: give it one and return its delta, or 0 (see above).  */

intptr_t
__latepgo_shard_init (void)
{
  int saved = errno;
  intptr_t delta = 0;
  size_t n;
  uint64_t *begin = section_counters (&n);

  if (!__atomic_load_n (&shards_ready, __ATOMIC_ACQUIRE) || n == 0)
    goto out;

  struct lp_shard *s = claim_free_shard ();
  if (!s)
    s = new_shard (n);
  if (!s)
    {
      if (!__atomic_exchange_n (&map_failed_warned, 1, __ATOMIC_RELAXED))
	lp_warning ("cannot map per-thread counters: %s; threads share "
		    "counters without atomic updates", lp_strerror (errno));
      goto out;
    }
  delta = (char *) s->counters - (char *) begin;
  __latepgo_shard_delta = delta;
  if (shard_key_ok)
    pthread_setspecific (shard_key, s);
out:
  errno = saved;
  return delta;
}

/* Add the counters of S to the section's (N of them at BEGIN) and zero
   them: atomic on both sides, since other threads may add to the
   section and a writer may read S at the same time.  */

static void
fold_shard (struct lp_shard *s, uint64_t *begin, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (__atomic_load_n (&s->counters[i], __ATOMIC_RELAXED))
      {
	uint64_t v = __atomic_exchange_n (&s->counters[i], 0,
					  __ATOMIC_RELAXED);
	__atomic_fetch_add (&begin[i], v, __ATOMIC_RELAXED);
      }
}

/* The pthread key destructor: the thread exits.  */

static void
release_shard (void *p)
{
  int saved = errno;
  struct lp_shard *s = p;
  size_t n;
  uint64_t *begin = section_counters (&n);
  fold_shard (s, begin, n);
  __latepgo_shard_delta = 0;
  __atomic_store_n (&s->owned, 0, __ATOMIC_RELEASE);
  errno = saved;
}

/* Set up the thread-exit fold and let threads take shards; called
   once by lp_init, unless the runtime stands down.  */

void
lp_shards_init (void)
{
  if (pthread_key_create (&shard_key, release_shard) == 0)
    shard_key_ok = 1;
  else
    lp_warning ("cannot register a thread-exit handler; counts of exited "
		"threads stay in their shards until the next write");
  __atomic_store_n (&shards_ready, 1, __ATOMIC_RELEASE);
}

/* Add every shard's counts to RAW, N counters laid out as the
   section.  */

void
lp_shards_add (uint64_t *raw, size_t n)
{
  for (struct lp_shard *s = __atomic_load_n (&shards, __ATOMIC_ACQUIRE); s;
       s = s->next)
    for (size_t i = 0; i < n; i++)
      raw[i] += __atomic_load_n (&s->counters[i], __ATOMIC_RELAXED);
}

/* Zero every shard.  */

void
lp_shards_reset (void)
{
  size_t n;
  section_counters (&n);
  for (struct lp_shard *s = __atomic_load_n (&shards, __ATOMIC_ACQUIRE); s;
       s = s->next)
    memset (s->counters, 0, n * 8);
}

/* In a fork child (after lp_reset_counters): only the forking thread
   exists, so every other shard is free again.  Async-signal-safe.  */

void
lp_shards_fork_child (void)
{
  size_t n;
  uint64_t *begin = section_counters (&n);
  uint64_t *mine = (__latepgo_shard_delta
		    ? (uint64_t *) ((char *) begin + __latepgo_shard_delta)
		    : NULL);
  for (struct lp_shard *s = shards; s; s = s->next)
    if (s->counters != mine)
      s->owned = 0;
}

/* A shared object being unloaded must not leave its destructor
   registered for the threads that outlive it.  */

__attribute__ ((destructor)) static void
lp_shards_fini (void)
{
  if (shard_key_ok)
    {
      shard_key_ok = 0;
      pthread_key_delete (shard_key);
    }
}
