/* prof-file.c: which file the profile goes to, and how it gets there.

   File name.  The pattern comes from, in increasing precedence (the
   order is behaviour, as compiler-rt's ProfileNameSpecifier; a source
   replaces the pattern of an equal or lower one):
     1. "default.profraw";
     2. the build-time path in __latepgo_prf_fname (generate=PATH);
     3. the environment: LLVM_PROFILE_FILE, or LATEPGO_PROFILE_FILE,
	which wins when both are set (empty values count as unset);
     4. __llvm_profile_set_filename () (NULL: "default.profraw").
   Patterns: %p pid, %h host name, %t $TMPDIR followed by '/' ("/tmp/"
   when TMPDIR is unset), %m or %Nm (N >= 1) the module signature and
   pid % N: online merging into a pool of N files, %c continuous mode
   (prof-continuous.c; it adds nothing to the name), %% a '%'.  Unknown
   specifiers are dropped with a warning, as compiler-rt drops them.
   Expansion happens at every write, so a fork child's %p is its own.
   Missing parent directories are created (mode 0755 less umask).

   Write policy (lp_write_profile).  The file is opened, created if
   needed, and locked with flock; then, by what it holds:
     - a profile of this module (byte-identical but for the counts)
       carrying our run token, or under %m carrying any token: our
       counts are added to it in place;
     - otherwise a profile carrying our run token (another module of
       this process tree wrote there): ours is appended;
     - otherwise (empty, another run's, foreign): the file is replaced
       by our profile -- LLVM's "overwrite" semantics.
   The run token identifies one process tree (prof-core.c), so counts of
   fork children, of exec'd images and of earlier explicit writes are
   never lost, while a new run still starts a fresh file.

   Writing twice to the same file from one process must not count twice:
   the snapshot of the counters written last time is kept, and a merge
   adds only what was counted since.  Replacing or appending writes all
   counts (the earlier write is gone from the file).  Resetting the
   counters or forking forgets the snapshot.  */

#include "prof-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_NAME "default.profraw"

/* The current file name pattern, and where the last write went.
   Mapped when the first pattern is set rather than static: 12 KiB less
   in every instrumented module's .bss.  */
struct lp_names
{
  enum lp_name_source source;
  const char *origin;		/* For notes: where it came from.  */
  char pattern[LP_PATH_MAX];
  unsigned pool;		/* %Nm: N; 0 without %m.  */
  int continuous;		/* %c is in the pattern.  */
  int kept;			/* Continuous mode mapped WRITTEN_PATH: the
				   name cannot change any more.  */
  char tmpdir[LP_PATH_MAX];	/* For %t.  */
  char written_path[LP_PATH_MAX];
};
static struct lp_names *name;

/* The counters as of the last successful write.  */
static uint64_t *written;
static size_t written_alloc;
static int written_valid;

/* Check PATTERN; set *POOL to its %m pool size (0 without %m) and
   *CONTINUOUS to whether it has %c.  Warn about unknown specifiers.
   Return 0, or -1 (reported) if PATTERN is unusable.  */

static int
check_pattern (const char *pattern, unsigned *pool, int *continuous)
{
  *pool = 0;
  *continuous = 0;
  if (strlen (pattern) >= LP_PATH_MAX)
    {
      lp_warning ("profile file pattern is longer than %d bytes",
		  LP_PATH_MAX - 1);
      return -1;
    }
  for (const char *p = pattern; *p; p++)
    {
      if (*p != '%' || !p[1])
	continue;
      p++;
      if (*p == 'p' || *p == 'h' || *p == 't' || *p == '%')
	continue;
      const char *q = p;
      unsigned n = 0;
      while (*q >= '0' && *q <= '9' && q - p < 6)
	n = n * 10 + (*q++ - '0');
      if (*q == 'm')
	{
	  if (*pool)
	    {
	      lp_warning ("%%m appears twice in profile file pattern '%s'",
			  pattern);
	      return -1;
	    }
	  *pool = n ? n : 1;
	  p = q;
	  continue;
	}
      if (*p == 'c')
	*continuous = 1;
      else
	lp_warning ("unknown specifier '%%%c' dropped from profile file "
		    "pattern '%s'", *p, pattern);
    }
  return 0;
}

/* Make PATTERN, from SOURCE (described by ORIGIN), the file name
   pattern unless a source of higher precedence set one.  NULL or ""
   means "default.profraw".  */

void
lp_set_filename (const char *pattern, enum lp_name_source source,
		 const char *origin)
{
  unsigned pool;
  int continuous;

  if (name && name->kept)
    {
      lp_warning ("profile file pattern '%s' from %s ignored: in continuous "
		  "mode the counters live in '%s'", pattern ? pattern
		  : DEFAULT_NAME, origin, name->written_path);
      return;
    }
  if (!name && !(name = lp_alloc (sizeof *name)))
    {
      lp_error ("cannot allocate the profile file name: %s",
		lp_strerror (errno));
      return;
    }
  if (source < name->source)
    {
      lp_note ("profile file pattern '%s' from %s ignored: '%s' from %s "
	       "takes precedence", pattern ? pattern : DEFAULT_NAME, origin,
	       name->pattern, name->origin);
      return;
    }
  if (!pattern || !*pattern)
    pattern = DEFAULT_NAME;
  if (check_pattern (pattern, &pool, &continuous) != 0)
    {
      lp_warning ("using '%s' instead", DEFAULT_NAME);
      pattern = DEFAULT_NAME;
      pool = 0;
      continuous = 0;
    }
  memmove (name->pattern, pattern, strlen (pattern) + 1);
  name->pool = pool;
  name->continuous = continuous;
  name->source = source;
  name->origin = origin;
  name->tmpdir[0] = 0;
  if (strstr (pattern, "%t"))
    {
      const char *t = getenv ("TMPDIR");
      if (!t || !*t || strlen (t) >= LP_PATH_MAX)
	t = "/tmp";
      memcpy (name->tmpdir, t, strlen (t) + 1);
    }
  lp_note ("profile file pattern '%s' set by %s", name->pattern, origin);
}

/* Set the file name pattern from the build and the environment, with
   the precedence told at the top of this file.  */

void
lp_file_init (void)
{
  const char *p;

  if (name && name->kept)
    {
      lp_warning ("profile file name not read again: in continuous mode "
		  "the counters live in '%s'", name->written_path);
      return;
    }
  lp_set_filename (NULL, LP_NAME_DEFAULT, "the default");
  p = lp_build_time_filename ();
  if (p)
    lp_set_filename (p, LP_NAME_BUILD,
		     "the build (-fplugin-arg-latepgo-generate=PATH)");
  p = getenv ("LATEPGO_PROFILE_FILE");
  if (p && *p)
    lp_set_filename (p, LP_NAME_ENV, "LATEPGO_PROFILE_FILE");
  else
    {
      p = getenv ("LLVM_PROFILE_FILE");
      if (p && *p)
	lp_set_filename (p, LP_NAME_ENV, "LLVM_PROFILE_FILE");
    }
}

/* Append the LEN bytes of S to OUT (SIZE bytes) at *POS.  Return 0, or
   -1 if OUT is full.  */

static int
append (char *out, size_t size, size_t *pos, const char *s, size_t len)
{
  if (len >= size - *pos)
    return -1;
  memcpy (out + *pos, s, len);
  *pos += len;
  out[*pos] = 0;
  return 0;
}

/* Expand the current pattern into OUT (SIZE bytes).  Return 0, or -1
   if the name does not fit.  */

static int
expand_filename (char *out, size_t size)
{
  size_t pos = 0;
  char num[24];
  int rc = 0;

  out[0] = 0;
  for (const char *p = name->pattern; *p && rc == 0; p++)
    {
      if (*p != '%' || !p[1])
	{
	  rc = append (out, size, &pos, p, 1);
	  continue;
	}
      p++;
      if (*p == 'p')
	rc = append (out, size, &pos, num,
		     lp_format_u64 (num, (uint64_t) getpid ()));
      else if (*p == 'h')
	{
	  char host[256];
	  if (lp_hostname (host, sizeof host) != 0)
	    memcpy (host, "unknown-host", sizeof "unknown-host");
	  rc = append (out, size, &pos, host, strlen (host));
	}
      else if (*p == 't')
	{
	  rc = append (out, size, &pos, name->tmpdir, strlen (name->tmpdir));
	  if (rc == 0)
	    rc = append (out, size, &pos, "/", 1);
	}
      else if (*p == '%')
	rc = append (out, size, &pos, "%", 1);
      else
	{
	  const char *q = p;
	  while (*q >= '0' && *q <= '9' && q - p < 6)
	    q++;
	  if (*q != 'm')
	    continue;		/* %c, or unknown (warned when set).  */
	  p = q;
	  rc = append (out, size, &pos, num,
		       lp_format_u64 (num, lp_module_signature ()));
	  if (rc == 0)
	    rc = append (out, size, &pos, "_", 1);
	  if (rc == 0)
	    rc = append (out, size, &pos, num,
			 lp_format_u64 (num, (uint64_t) getpid () % name->pool));
	}
    }
  return rc;
}

/* Create the directories leading to PATH, ignoring failures (open
   reports what matters).  */

static void
make_parent_dirs (const char *path)
{
  char dir[LP_PATH_MAX];
  size_t len = strlen (path);
  if (len >= sizeof dir)
    return;
  memcpy (dir, path, len + 1);
  for (size_t i = 1; i < len; i++)
    if (dir[i] == '/')
      {
	dir[i] = 0;
	mkdir (dir, 0755);
	dir[i] = '/';
      }
}

/* Open or create PATH for reading and writing.  Return the descriptor,
   or -1 after reporting the error.  */

static int
open_profile (const char *path)
{
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0 && errno == ENOENT && strchr (path, '/'))
    {
      make_parent_dirs (path);
      fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    }
  if (fd < 0)
    lp_error ("cannot open profile file '%s': %s", path, lp_strerror (errno));
  return fd;
}

/* Take an exclusive lock on FD, waiting for other writers.  Return 0,
   or -1 with errno set.  */

static int
lock_file (int fd)
{
  while (flock (fd, LOCK_EX) != 0)
    if (errno != EINTR)
      return -1;
  return 0;
}

/* Whether the current pattern asks for continuous mode (%c).  */

int
lp_file_continuous (void)
{
  return name && name->continuous;
}

/* Continuous mode: open and lock the regular file the current pattern
   names, for prof-continuous.c to map; its name goes to PATH
   (LP_PATH_MAX bytes), *MERGING says whether the pattern has %m.
   Return the descriptor, or -1 after reporting why not.  */

int
lp_open_for_mapping (char *path, int *merging)
{
  struct stat st;

  if (!name)
    return -1;
  if (expand_filename (path, LP_PATH_MAX) != 0)
    {
      lp_error ("profile file name from pattern '%s' is too long",
		name->pattern);
      return -1;
    }
  int fd = open_profile (path);
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      lp_warning ("continuous mode needs a regular file, and '%s' is not "
		  "one", path);
      close (fd);
      return -1;
    }
  if (lock_file (fd) != 0)
    lp_warning ("cannot lock profile file '%s': %s; concurrent writers "
		"may lose counts", path, lp_strerror (errno));
  *merging = name->pool != 0;
  return fd;
}

/* Continuous mode mapped the file PATH: from now on the name stays,
   and messages name PATH.  */

void
lp_file_keep_name (const char *path)
{
  if (!name)
    return;
  name->kept = 1;
  memcpy (name->written_path, path, strlen (path) + 1);
}

/* Keep IMG's snapshot as the record of what was written to PATH.  */

static void
remember_written (struct lp_image *img, const char *path)
{
  lp_free (written, written_alloc);
  written = img->raw;
  written_alloc = img->raw_alloc;
  img->raw = NULL;
  img->raw_alloc = 0;
  memcpy (name->written_path, path, strlen (path) + 1);
  written_valid = 1;
}

/* Forget the last write: the counters were reset or this is a new
   process.  */

void
lp_forget_written (void)
{
  written_valid = 0;
}

/* Put IMG into the regular file FD (locked, SIZE bytes long) at PATH,
   following the write policy.  Set *WHAT to a description of what was
   done.  Return 0, or -1 with errno set.  */

static int
update_file (int fd, const char *path, uint64_t size, struct lp_image *img,
	     const char **what)
{
  struct lp_scan scan = { 0, -1, 0, 0, 0 };
  int merging_pool = name->pool != 0;

  if (size && lp_scan_file (fd, size, img, lp_state.token, merging_pool,
			    &scan) != 0)
    return -1;

  lp_warn_dropped_tail (path, size, &scan);

  if (scan.match >= 0)
    {
      int delta = written_valid && strcmp (name->written_path, path) == 0;
      lp_image_fill_counters (img, delta ? written : NULL);
      *what = "merged into the existing profile";
      int saturated = 0;
      if (lp_merge_counters (fd, (uint64_t) scan.match, img, &saturated) != 0)
	return -1;
      if (saturated)
	lp_warning ("counts in profile file '%s' passed 2^64-1; kept at "
		    "18446744073709551615", path);
      return lp_merge_values (fd, (uint64_t) scan.match, scan.match_end,
			      scan.end, img);
    }

  lp_image_fill_counters (img, NULL);
  lp_vdata_build (img, NULL, 0);
  if (scan.ours)
    {
      /* Profiles of other modules of this run precede ours.  */
      uint64_t at = scan.end + lp_pad8 (scan.end);
      static const char zeros[8];
      *what = "appended to the profiles of other modules";
      if (at > scan.end
	  && lp_pwrite_all (fd, zeros, at - scan.end, scan.end) != 0)
	return -1;
      if (lp_pwrite_all (fd, img->buf, img->size, at) != 0
	  || lp_pwrite_all (fd, img->vdata, img->vdata_size,
			    at + img->size) != 0)
	return -1;
      return ftruncate (fd, (off_t) (at + img->size + img->vdata_size));
    }

  if (size && merging_pool)
    lp_warning ("profile file '%s' holds no profile compatible with this "
		"program; replacing it", path);
  *what = size ? "replaced the previous contents" : "new file";
  if (ftruncate (fd, 0) != 0 || lp_pwrite_all (fd, img->buf, img->size, 0) != 0)
    return -1;
  return lp_pwrite_all (fd, img->vdata, img->vdata_size, img->size);
}

/* Write this module's profile for REASON to the file named by the
   current pattern.  Return 0, or -1 after reporting the problem.  */

int
lp_write_profile (enum lp_write_reason reason)
{
  struct lp_image img;
  char path[LP_PATH_MAX];
  const char *what = "";
  int rc = -1;
  int fd = -1;

  if (__atomic_exchange_n (&lp_state.busy, 1, __ATOMIC_ACQUIRE))
    {
      lp_note ("profile not written: another write is in progress");
      return -1;
    }
  int pdeathsig = lp_suspend_pdeathsig ();

  if (!name)
    {
      lp_error ("no profile file name (allocation failed at start-up); "
		"no profile written");
      goto out;
    }
  if (lp_image_build (&img, lp_state.token, 0) != 0)
    goto out;
  if (img.skipped)
    lp_warning ("%llu malformed profile records left out",
		(unsigned long long) img.skipped);
  if (img.lean && img.ids_size == 0)
    /* Written anyway: the counts are there, only the join fails.  */
    lp_warning ("lean module without a GNU build id: latepgo-profdata "
		"cannot match its profile with the binary (link with "
		"-Wl,--build-id)");
  if (img.num_records == 0 && img.num_counters && !img.lean)
    {
      /* The code kept its counters, the records are gone: lld and
	 -z start-stop-gc let --gc-sections drop sections that only
	 __start_/__stop_ refer to.  */
      lp_warning ("profile counters without records: section %s was "
		  "discarded by the linker (with --gc-sections, link with "
		  "-z nostart-stop-gc); no profile written", LATEPGO_SEC_DATA);
      goto out_free;
    }
  if (img.num_records == 0 && !img.lean)
    {
      lp_note ("no instrumented functions in this module; no profile "
	       "written");
      rc = 0;
      goto out_free;
    }
  if (expand_filename (path, sizeof path) != 0)
    {
      lp_error ("profile file name from pattern '%s' is too long",
		name->pattern);
      goto out_free;
    }

  fd = open_profile (path);
  if (fd < 0)
    goto out_free;
  lp_state.write_fd = fd;

  struct stat st;
  if (fstat (fd, &st) != 0)
    goto io_error;
  if (!S_ISREG (st.st_mode))
    {
      /* A device or a pipe (LLVM_PROFILE_FILE=/dev/null): no merging.  */
      lp_image_snapshot (&img);
      lp_image_fill_counters (&img, NULL);
      lp_vdata_build (&img, NULL, 0);
      what = "written to a non-regular file";
      if (lp_write_all (fd, img.buf, img.size) != 0
	  || lp_write_all (fd, img.vdata, img.vdata_size) != 0)
	goto io_error;
    }
  else
    {
      if (lock_file (fd) != 0)
	lp_warning ("cannot lock profile file '%s': %s; concurrent writers "
		    "may lose counts", path, lp_strerror (errno));
      /* The size as of holding the lock.  */
      if (fstat (fd, &st) != 0)
	goto io_error;
      lp_image_snapshot (&img);
      if (update_file (fd, path, (uint64_t) st.st_size, &img, &what) != 0)
	goto io_error;
    }

  lp_state.write_fd = -1;
  if (close (fd) != 0)
    {
      fd = -1;
      goto io_error;
    }
  fd = -1;
  rc = 0;
  lp_note ("profile written to '%s' (%s)", path, what);
  if (reason == LP_WRITE_EXEC)
    lp_forget_written ();
  else
    remember_written (&img, path);
  goto out_free;

 io_error:
  lp_error ("cannot write profile file '%s': %s", path, lp_strerror (errno));
  if (fd >= 0)
    {
      lp_state.write_fd = -1;
      close (fd);
    }

 out_free:
  lp_image_free (&img);
 out:
  lp_restore_pdeathsig (pdeathsig);
  __atomic_store_n (&lp_state.busy, 0, __ATOMIC_RELEASE);
  return rc;
}
