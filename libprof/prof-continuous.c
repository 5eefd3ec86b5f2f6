/* prof-continuous.c: continuous mode, '%c' in the file name pattern
   (doc/continuous.md).

   The counters live in a shared mapping of the profile file, so every
   count is in the file the moment it is made: a process killed by
   SIGKILL, or ending in _exit or an exec, loses nothing.  ELF gives no
   way to map a file over the counters section itself, so, as LLVM on
   Linux, the code is built to count elsewhere: objects built with
   -fplugin-arg-latepgo-runtime-counter-relocation add the runtime's
   __latepgo_counter_bias to their counters' addresses (latepgo-abi.h,
   plugin/relocate.cc).  At start-up (lp_init) this file
     - puts the module's profile into the file, in the continuous layout
       (prof-writer.c: unfolded records, counters on page boundaries),
       under the file's lock and by prof-file.c's write policy: into
       this module's profile of this run (or, with %m, of any run),
       adding the counts made so far; else appended to the profiles of
       the run's other modules, on a page boundary; else replacing the
       file's contents -- by overwriting, with zeros after our profile:
       the file never gets shorter (clear_range);
     - maps that profile's counters (MAP_SHARED) and sets the bias to
       the distance from the counters section to the mapping.
   From then on relocation-built code counts in the file; with %m the
   file already holds the earlier runs' counts and this run adds to
   them; a fork child shares the mapping and adds to it too.

   What still counts in the section -- code that ran before the
   mapping, functions of objects built without relocation (with a
   warning at start-up), their per-thread shards -- is added to the
   mapping by lp_continuous_flush: at exit, before an exec, and for
   __llvm_profile_write_file.  Such counts are lost on SIGKILL.
   The flush takes what it added out of the section by subtraction
   rather than zeroing, modulo 2^64, so counts made meanwhile, and shard
   counts a thread folds in later, are neither lost nor added twice.

   A module none of whose objects was built with relocation writes at
   exit as without %c, after saying so.  The mapping is never undone:
   code of the module may run until the very end of the process.  */

#include "prof-internal.h"

#include <errno.h>
#include <sys/auxv.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read by relocation-built code (latepgo-abi.h).  */
intptr_t __latepgo_counter_bias;

/* The module's profile in the continuous layout: its first-run bits,
   and RAW as scratch for the flush.  */
static struct lp_image layout;
/* The counters in the mapping, or NULL before (or without) it.  */
static uint64_t *mapped;
static int started;

int
lp_continuous_mapped (void)
{
  return mapped != NULL;
}

/* Set *RELOCATED to the number of this module's functions whose
   objects were built with relocation, and return the number of
   functions: records, and lean objects' functions.  */

static uint64_t
count_records (const struct lp_sections *secs, uint64_t *relocated)
{
  uint64_t n = 0;
  *relocated = 0;
  for (const uint64_t *p = secs->reloc_begin; p && p < secs->reloc_end; p++)
    *relocated += *p;
  for (const struct latepgo_data_record *r = secs->data_begin;
       r && r < secs->data_end; r++)
    if (r->num_counters)
      n++;
  n += lp_lean_functions (secs);
  return n;
}

/* Overwrite bytes FROM .. TO of FD with zeros.  Continuous mode never
   makes a file shorter: another process may have mapped its end, and
   would die of SIGBUS touching a page past the end of the file.
   Readers skip zeros between and after profiles.  Return 0, or -1 with
   errno set.  */

static int
clear_range (int fd, uint64_t from, uint64_t to)
{
  static const uint64_t zeros[512];
  while (from < to)
    {
      size_t n = to - from < sizeof zeros ? to - from : sizeof zeros;
      if (lp_pwrite_all (fd, zeros, n, from) != 0)
	return -1;
      from += n;
    }
  return 0;
}

/* Put LAYOUT, with the counts made so far, into the locked regular file
   FD at PATH, by the write policy told at the top.  MERGING: %m.  Set
   *AT to the offset of the profile.  Return 0, or -1 with errno set
   (EINVAL: a profile of this module that is not on a page boundary).  */

static int
place_profile (int fd, const char *path, int merging, uint64_t page,
	       uint64_t *at)
{
  struct lp_scan scan = { 0, -1, 0, 0, 0 };
  struct stat st;

  if (fstat (fd, &st) != 0)
    return -1;
  uint64_t size = (uint64_t) st.st_size;
  if (size && lp_scan_file (fd, size, &layout, lp_state.token, merging,
			    &scan) != 0)
    return -1;
  lp_image_snapshot (&layout);
  lp_image_fill_counters (&layout, NULL);

  lp_warn_dropped_tail (path, size, &scan);

  if (scan.match >= 0)
    {
      int saturated = 0;
      *at = (uint64_t) scan.match;
      if (*at % page != 0)
	{
	  errno = EINVAL;
	  return -1;
	}
      if (lp_merge_counters (fd, *at, &layout, &saturated) != 0)
	return -1;
      if (saturated)
	lp_warning ("counts in profile file '%s' passed 2^64-1; kept at "
		    "18446744073709551615", path);
      lp_note ("continuous mode: counting on in the profile in '%s'", path);
      return scan.foreign ? clear_range (fd, scan.end, size) : 0;
    }

  if (scan.ours)
    {
      /* Zeros up to the page boundary: readers skip them.  */
      *at = scan.end + (page - scan.end % page) % page;
      lp_note ("continuous mode: appended to the profiles of other "
	       "modules in '%s'", path);
      if (clear_range (fd, scan.end, size) != 0)
	return -1;
      return lp_pwrite_all (fd, layout.buf, layout.size, *at);
    }

  if (size && merging)
    lp_warning ("profile file '%s' holds no profile compatible with this "
		"program; replacing it", path);
  lp_note ("continuous mode: new profile in '%s'", path);
  *at = 0;
  if (clear_range (fd, layout.size, size) != 0)
    return -1;
  return lp_pwrite_all (fd, layout.buf, layout.size, 0);
}

/* If the file name pattern asks for continuous mode, map this module's
   counters from the file and point relocation-built code at them.  Once
   per module; on failure the profile is written at exit as without %c.
   Called by lp_init and after the program sets a new pattern.  */

void
lp_continuous_start (void)
{
  struct lp_sections secs;
  char path[LP_PATH_MAX];
  uint64_t relocated, at;
  int merging;

  if (started || lp_state.inert || !lp_file_continuous ())
    return;
  started = 1;

  lp_get_sections (&secs);
  uint64_t records = count_records (&secs, &relocated);
  if (records == 0)
    return;
  if (relocated == 0)
    {
      lp_warning ("continuous mode (%%c) needs code built with "
		  "-fplugin-arg-latepgo-runtime-counter-relocation, and "
		  "this module's is not; its profile is written at exit "
		  "instead");
      return;
    }
  if (relocated < records)
    lp_warning ("continuous mode (%%c): %llu of the %llu instrumented "
		"functions of this module were built without "
		"-fplugin-arg-latepgo-runtime-counter-relocation; their "
		"counts reach the file only at exit",
		(unsigned long long) (records - relocated),
		(unsigned long long) records);

  uint64_t page = getauxval (AT_PAGESZ);
  if (page == 0)
    page = 4096;
  if (lp_image_build (&layout, lp_state.token, page) != 0)
    return;
  int fd = lp_open_for_mapping (path, &merging);
  if (fd < 0)
    goto fail;
  if (place_profile (fd, path, merging, page, &at) != 0)
    {
      lp_error ("cannot set up continuous mode in profile file '%s': %s",
		path, errno == EINVAL ? "a profile of this module there is "
		"not on a page boundary" : lp_strerror (errno));
      close (fd);
      goto fail;
    }

  /* The counts made so far are in the file now; should the mapping
     fail, the exit write adds only the rest.  A coverage byte set
     twice is still set once: those stay.  */
  for (uint64_t i = 0; layout.counter_size == 8 && i < layout.num_counters;
       i++)
    if (layout.raw[i])
      __atomic_fetch_sub (&secs.cnts_begin[i], layout.raw[i],
			  __ATOMIC_RELAXED);

  size_t len = layout.names_off - layout.counters_off;
  void *m = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  (off_t) (at + layout.counters_off));
  int map_errno = errno;
  /* The mapping keeps the open file, and with it the lock: let go of
     the lock explicitly.  */
  flock (fd, LOCK_UN);
  close (fd);
  if (m == MAP_FAILED)
    {
      lp_error ("cannot map profile file '%s': %s", path,
		lp_strerror (map_errno));
      goto fail;
    }

  mapped = m;
  lp_file_keep_name (path);
  __atomic_store_n (&__latepgo_counter_bias,
		    (intptr_t) m - (intptr_t) secs.cnts_begin,
		    __ATOMIC_RELEASE);
  return;

 fail:
  lp_warning ("continuous mode is off; the profile is written at exit "
	      "instead");
  lp_image_free (&layout);
}

/* Add what counted in the section and its shards since the last flush
   to the mapping (see the top).  Async-signal-safe.  */

void
lp_continuous_flush (void)
{
  struct lp_sections secs;

  if (!mapped || __atomic_exchange_n (&lp_state.busy, 1, __ATOMIC_ACQUIRE))
    return;
  lp_get_sections (&secs);
  lp_image_snapshot (&layout);
  if (layout.counter_size == 1)
    {
      /* Coverage bytes: set in the mapping what is set in the section
	 (by code built without relocation).  */
      unsigned char *bytes = (unsigned char *) mapped;
      for (uint64_t i = 0; i < layout.num_counters; i++)
	if (layout.raw[i])
	  bytes[i] = 0;
      __atomic_store_n (&lp_state.busy, 0, __ATOMIC_RELEASE);
      return;
    }
  for (uint64_t i = 0; i < layout.num_counters; i++)
    {
      uint64_t v = layout.raw[i];
      if (!v)
	continue;
      if (lp_is_first_run_slot (&layout, i))
	mapped[i] = latepgo_first_run_merge (mapped[i], v);
      else
	__atomic_fetch_add (&mapped[i], v, __ATOMIC_RELAXED);
      __atomic_fetch_sub (&secs.cnts_begin[i], v, __ATOMIC_RELAXED);
    }
  __atomic_store_n (&lp_state.busy, 0, __ATOMIC_RELEASE);
}

/* Zero the counters in the mapping (__llvm_profile_reset_counters).  */

void
lp_continuous_reset (void)
{
  if (mapped)
    memset (mapped, layout.counter_size == 1 ? LATEPGO_COVERAGE_NOT_RUN : 0,
	    layout.num_counters * layout.counter_size);
}
