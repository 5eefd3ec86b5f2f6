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
   (--perfscript, or a binary linked without a build id) by path.

   When perf.data has call stacks (perf record --call-graph=dwarf or
   -g; 'perf evlist -v' shows CALLCHAIN in its sample_type), a second
   pass reads the first two frames of each sample:
     perf script -i FILE -F pid,ip,dso --no-inline --max-stack=2
   prints for each sample a line with the pid, then one line per frame,
   "\t   ADDR (PATH)", ADDR relative to the mapped file as a file offset
   (perf's map_ip: address - mapping start + page offset), which the
   file's PT_LOAD segments turn into a virtual address.  Frame 0 is the
   sampled IP; frame 1 a return address, minus 1 when perf unwound the
   stack from DWARF (like dwfl_frame_pc), as is when it came from frame
   pointers.  Subtracting 1 more points into the call instruction in
   both cases: an x86 call is at least 2 bytes long.  Frame-pointer
   stacks miss the caller of a function that sets up no frame (a leaf
   built without frame pointer, or in its prologue) and show the
   caller's caller instead: DWARF call stacks are the reliable ones.

   When perf.data has the user register DX in its samples (perf record
   --user-regs=dx, or any call graph mode that saves user registers;
   'perf evlist -v' shows sample_regs_user with bit 3 set), the sample
   pass asks for it too (-F pid,ip,uregs) and passes it on with the
   sample: at a call instruction (and before it, until DX is set), DX
   is the call's third argument, the size of a memcpy, memmove or
   memset (x86-64 SysV ABI).  Likewise the flags register (perf record
   --user-regs=flags, bit 9): at a conditional jump, which has not run
   yet when the sample interrupts it, FLAGS says which way it goes.  */

#ifndef LATEPGO_PERF_SAMPLES_H
#define LATEPGO_PERF_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "elf-read.h"

/* The user registers of a sample that latepgo-profgen uses.  */
struct sample_regs
{
  int has_dx, has_flags;
  uint64_t dx, flags;
};

/* Called for each sample in binary BIN (an index into the array given
   to perf_read_samples) at virtual address VADDR, with the user
   registers REGS it has.  */
typedef void (*perf_sample_fn) (void *ctx, size_t bin, uint64_t vaddr,
				const struct sample_regs *regs);

/* Called for each call-stack sample whose first two frames are in the
   binaries: the sampled code at VADDR in binary BIN, called from the
   call instruction holding CALL_VADDR in binary CALL_BIN.  */
typedef void (*perf_stack_fn) (void *ctx, size_t bin, uint64_t vaddr,
			       size_t call_bin, uint64_t call_vaddr);

struct perf_stats
{
  uint64_t samples;		/* Every sample line.  */
  uint64_t kernel;		/* IP in the kernel half of the space.  */
  uint64_t unmapped;		/* User IP in no known mapping.  */
  uint64_t other_files;		/* In mappings of files not given.  */
  uint64_t outside_loads;	/* In a binary's mapping, no PT_LOAD.  */
  uint64_t *per_binary;		/* Passed to the callback, per binary.  */
  uint64_t skipped_lines;	/* Lines not understood.  */
  int has_stacks;		/* perf.data has call stacks.  */
  uint64_t dx_samples;		/* Samples that came with DX.  */
  uint64_t flags_samples;	/* ... with FLAGS.  */
  uint64_t stack_samples;	/* Samples with at least one frame.  */
  uint64_t stack_in_bins;	/* Passed to the stack callback.  */
};

/* Read the samples of FILE: a perf.data file, or when IS_SCRIPT the
   output of the perf script command above.  Call FN for every sample
   in one of the NUM binaries ELFS and fill STATS (per_binary is
   allocated here).  Exit with a message when FILE cannot be read, has
   no samples, was recorded from other builds of the binaries, or has
   no samples of any of them; warn about binaries without samples when
   others have some.  Then, if STACK_FN is not NULL and FILE is a
   perf.data file with call stacks, call STACK_FN for each sample whose
   first two frames are in the binaries (the same CTX).  VERBOSE adds
   notes about the matching.  */
void perf_read_samples (const char *file, int is_script,
			struct elf_file *elfs, size_t num,
			perf_sample_fn fn, perf_stack_fn stack_fn, void *ctx,
			struct perf_stats *stats, int verbose);

#endif /* LATEPGO_PERF_SAMPLES_H */
