/* merge-file.c: libFuzzer harness for the runtime's reading of an
   existing profile file (libprof/prof-merge.c, prof-file.c): the
   input is what the file holds when the program writes its profile.
   The runtime (built from its sources with the sanitizers) writes
   the profile of merge-file-module.c's code into it, under the run
   token of the checked-in seeds, so seeds of this module are merged
   into, appended to or replaced.  Afterwards the file must hold only
   well-formed profiles (the runtime never leaves a file that readers
   reject), one of them this module's, whose counts are at least this
   run's (no wrapping) and whose first-run times at most this run's.

   The module has an indirect call and a memcpy of varying size, so
   its profile has value data of both kinds, which a merge adds up and
   rewrites with what follows it.

   An input starting with "LPSELF\n" stands for this module's profile
   followed by the rest of the input, "LPSATD\n" the same with every
   counter at 2^64-1: seeds that stay this module's whatever the
   plugin's layout.  LATEPGO_FUZZ_WRITE_SEED=FILE makes the harness
   write its module's profile to FILE at start-up.  */

#include "../libprof/prof-internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The run token of the seeds.  */
#define FUZZ_TOKEN 0x5eed5eed5eed5eedULL

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);
void fuzz_module_run (void);

/* A profile image of the module, for checking files.  */
static struct lp_image image;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  fuzz_module_run ();
  lp_state.token = FUZZ_TOKEN;
  /* No write at exit.  */
  lp_state.dumped = 1;
  if (lp_image_build (&image, FUZZ_TOKEN, 0) != 0)
    abort ();
  lp_image_snapshot (&image);
  lp_image_fill_counters (&image, NULL);
  /* The module's indirect call and memcpy: their value data follows
     the names.  */
  if (lp_vdata_build (&image, NULL, 0) != 0)
    abort ();
  const char *seed = getenv ("LATEPGO_FUZZ_WRITE_SEED");
  if (seed)
    {
      FILE *f = fopen (seed, "wb");
      if (!f || fwrite (image.buf, 1, image.size, f) != image.size
	  || fwrite (image.vdata, 1, image.vdata_size, f) != image.vdata_size
	  || fclose (f) != 0)
	abort ();
    }
  return 0;
}

/* Check the counters of the module's profile at OFFSET of FD against
   this run's.  */

static void
check_counts (int fd, uint64_t offset)
{
  const uint64_t *mine = (const uint64_t *) (image.buf + image.counters_off);
  for (uint64_t i = 0; i < image.num_counters; i++)
    {
      uint64_t c;
      if (lp_pread_all (fd, &c, 8, offset + image.counters_off + 8 * i) != 0)
	abort ();
      if (lp_is_first_run_slot (&image, i) ? mine[i] && (!c || c > mine[i])
	  : c < mine[i])
	{
	  fprintf (stderr, "fuzz: counter %llu is %llu after a run that "
		   "counted %llu\n", (unsigned long long) i,
		   (unsigned long long) c, (unsigned long long) mine[i]);
	  abort ();
	}
    }
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  char path[64];
  struct stat st;
  struct lp_scan scan;

  int fd = memfd_create ("fuzz-profile", MFD_CLOEXEC);
  if (fd < 0)
    abort ();
  if (size >= 7 && (memcmp (data, "LPSELF\n", 7) == 0
		    || memcmp (data, "LPSATD\n", 7) == 0))
    {
      unsigned char *own = malloc (image.size);
      memcpy (own, image.buf, image.size);
      if (data[3] == 'A')
	memset (own + image.counters_off, 0xff, image.num_counters * 8);
      if (write (fd, own, image.size) != (ssize_t) image.size
	  || write (fd, image.vdata, image.vdata_size)
	     != (ssize_t) image.vdata_size)
	abort ();
      free (own);
      data += 7;
      size -= 7;
    }
  if (write (fd, data, size) != (ssize_t) size)
    abort ();
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  lp_set_filename (path, LP_NAME_API, "the harness");
  lp_forget_written ();
  if (lp_write_profile (LP_WRITE_API) != 0)
    abort ();
  if (fstat (fd, &st) != 0
      || lp_scan_file (fd, (uint64_t) st.st_size, &image, FUZZ_TOKEN, 0,
		       &scan) != 0)
    abort ();
  if (scan.foreign || scan.match < 0)
    {
      fprintf (stderr, "fuzz: the runtime left a file readers reject "
	       "(foreign %d, match %lld)\n", scan.foreign,
	       (long long) scan.match);
      abort ();
    }
  check_counts (fd, (uint64_t) scan.match);
  close (fd);
  return 0;
}
