/* probe-sections.c: libFuzzer harness for latepgo-profgen's pseudo
   probe decoder (contrib/profgen/probe-decode.c).  The input is the two
   sections of a binary: a 4-byte little-endian length N, then N bytes
   of .pseudo_probe_desc, then the rest as .pseudo_probe.  The decoder
   must decode them or exit with a message (exit-trap.h), and what it
   decodes must print.  */

#include "probe-decode.h"
#include "exit-trap.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

static FILE *devnull;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  exit_trap_no_leak_check (argc, argv);
  devnull = fopen ("/dev/null", "w");
  return 0;
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct elf_section secs[2];
  struct elf_file elf;
  struct probe_set set;
  uint32_t n;

  if (size < 4)
    return 0;
  memcpy (&n, data, 4);
  if (n > size - 4)
    return 0;
  memset (secs, 0, sizeof secs);
  secs[0].name = ".pseudo_probe_desc";
  secs[0].type = SHT_PROGBITS;
  secs[0].offset = 4;
  secs[0].size = n;
  secs[1].name = ".pseudo_probe";
  secs[1].type = SHT_PROGBITS;
  secs[1].offset = 4 + (uint64_t) n;
  secs[1].size = size - 4 - n;
  memset (&elf, 0, sizeof elf);
  elf.path = "fuzz-binary";
  elf.data = data;
  elf.size = size;
  elf.sections = secs;
  elf.num_sections = 2;

  if (EXIT_TRAP_RUN (probe_decode (&elf, &set)))
    return 0;
  probe_print (devnull, &set);
  for (size_t i = 0; i < set.num_descs; i++)
    free (set.descs[i].name);
  free (set.descs);
  free (set.nodes);
  free (set.probes);
  return 0;
}
