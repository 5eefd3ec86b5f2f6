/* anchors-collect.c: collect the CFG anchor records (format/anchors.h)
   of the binaries a training run used, for "latepgo-profdata merge
   --anchors=BINARY", and write them to OUTPUT.anchors beside the
   merged profile, where a use build looks for them to salvage stale
   functions (doc/stale-salvage.md).  A function linked into several
   binaries, or a COMDAT function of several objects, has one record
   per (name, hash): the first one seen is kept.  */

#define _GNU_SOURCE
#include "anchors-collect.h"
#include "anchors.h"
#include "elf-read.h"
#include "tool-util.h"

#include <elf.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct anchors_item
{
  uint64_t name_md5, hash;
  unsigned char *bytes;		/* A copy of the record.  */
  size_t size;
  size_t order;			/* Order of arrival: first one wins.  */
};

struct anchors_set
{
  struct anchors_item *v;
  size_t num, cap;
};

struct anchors_set *
anchors_set_new (void)
{
  return xcalloc (1, sizeof (struct anchors_set));
}

size_t
anchors_set_size (const struct anchors_set *set)
{
  return set->num;
}

/* Add every record of the SIZE bytes at BUF (records only, no file
   magic) read from PATH.  */
static void
add_records (struct anchors_set *set, const unsigned char *buf, size_t size,
	     const char *path)
{
  size_t off = 0;
  for (;;)
    {
      struct anchors_record rec;
      struct lp_err err;
      int r = anchors_next (buf, size, off, &rec, &err);
      if (r == 0)
	return;
      if (r < 0)
	lp_fatal (path, "corrupt CFG anchors: %s", err.msg);
      set->v = lp_grow (set->v, &set->cap, set->num, sizeof *set->v, 64);
      struct anchors_item *it = &set->v[set->num];
      it->name_md5 = rec.name_md5;
      it->hash = rec.hash;
      it->bytes = xmalloc (rec.size);
      memcpy (it->bytes, buf + off, rec.size);
      it->size = rec.size;
      it->order = set->num++;
      off += rec.size;
    }
}

/* Add the records of the linked ELF file PATH.  Returns whether it had
   any; without the section, exits when MUST_HAVE, else returns 0.  */
static int
add_elf (struct anchors_set *set, const char *path, int must_have)
{
  struct elf_file elf;
  elf_open (&elf, path);
  const struct elf_section *sec = elf_find_section (&elf, ANCHORS_SECTION);
  int found = sec && sec->type != SHT_NOBITS;
  if (!found && must_have)
    lp_fatal (path, "no %s section: not linked from objects of a latepgo "
	      "generate build, or stripped", ANCHORS_SECTION);
  if (found)
    add_records (set, elf_section_data (&elf, sec), sec->size, path);
  munmap ((void *) elf.data, elf.size);
  free (elf.realpath);
  free (elf.sections);
  free (elf.loads);
  free (elf.bounds);
  return found;
}

/* Whether PATH starts as a linked x86-64 or AArch64 ELF64 file (executable or
   shared library), which elf_open takes.  */
static int
linked_elf_p (const char *path)
{
  unsigned char h[sizeof (Elf64_Ehdr)];
  FILE *f = fopen (path, "rb");
  if (!f)
    return 0;
  size_t got = fread (h, 1, sizeof h, f);
  fclose (f);
  if (got != sizeof h || memcmp (h, ELFMAG, SELFMAG) != 0
      || h[EI_CLASS] != ELFCLASS64 || h[EI_DATA] != ELFDATA2LSB)
    return 0;
  Elf64_Ehdr eh;
  memcpy (&eh, h, sizeof eh);
  return elf_machine_known (eh.e_machine)
	 && (eh.e_type == ET_EXEC || eh.e_type == ET_DYN);
}

/* The directory walk's state (nftw takes no argument).  */
static struct anchors_set *walk_set;
static size_t walk_found;

static int
walk_one (const char *path, const struct stat *st, int type,
	  struct FTW *ftw)
{
  (void) ftw;
  if (type == FTW_F && S_ISREG (st->st_mode) && linked_elf_p (path))
    walk_found += add_elf (walk_set, path, 0);
  return 0;
}

void
anchors_set_add_file (struct anchors_set *set, const char *path)
{
  struct stat dst;
  if (stat (path, &dst) == 0 && S_ISDIR (dst.st_mode))
    {
      /* A build tree: every training binary and shared library in it
	 with anchors; other files are passed over.  */
      walk_set = set;
      walk_found = 0;
      if (nftw (path, walk_one, 32, FTW_PHYS) != 0)
	lp_fatal (path, "cannot walk the directory: %s", strerror (errno));
      if (!walk_found)
	lp_fatal (path, "no linked binary under it has a %s section",
		  ANCHORS_SECTION);
      return;
    }
  FILE *f = fopen (path, "rb");
  if (!f)
    lp_fatal (path, "%s", strerror (errno));
  char magic[ANCHORS_FILE_MAGIC_LEN];
  size_t got = fread (magic, 1, sizeof magic, f);
  if (got == sizeof magic
      && anchors_file_p ((const unsigned char *) magic, sizeof magic))
    {
      /* An anchors file, say beside an input profile.  */
      struct stat st;
      if (fstat (fileno (f), &st) != 0)
	lp_fatal (path, "%s", strerror (errno));
      size_t size = st.st_size - ANCHORS_FILE_MAGIC_LEN;
      unsigned char *buf = xmalloc (size ? size : 1);
      if (fread (buf, 1, size, f) != size)
	lp_fatal (path, "cannot read: %s", strerror (errno));
      fclose (f);
      add_records (set, buf, size, path);
      free (buf);
      return;
    }
  fclose (f);
  add_elf (set, path, 1);
}

static int
cmp_item (const void *pa, const void *pb)
{
  const struct anchors_item *a = pa, *b = pb;
  if (a->name_md5 != b->name_md5)
    return a->name_md5 < b->name_md5 ? -1 : 1;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

size_t
anchors_set_write (struct anchors_set *set, const char *path)
{
  qsort (set->v, set->num, sizeof *set->v, cmp_item);
  char *tmp;
  FILE *f = lp_open_output (path, &tmp);
  size_t written = 0;
  fwrite (ANCHORS_FILE_MAGIC, 1, ANCHORS_FILE_MAGIC_LEN, f);
  for (size_t i = 0; i < set->num; i++)
    {
      if (i && set->v[i].name_md5 == set->v[i - 1].name_md5
	  && set->v[i].hash == set->v[i - 1].hash)
	continue;
      fwrite (set->v[i].bytes, 1, set->v[i].size, f);
      written++;
    }
  lp_commit_output (f, tmp, path);
  return written;
}

void
anchors_set_free (struct anchors_set *set)
{
  for (size_t i = 0; i < set->num; i++)
    free (set->v[i].bytes);
  free (set->v);
  free (set);
}
