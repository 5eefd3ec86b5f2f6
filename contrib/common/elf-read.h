/* elf-read.h: the parts of an x86-64 or AArch64 ELF64 executable or
   shared library that the tools need: section headers (latepgo-profdata
   reads the CFG anchors section, latepgo-profgen the rest) and contents, the
   GNU build id, the PT_LOAD segments (file offset -> virtual address)
   and the address ranges that bound a probe region (FUNC symbols,
   executable sections).  Read with <elf.h> only.  */

#ifndef LATEPGO_ELF_READ_H
#define LATEPGO_ELF_READ_H

#include <stddef.h>
#include <stdint.h>

struct elf_section
{
  const char *name;		/* Points into the mapped file.  */
  uint32_t type;
  uint64_t flags, addr, offset, size;
};

struct elf_load
{
  uint64_t vaddr, offset, filesz;
};

struct elf_file
{
  const char *path;		/* As given by the user.  */
  char *realpath;		/* Canonical path, or a copy of PATH.  */
  const unsigned char *data;	/* The whole file, mapped read-only.  */
  size_t size;
  struct elf_section *sections;
  size_t num_sections;
  struct elf_load *loads;
  size_t num_loads;
  /* Lower-case hex of the NT_GNU_BUILD_ID note, "" when there is none.  */
  char build_id[2 * 64 + 1];
  /* Sorted, deduplicated addresses where code of one function or
     section ends or another one starts: the start and end of every
     FUNC symbol (.symtab, else .dynsym) and of every executable
     section.  A probe region never extends past the next one.  */
  uint64_t *bounds;
  size_t num_bounds;
  /* Number of FUNC symbols found, for --verbose.  */
  size_t num_funcs;
  const char *symtab_name;	/* ".symtab", ".dynsym" or NULL.  */
  /* EM_X86_64 or EM_AARCH64: which code latepgo-profgen decodes.  */
  uint16_t machine;
};

/* Whether the tools read code of ELF machine MACHINE (e_machine):
   x86-64 and AArch64, the machines the plugin builds for.  */
int elf_machine_known (uint16_t machine);

/* Map and parse PATH.  Exit with a message naming PATH when it cannot
   be read or is not a linked ELF64 little-endian file of a machine
   elf_machine_known takes.  */
void elf_open (struct elf_file *elf, const char *path);

/* Section called NAME, or NULL.  */
const struct elf_section *elf_find_section (const struct elf_file *elf,
					    const char *name);

/* Contents of SEC in the file (NULL for SHT_NOBITS; checked to lie
   within the file by elf_open).  */
const unsigned char *elf_section_data (const struct elf_file *elf,
				       const struct elf_section *sec);

/* Translate the file offset OFFSET through the PT_LOAD segments into a
   virtual address.  Return 0 and store it in *VADDR, or -1 when no
   segment holds OFFSET.  */
int elf_offset_to_vaddr (const struct elf_file *elf, uint64_t offset,
			 uint64_t *vaddr);

/* True if the virtual address ADDR lies in an allocated executable
   section of ELF.  */
int elf_in_code (const struct elf_file *elf, uint64_t addr);

/* The smallest bound (see above) greater than ADDR, or UINT64_MAX.  */
uint64_t elf_next_bound (const struct elf_file *elf, uint64_t addr);

#endif /* LATEPGO_ELF_READ_H */
