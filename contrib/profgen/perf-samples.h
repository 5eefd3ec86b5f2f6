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
   is the call's third argument, the size of a memcpy, memmove,
   memset, memcmp or bcmp (x86-64 SysV ABI).  Likewise the flags register (perf record
   --user-regs=flags, bit 9): at a conditional jump, which has not run
   yet when the sample interrupts it, FLAGS says which way it goes.

   Branch stacks (perf record -b or -j, from Intel LBR, AMD BRS and
   LBRv2, Arm BRBE, or Intel PT through perf inject --itrace): when
   'perf evlist -v' shows BRANCH_STACK in a sample_type, the sample
   pass asks for them (-F pid,ip,brstack) and perf prints the records
   after the IP, newest first, "0xFROM/0xTO/FLAGS...".  Such a sample
   goes to the branch callback instead of the IP one.  With call
   stacks too (perf record -b -g), that pass prints the frames (no -G)
   with their files and no inlined frames:
     perf script -i FILE --show-mmap-events --show-task-events
       --no-inline -F pid,ip,dso,brstack
   a sample as its pid, a line per frame "\t  ADDR (PATH)" (ADDR a
   file offset in PATH when perf mapped it, else as it is), then the
   records, each end followed by "(PATH)"; the frames go with the
   records to the branch callback (contexts, the prologue rule), and
   there is no call-stack pass.  perf script text in that form is read
   the same way.  perf script
   text may also be llvm-profgen's input, 'perf script -F ip,brstack'
   with or without call stacks: no pid on any line, the MMAP2 events
   starting the line, each sample as its call-stack frames (a tab and
   an address each, leaf first; or blanks and an address alone, as
   some of llvm-profgen's test scripts have them) when recorded with
   -g, then a line of
   branch records, perhaps led by the IP; llvm-profgen's aggregated
   scripts put a count before a sample (a line with just a number).
   In such a script every mapping belongs to one process, and a file
   mapped under another directory is matched to a binary by its file
   name; without any MMAP2 event of a binary, its addresses are taken
   as they are (llvm-profgen's "preferred address").  */

#ifndef LATEPGO_PERF_SAMPLES_H
#define LATEPGO_PERF_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "elf-read.h"
#include "a64-insn.h"

/* The user registers of a sample that latepgo-profgen uses: on x86-64
   DX and FLAGS, on AArch64 x0-x30 (perf's "x0".."x29", "lr").  */
struct sample_regs
{
  int has_dx, has_flags;
  uint64_t dx, flags;
  struct a64_regs a64;
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

/* One branch record: the branch at FROM went to TO.  Each end is in
   binary FROM_BIN or TO_BIN (an index into the array given to
   perf_read_samples) as a virtual address inside one of its
   executable sections, or -1 when it is elsewhere (another file, the
   kernel, no mapping), its address then as perf printed it.  */
struct branch_record
{
  int from_bin, to_bin;
  uint64_t from, to;
};

/* A sample with a branch stack: NUM records, newest first, standing
   for COUNT samples (llvm-profgen's aggregated scripts; else 1).
   HAS_STACK: it came with a call stack; then LEAF_BIN and LEAF are
   its leaf frame, as the ends of a record, and all its frames.  */
struct branch_sample
{
  const struct branch_record *records;
  size_t num;
  uint64_t count;
  int has_stack;
  int leaf_bin;
  uint64_t leaf;
  /* The frames of its call stack, leaf first, as the ends of a record
     (binary -1 outside the binaries); NUM_FRAMES 0 without them.  */
  size_t num_frames;
  const int *frame_bins;
  const uint64_t *frames;
};

typedef void (*perf_branch_fn) (void *ctx, const struct branch_sample *s);

/* --csprof from IP samples: a sample without branch records but with
   a call stack, standing for COUNT samples: its NUM frames, leaf (the
   sampled IP) first, each in binary BINS[i] (-1 outside them) at
   virtual address VADDRS[i].  Frames after the leaf are return
   addresses, as they are or minus 1 (perf's DWARF unwinding): the
   call is the instruction holding VADDRS[i] - 1.  */
typedef void (*perf_ipstack_fn) (void *ctx, uint64_t count, size_t num,
				 const int *bins, const uint64_t *vaddrs);

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
  int has_branches;		/* perf.data has branch stacks.  */
  uint64_t branch_samples;	/* Samples with a branch stack (counted).  */
  uint64_t branch_records;	/* Their records (counted).  */
  uint64_t records_in_bins;	/* ... with an end in the binaries.  */
  uint64_t stack_no_branches;	/* Call stacks without branch records.  */
  uint64_t ends_outside_code;	/* Record ends mapped, not in code.  */
  int truncated;		/* Text ends in the middle of a line.  */
};

/* Read the samples of FILE: a perf.data file, or when IS_SCRIPT the
   output of the perf script command above.  Call FN for every sample
   in one of the NUM binaries ELFS and fill STATS (per_binary is
   allocated here).  Exit with a message when FILE cannot be read, has
   no samples, was recorded from other builds of the binaries, or has
   no samples of any of them; warn about binaries without samples when
   others have some.  Samples with a branch stack go to BRANCH_FN
   (with the same CTX); when it is NULL they are taken as IP samples.
   If IPSTACK_FN is not NULL, each IP sample with a call stack also
   goes to it with all its frames: from perf script text, frames
   without branch records after them (else an error); from perf.data
   with call stacks, the call-stack pass then reads every frame (no
   --max-stack=2).
   Then, if STACK_FN is not NULL and FILE is a
   perf.data file with call stacks, call STACK_FN for each sample whose
   first two frames are in the binaries (the same CTX).  VERBOSE adds
   notes about the matching.  */
void perf_read_samples (const char *file, int is_script,
			struct elf_file *elfs, size_t num,
			perf_sample_fn fn, perf_branch_fn branch_fn,
			perf_stack_fn stack_fn, perf_ipstack_fn ipstack_fn,
			void *ctx,
			struct perf_stats *stats, int verbose);

#endif /* LATEPGO_PERF_SAMPLES_H */
