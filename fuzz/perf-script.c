/* perf-script.c: libFuzzer harness for latepgo-profgen's reader of
   perf script output (contrib/profgen/perf-samples.c, --perfscript).  The
   input is the text; the one binary it can map is /fuzz/prog, whose
   single PT_LOAD covers file offsets 0x1000..0x101000 at the same
   virtual addresses, and whose one executable section covers
   0x2000..0x3000.  The reader must read it or exit with a message
   (exit-trap.h), and every sample it hands over must be inside that
   segment.  Branch-stack samples (perf script brstack, with or without
   pids, frames, frames and records with their files (-F ...,dso) and
   aggregated counts) go through brstack.c as
   latepgo-profgen's do: every record end said to be in the binary
   must be in its code, and every range must run forwards inside
   it.  */

#define _GNU_SOURCE
#include "brstack.h"
#include "elf-read.h"
#include "perf-samples.h"
#include "exit-trap.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

static struct elf_load load = { 0x1000, 0x1000, 0x100000 };
static struct elf_section text = { ".text", SHT_PROGBITS,
				   SHF_ALLOC | SHF_EXECINSTR, 0x2000, 0x2000,
				   0x1000 };
static char prog_path[] = "/fuzz/prog";

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  exit_trap_no_leak_check (argc, argv);
  return 0;
}

static void
on_sample (void *ctx, size_t bin, uint64_t vaddr,
	   const struct sample_regs *regs)
{
  (void) ctx;
  (void) regs;
  if (bin != 0 || vaddr < load.vaddr || vaddr - load.vaddr >= load.filesz)
    abort ();
}

static int
in_text (uint64_t a)
{
  return a >= text.addr && a - text.addr < text.size;
}

static void
on_range (void *ctx, int bin, uint64_t start, uint64_t end, uint64_t count)
{
  (void) ctx;
  if (bin != 0 || !in_text (start) || !in_text (end) || start > end
      || count == 0)
    abort ();
}

static void
on_branches (void *ctx, const struct branch_sample *bs)
{
  struct lbr_stats st;
  (void) ctx;
  if (bs->num == 0 || bs->count == 0)
    abort ();
  for (size_t i = 0; i < bs->num; i++)
    {
      const struct branch_record *r = &bs->records[i];
      if ((r->from_bin >= 0 && (r->from_bin != 0 || !in_text (r->from)))
	  || (r->to_bin >= 0 && (r->to_bin != 0 || !in_text (r->to))))
	abort ();
    }
  if (bs->has_stack && bs->leaf_bin >= 0
      && (bs->leaf_bin != 0 || !in_text (bs->leaf)))
    abort ();
  /* Frames said to be in the binary (perf script -F ...,dso maps
     them through their files) are in its code.  */
  for (size_t i = 0; i < bs->num_frames; i++)
    if (bs->frame_bins[i] >= 0
	&& (bs->frame_bins[i] != 0 || !in_text (bs->frames[i])))
      abort ();
  struct lbr_entry *e = malloc ((bs->num + 1) * sizeof *e);
  memset (&st, 0, sizeof st);
  size_t n = lbr_entries (bs, e, &st);
  if (n > bs->num)
    abort ();
  for (size_t i = 0; i < n; i++)
    if (e[i].from_bin != 0 || (e[i].to_bin >= 0 && e[i].to_bin != 0))
      abort ();
  lbr_ranges (e, n, bs->count, on_range, NULL, &st);
  free (e);
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct elf_file elf;
  struct perf_stats stats;
  char path[64];

  int fd = memfd_create ("fuzz-script", MFD_CLOEXEC);
  if (fd < 0 || write (fd, data, size) != (ssize_t) size)
    abort ();
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  memset (&elf, 0, sizeof elf);
  elf.path = prog_path;
  elf.realpath = prog_path;
  elf.loads = &load;
  elf.num_loads = 1;
  elf.sections = &text;
  elf.num_sections = 1;
  memset (&stats, 0, sizeof stats);
  if (!EXIT_TRAP_RUN (perf_read_samples (path, 1, &elf, 1, on_sample,
					 on_branches, NULL, NULL, NULL,
					 &stats, 0)))
    free (stats.per_binary);
  close (fd);
  return 0;
}
