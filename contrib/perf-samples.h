/* perf-samples.h: the user-space IP samples of a perf.data file (or of
   the text 'perf script' printed for it), mapped to virtual addresses
   in the binaries given to latepgo-profgen.

   perf.data is read by running
     perf buildid-list -i FILE
     perf script -i FILE --show-mmap-events --show-task-events -G -F pid,ip
   A sample (pid, ip) goes through the executable mappings of its
   process (PERF_RECORD_MMAP/MMAP2; FORK copies the parent's, COMM exec
   drops them) to a file offset, and through the file's PT_LOAD
   segments to an ELF virtual address.  Mapped files are matched to the
   binaries by build id (the buildid-list of perf.data); without one
   (--perfscript, or a binary linked without a build id) by path.  */

#ifndef LATEPGO_PERF_SAMPLES_H
#define LATEPGO_PERF_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "elf-read.h"

/* Called for each sample in binary BIN (an index into the array given
   to perf_read_samples) at virtual address VADDR.  */
typedef void (*perf_sample_fn) (void *ctx, size_t bin, uint64_t vaddr);

struct perf_stats
{
  uint64_t samples;		/* Every sample line.  */
  uint64_t kernel;		/* IP in the kernel half of the space.  */
  uint64_t unmapped;		/* User IP in no known mapping.  */
  uint64_t other_files;		/* In mappings of files not given.  */
  uint64_t outside_loads;	/* In a binary's mapping, no PT_LOAD.  */
  uint64_t *per_binary;		/* Passed to the callback, per binary.  */
  uint64_t skipped_lines;	/* Lines not understood.  */
};

/* Read the samples of FILE: a perf.data file, or when IS_SCRIPT the
   output of the perf script command above.  Call FN for every sample
   in one of the NUM binaries ELFS and fill STATS (per_binary is
   allocated here).  Exit with a message when FILE cannot be read, has
   no samples, was recorded from other builds of the binaries, or has
   no samples of any of them; warn about binaries without samples when
   others have some.  VERBOSE adds notes about the matching.  */
void perf_read_samples (const char *file, int is_script,
			struct elf_file *elfs, size_t num,
			perf_sample_fn fn, void *ctx,
			struct perf_stats *stats, int verbose);

#endif /* LATEPGO_PERF_SAMPLES_H */
