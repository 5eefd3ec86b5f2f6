/* prof-core.c: the runtime's anchor and lifecycle hooks.

   Every instrumented function's record refers to __latepgo_runtime
   (latepgo-abi.h), so the linker takes this object, and with it the
   constructor below, out of libprof.a into every module with
   instrumented code.  The constructor
     - stands down if compiler-rt's profile runtime is linked into the
       same module: it writes the same sections at exit itself;
     - takes the run token from the environment, or, in the first
       instrumented module of a new process tree, makes one and puts it
       there, so that exec'd descendants and the other modules of the
       process share it (prof-file.c says what the token decides);
     - remembers the build ID and the file name pattern;
     - registers the exit write (atexit: for a shared object, run at
       dlclose or exit) and the fork child handler.

   Fork: the child starts counting from zero, so parent and child each
   write only their own counts and the merge rule adds them up.
   Exec: __latepgo_before_exec writes the profile and resets the
   counters, since a successful exec runs no exit handler.
   Continuous mode (prof-continuous.c) replaces the exit and exec writes
   by a flush of what did not count in the file.

   The fork child handler may run in a signal handler (fork is
   async-signal-safe), and so may exec; both paths only use
   async-signal-safe calls.  Errno is preserved by every hook.  */

#include "prof-internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* The symbol every record refers to; its value is never used.  */
int __latepgo_runtime __attribute__ ((used));

/* What the table blocks before objects' memop nodes refer to
   (latepgo-abi.h), so that such objects link only with a runtime that
   skips them (lp_memop_link), and pull in this file.  */
const char __latepgo_memop_tables = 0;

/* Zero this module's counters and forget the last write.  */

void
lp_reset_counters (void)
{
  struct lp_sections secs;
  lp_get_sections (&secs);
  /* Coverage bytes go back to "not run" (prof-coverage.c).  */
  if (secs.cnts_begin)
    memset (secs.cnts_begin, lp_counter_kind () > 0
	    ? LATEPGO_COVERAGE_NOT_RUN : 0,
	    (char *) secs.cnts_end - (char *) secs.cnts_begin);
  lp_shards_reset ();
  lp_vdata_reset ();
  lp_forget_written ();
}

/* Parse the 16 hex digits of S into *TOKEN.  Return 0, or -1 if S is
   not a token.  */

static int
parse_token (const char *s, uint64_t *token)
{
  uint64_t v = 0;
  int i;
  for (i = 0; i < 16; i++)
    {
      char c = s[i];
      int d;
      if (c >= '0' && c <= '9')
	d = c - '0';
      else if (c >= 'a' && c <= 'f')
	d = c - 'a' + 10;
      else
	return -1;
      v = v << 4 | d;
    }
  if (s[i] != 0 || v == 0)
    return -1;
  *token = v;
  return 0;
}

/* Take the run token of this process tree from the environment, or
   start a new tree.  */

static void
init_token (void)
{
  const char *s = getenv (LP_TOKEN_ENV);
  if (s && parse_token (s, &lp_state.token) == 0)
    {
      lp_note ("run token %s inherited", s);
      return;
    }

  char hex[17];
  uint64_t t = lp_entropy ();
  if (t == 0)
    t = 1;
  lp_state.token = t;
  for (int i = 15; i >= 0; i--, t >>= 4)
    hex[i] = "0123456789abcdef"[t & 15];
  hex[16] = 0;
  if (setenv (LP_TOKEN_ENV, hex, 1) != 0)
    lp_warning ("cannot set %s: %s; exec'd programs will start new "
		"profiles", LP_TOKEN_ENV, lp_strerror (errno));
  lp_note ("new run token %s", hex);
}

/* The atexit handler: write the profile unless __llvm_profile_dump
   already did.  */

static void
exit_handler (void)
{
  int saved = errno;
  if (lp_continuous_mapped ())
    lp_continuous_flush ();
  else if (!lp_state.inert && !lp_state.dumped)
    lp_write_profile (LP_WRITE_EXIT);
  errno = saved;
}

/* pthread_atfork child handler: the child counts from zero and owns no
   write in progress.  In continuous mode the child shares the mapped
   counters with its parent and adds to them; only the section is
   zeroed.  Async-signal-safe.  */

static void
fork_child (void)
{
  int saved = errno;
  lp_state.pid = getpid ();
  if (lp_state.write_fd >= 0)
    {
      close (lp_state.write_fd);
      lp_state.write_fd = -1;
    }
  __atomic_store_n (&lp_state.busy, 0, __ATOMIC_RELAXED);
  lp_reset_counters ();
  lp_shards_fork_child ();
  errno = saved;
}

/* Set up the runtime of this module; later calls do nothing.  Reads
   the environment and walks the loaded modules, so only called from the
   constructor and from API functions, never from the exit, exec or fork
   paths.  */

void
lp_init (void)
{
  if (lp_state.initialized)
    return;
  lp_state.initialized = 1;

  const char *v = getenv ("LATEPGO_VERBOSE");
  if (!v || !*v)
    v = getenv ("LATEPGO_PROFILE_VERBOSE");
  lp_verbose = v && *v && strcmp (v, "0") != 0;

  /* Whichever runtime writes, it reads the memop sites' lists.  */
  lp_memop_link (&__latepgo_memop_tables);
  if (lp_compiler_rt_present ())
    {
      lp_state.inert = 1;
      lp_note ("compiler-rt's profile runtime is linked into this module "
	       "and writes its profile; latepgo's runtime stands down");
      return;
    }

  lp_state.pid = getpid ();
  init_token ();
  lp_find_binary_id ();
  lp_file_init ();
  lp_shards_init ();
  if (pthread_atfork (NULL, NULL, fork_child) != 0)
    lp_warning ("cannot register a fork handler; fork children will "
		"count their parent's counts again");
  if (atexit (exit_handler) != 0)
    lp_error ("cannot register the exit handler; no profile will be "
	      "written at exit");
  lp_continuous_start ();
}

/* Run early (priority 101, the first one available to programs) so
   that the exit handler is registered before most others and runs after
   them: exit-time code of the program still gets counted.  */

__attribute__ ((constructor (101))) static void
lp_constructor (void)
{
  int saved = errno;
  lp_init ();
  errno = saved;
}

/* Called by instrumented code right before exec*: write the profile
   and reset the counters (latepgo-abi.h).  Does nothing in a vfork
   child (detected by a pid the fork handler did not see): it shares
   the parent's memory, so the parent will write those counts.  */

void
__latepgo_before_exec (void)
{
  int saved = errno;
  if (lp_state.initialized && !lp_state.inert && !lp_state.dumped)
    {
      if (getpid () != lp_state.pid)
	lp_note ("exec from a vfork child: counts left to the parent");
      else if (lp_continuous_mapped ())
	lp_continuous_flush ();
      else if (lp_write_profile (LP_WRITE_EXEC) == 0)
	lp_reset_counters ();
    }
  errno = saved;
}
