/* elf-read.c: map an x86-64 or AArch64 ELF64 file and index its sections, PT_LOAD
   segments, build id and function bounds (elf-read.h).  Every offset
   and size read from the file is checked against the file size before
   use, so a truncated or corrupt file gives a message, not a crash.  */

#define _GNU_SOURCE
#include "elf-read.h"
#include "tool-util.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* True if [OFF, OFF+LEN) lies within a file of SIZE bytes.  */
static int
in_file (uint64_t off, uint64_t len, size_t size)
{
  return off <= size && len <= size - off;
}

/* Read the whole of PATH into memory: mmap when possible, since
   binaries with debug info can be large and we look at little of
   them.  */
static void
map_file (struct elf_file *elf, const char *path)
{
  struct stat st;
  int fd = open (path, O_RDONLY);
  if (fd < 0)
    lp_fatal (path, "%s", strerror (errno));
  if (fstat (fd, &st) != 0)
    lp_fatal (path, "%s", strerror (errno));
  if (!S_ISREG (st.st_mode))
    lp_fatal (path, "not a regular file");
  elf->size = st.st_size;
  if (elf->size < sizeof (Elf64_Ehdr))
    lp_fatal (path, "not an ELF file");
  void *p = mmap (NULL, elf->size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED)
    lp_fatal (path, "cannot map: %s", strerror (errno));
  close (fd);
  elf->data = p;
}

/* Index the section headers; check that each section's contents and
   name lie within the file.  */
static void
read_sections (struct elf_file *elf, const Elf64_Ehdr *eh)
{
  const char *path = elf->path;
  size_t num = eh->e_shnum;
  uint64_t shstrndx = eh->e_shstrndx;

  if (eh->e_shoff == 0)
    lp_fatal (path, "no section headers (stripped with --strip-sections?)");
  if (eh->e_shentsize != sizeof (Elf64_Shdr))
    lp_fatal (path, "corrupt ELF header: section header size %u",
	      eh->e_shentsize);
  /* Extended numbering: the real counts live in section header 0.  */
  if (!in_file (eh->e_shoff, sizeof (Elf64_Shdr), elf->size))
    lp_fatal (path, "truncated: section headers at offset 0x%lx",
	      (unsigned long) eh->e_shoff);
  /* Headers are copied out: a corrupt file may place them unaligned.  */
  Elf64_Shdr sh0, strsh;
  memcpy (&sh0, elf->data + eh->e_shoff, sizeof sh0);
  if (num == 0)
    num = sh0.sh_size;
  if (shstrndx == SHN_XINDEX)
    shstrndx = sh0.sh_link;
  if (num > elf->size / sizeof (Elf64_Shdr)
      || !in_file (eh->e_shoff, num * sizeof (Elf64_Shdr), elf->size))
    lp_fatal (path, "truncated: %zu section headers at offset 0x%lx",
	      num, (unsigned long) eh->e_shoff);
  if (shstrndx >= num)
    lp_fatal (path, "corrupt ELF header: section name table index %lu",
	      (unsigned long) shstrndx);

  const unsigned char *shdrs = elf->data + eh->e_shoff;
  memcpy (&strsh, shdrs + shstrndx * sizeof strsh, sizeof strsh);
  if (!in_file (strsh.sh_offset, strsh.sh_size, elf->size))
    lp_fatal (path, "truncated: section name table at offset 0x%lx",
	      (unsigned long) strsh.sh_offset);
  const char *strtab = (const char *) elf->data + strsh.sh_offset;

  elf->sections = xcalloc (num, sizeof *elf->sections);
  elf->num_sections = num;
  for (size_t i = 0; i < num; i++)
    {
      Elf64_Shdr sh;
      struct elf_section *s = &elf->sections[i];
      memcpy (&sh, shdrs + i * sizeof sh, sizeof sh);
      if (sh.sh_name >= strsh.sh_size
	  || !memchr (strtab + sh.sh_name, 0, strsh.sh_size - sh.sh_name))
	lp_fatal (path, "corrupt section header %zu: bad name offset", i);
      s->name = strtab + sh.sh_name;
      s->type = sh.sh_type;
      s->flags = sh.sh_flags;
      s->addr = sh.sh_addr;
      s->offset = sh.sh_offset;
      s->size = sh.sh_size;
      if (s->type != SHT_NOBITS && s->type != SHT_NULL
	  && !in_file (s->offset, s->size, elf->size))
	lp_fatal (path, "truncated: section %s at offset 0x%lx, size 0x%lx",
		  s->name, (unsigned long) s->offset, (unsigned long) s->size);
    }
}

/* Record the PT_LOAD segments.  */
static void
read_loads (struct elf_file *elf, const Elf64_Ehdr *eh)
{
  const char *path = elf->path;
  if (eh->e_phnum == 0)
    return;
  if (eh->e_phentsize != sizeof (Elf64_Phdr)
      || !in_file (eh->e_phoff, (uint64_t) eh->e_phnum * sizeof (Elf64_Phdr),
		   elf->size))
    lp_fatal (path, "truncated or corrupt program headers at offset 0x%lx",
	      (unsigned long) eh->e_phoff);
  elf->loads = xcalloc (eh->e_phnum, sizeof *elf->loads);
  for (size_t i = 0; i < eh->e_phnum; i++)
    {
      Elf64_Phdr ph;
      memcpy (&ph, elf->data + eh->e_phoff + i * sizeof ph, sizeof ph);
      if (ph.p_type == PT_LOAD)
	{
	  struct elf_load *l = &elf->loads[elf->num_loads++];
	  l->vaddr = ph.p_vaddr;
	  l->offset = ph.p_offset;
	  l->filesz = ph.p_filesz;
	}
    }
}

/* Find the NT_GNU_BUILD_ID note among the SHT_NOTE sections.  The
   linker puts it in .note.gnu.build-id, but any note section will do.  */
static void
read_build_id (struct elf_file *elf)
{
  static const char hex[] = "0123456789abcdef";
  for (size_t i = 0; i < elf->num_sections; i++)
    {
      const struct elf_section *s = &elf->sections[i];
      if (s->type != SHT_NOTE)
	continue;
      const unsigned char *p = elf->data + s->offset;
      uint64_t off = 0;
      while (s->size - off >= sizeof (Elf64_Nhdr))
	{
	  Elf64_Nhdr nh;
	  memcpy (&nh, p + off, sizeof nh);
	  uint64_t name_off = off + sizeof nh;
	  uint64_t desc_off = name_off + ((nh.n_namesz + 3ULL) & ~3ULL);
	  uint64_t next = desc_off + ((nh.n_descsz + 3ULL) & ~3ULL);
	  if (next > s->size)
	    break;
	  if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4
	      && memcmp (p + name_off, "GNU", 4) == 0
	      && nh.n_descsz > 0 && nh.n_descsz <= 64)
	    {
	      for (size_t j = 0; j < nh.n_descsz; j++)
		{
		  elf->build_id[2 * j] = hex[p[desc_off + j] >> 4];
		  elf->build_id[2 * j + 1] = hex[p[desc_off + j] & 15];
		}
	      elf->build_id[2 * nh.n_descsz] = 0;
	      return;
	    }
	  off = next;
	}
    }
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

/* Collect the function bounds: FUNC symbols of .symtab (else .dynsym)
   and executable sections.  */
static void
read_bounds (struct elf_file *elf)
{
  const struct elf_section *symsec = NULL;
  size_t cap = 16;

  for (size_t i = 0; i < elf->num_sections; i++)
    if (elf->sections[i].type == SHT_SYMTAB)
      symsec = &elf->sections[i];
  if (!symsec)
    for (size_t i = 0; i < elf->num_sections; i++)
      if (elf->sections[i].type == SHT_DYNSYM)
	symsec = &elf->sections[i];

  elf->bounds = xmalloc (cap * sizeof *elf->bounds);
#define ADD_BOUND(A)							\
  do {									\
    if (elf->num_bounds == cap)						\
      elf->bounds = xrealloc (elf->bounds, (cap *= 2) * sizeof *elf->bounds); \
    elf->bounds[elf->num_bounds++] = (A);				\
  } while (0)

  for (size_t i = 0; i < elf->num_sections; i++)
    {
      const struct elf_section *s = &elf->sections[i];
      if ((s->flags & SHF_EXECINSTR) && (s->flags & SHF_ALLOC))
	{
	  ADD_BOUND (s->addr);
	  ADD_BOUND (s->addr + s->size);
	}
    }

  if (symsec)
    {
      elf->symtab_name = symsec->name;
      const unsigned char *syms = elf->data + symsec->offset;
      size_t num = symsec->size / sizeof (Elf64_Sym);
      for (size_t i = 0; i < num; i++)
	{
	  Elf64_Sym sym;
	  memcpy (&sym, syms + i * sizeof sym, sizeof sym);
	  int type = ELF64_ST_TYPE (sym.st_info);
	  if ((type != STT_FUNC && type != STT_GNU_IFUNC)
	      || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
	    continue;
	  elf->num_funcs++;
	  ADD_BOUND (sym.st_value);
	  if (sym.st_size && sym.st_value + sym.st_size > sym.st_value)
	    ADD_BOUND (sym.st_value + sym.st_size);
	}
    }
#undef ADD_BOUND

  qsort (elf->bounds, elf->num_bounds, sizeof *elf->bounds, cmp_u64);
  size_t n = 0;
  for (size_t i = 0; i < elf->num_bounds; i++)
    if (n == 0 || elf->bounds[n - 1] != elf->bounds[i])
      elf->bounds[n++] = elf->bounds[i];
  elf->num_bounds = n;
}

int
elf_machine_known (uint16_t machine)
{
  return machine == EM_X86_64 || machine == EM_AARCH64;
}

void
elf_open (struct elf_file *elf, const char *path)
{
  memset (elf, 0, sizeof *elf);
  elf->path = path;
  char *rp = realpath (path, NULL);
  elf->realpath = rp ? rp : xstrdup (path);

  map_file (elf, path);
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *) elf->data;
  if (memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0)
    lp_fatal (path, "not an ELF file");
  if (eh->e_ident[EI_CLASS] != ELFCLASS64
      || eh->e_ident[EI_DATA] != ELFDATA2LSB)
    lp_fatal (path, "not a little-endian ELF64 file");
  if (!elf_machine_known (eh->e_machine))
    lp_fatal (path, "code for ELF machine %u, neither x86-64 nor AArch64",
	      eh->e_machine);
  elf->machine = eh->e_machine;
  if (eh->e_type == ET_REL)
    lp_fatal (path, "a relocatable object; give the linked executable "
	      "or shared library");
  if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
    lp_fatal (path, "not an executable or shared library (ELF type %u)",
	      eh->e_type);

  read_sections (elf, eh);
  read_loads (elf, eh);
  read_build_id (elf);
  read_bounds (elf);
}

const struct elf_section *
elf_find_section (const struct elf_file *elf, const char *name)
{
  for (size_t i = 0; i < elf->num_sections; i++)
    if (strcmp (elf->sections[i].name, name) == 0)
      return &elf->sections[i];
  return NULL;
}

const unsigned char *
elf_section_data (const struct elf_file *elf, const struct elf_section *sec)
{
  if (sec->type == SHT_NOBITS)
    return NULL;
  return elf->data + sec->offset;
}

int
elf_offset_to_vaddr (const struct elf_file *elf, uint64_t offset,
		     uint64_t *vaddr)
{
  for (size_t i = 0; i < elf->num_loads; i++)
    {
      const struct elf_load *l = &elf->loads[i];
      if (offset >= l->offset && offset - l->offset < l->filesz)
	{
	  *vaddr = offset - l->offset + l->vaddr;
	  return 0;
	}
    }
  return -1;
}

int
elf_in_code (const struct elf_file *elf, uint64_t addr)
{
  for (size_t i = 0; i < elf->num_sections; i++)
    {
      const struct elf_section *s = &elf->sections[i];
      if ((s->flags & SHF_EXECINSTR) && (s->flags & SHF_ALLOC)
	  && addr >= s->addr && addr - s->addr < s->size)
	return 1;
    }
  return 0;
}

uint64_t
elf_next_bound (const struct elf_file *elf, uint64_t addr)
{
  size_t lo = 0, hi = elf->num_bounds;
  /* First bound > ADDR.  */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (elf->bounds[mid] <= addr)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo < elf->num_bounds ? elf->bounds[lo] : UINT64_MAX;
}
