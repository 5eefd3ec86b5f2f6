/* perf-script.c: libFuzzer harness for latepgo-profgen's reader of
   perf script output (contrib/profgen/perf-samples.c, --perfscript).  The
   input is the text; the one binary it can map is /fuzz/prog, whose
   single PT_LOAD covers file offsets 0x1000..0x101000 at the same
   virtual addresses.  The reader must read it or exit with a message
   (exit-trap.h), and every sample it hands over must be inside that
   segment.  */

#define _GNU_SOURCE
#include "elf-read.h"
#include "perf-samples.h"
#include "exit-trap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

static struct elf_load load = { 0x1000, 0x1000, 0x100000 };
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
  memset (&stats, 0, sizeof stats);
  if (!EXIT_TRAP_RUN (perf_read_samples (path, 1, &elf, 1, on_sample, NULL,
					 NULL, &stats, 0)))
    free (stats.per_binary);
  close (fd);
  return 0;
}
