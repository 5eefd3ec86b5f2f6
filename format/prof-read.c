/* prof-read.c: opening an input profile: mapping the file, detecting
   raw, indexed or text format by its first bytes, validating it, and
   combining variant bits across inputs.  */

#define _GNU_SOURCE
#include "profile.h"
#include "indexed-format.h"
#include "le.h"
#include "tool-util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read all of FD (not a regular file) into a malloc'd buffer.  */
static int
slurp (int fd, struct lp_profile *prof, struct lp_err *err)
{
  size_t cap = 65536, n = 0;
  unsigned char *buf = xmalloc (cap);

  for (;;)
    {
      ssize_t r;
      if (n == cap)
	buf = xrealloc (buf, cap *= 2);
      r = read (fd, buf + n, cap - n);
      if (r < 0)
	{
	  if (errno == EINTR)
	    continue;
	  lp_seterr (err, "%s", strerror (errno));
	  free (buf);
	  return -1;
	}
      if (r == 0)
	break;
      n += r;
    }
  prof->data = buf;
  prof->size = n;
  prof->mapped = 0;
  return 0;
}

/* Whether the first bytes of BUF look like a text profile: printable
   ASCII, white space or bytes of UTF-8 sequences only.  LLVM's
   TextInstrProfReader::hasFormat checks only the first 8 bytes; C
   identifiers may be UTF-8, and the text we write with such names
   must read back.  The text reader validates the rest.  */
static int
looks_like_text (const unsigned char *buf, size_t size)
{
  size_t n = size < 1024 ? size : 1024;
  for (size_t i = 0; i < n; i++)
    if (!(buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'
	  || buf[i] == '\v' || buf[i] == '\f'
	  || (buf[i] >= 0x20 && buf[i] != 0x7f)))
      return 0;
  return 1;
}

static int
dispatch (struct lp_profile *prof, lp_sink_fn sink, void *ctx,
	  struct lp_err *err)
{
  switch (prof->format)
    {
    case LP_FORMAT_RAW:
      return lp_raw_read (prof, sink, ctx, err);
    case LP_FORMAT_INDEXED:
      return lp_indexed_read (prof, sink, ctx, err);
    default:
      return lp_text_read (prof, sink, ctx, err);
    }
}

static int
open_profile (struct lp_profile *prof, const char *path, int lean_ok,
	      struct lp_err *err)
{
  struct stat st;
  int fd;

  memset (prof, 0, sizeof *prof);
  prof->path = path;
  prof->lean_ok = lean_ok;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      lp_seterr (err, "%s", strerror (errno));
      return -1;
    }
  if (fstat (fd, &st) < 0)
    {
      lp_seterr (err, "%s", strerror (errno));
      close (fd);
      return -1;
    }
  if (S_ISDIR (st.st_mode))
    {
      lp_seterr (err, "is a directory");
      close (fd);
      return -1;
    }
  if (S_ISREG (st.st_mode))
    {
      prof->size = st.st_size;
      if (prof->size > 0)
	{
	  void *p = mmap (NULL, prof->size, PROT_READ, MAP_PRIVATE, fd, 0);
	  if (p == MAP_FAILED)
	    {
	      lp_seterr (err, "cannot map file: %s", strerror (errno));
	      close (fd);
	      return -1;
	    }
	  madvise (p, prof->size, MADV_SEQUENTIAL);
	  prof->data = p;
	  prof->mapped = 1;
	}
    }
  else if (slurp (fd, prof, err) < 0)
    {
      close (fd);
      return -1;
    }
  close (fd);

  if (prof->size == 0)
    {
      lp_seterr (err, "empty profile file");
      lp_profile_close (prof);
      return -1;
    }
  const char *unknown = NULL;
  if (prof->size >= 8)
    {
      uint64_t m = le_read_u64 (prof->data);
      if (m == LATEPGO_RAW_MAGIC_64 || m == LATEPGO_RAW_MAGIC_32
	  || __builtin_bswap64 (m) == LATEPGO_RAW_MAGIC_64
	  || __builtin_bswap64 (m) == LATEPGO_RAW_MAGIC_32)
	prof->format = LP_FORMAT_RAW;
      else if (m == LATEPGO_INDEXED_MAGIC)
	prof->format = LP_FORMAT_INDEXED;
      else if (looks_like_text (prof->data, prof->size))
	prof->format = LP_FORMAT_TEXT;
      else
	unknown = "bad magic";
    }
  else if (looks_like_text (prof->data, prof->size))
    prof->format = LP_FORMAT_TEXT;
  else
    unknown = "file too short";
  if (unknown)
    {
      lp_seterr (err, "unrecognized instrumentation profile encoding "
		 "format (%s)", unknown);
      lp_profile_close (prof);
      return -1;
    }

  if (dispatch (prof, NULL, NULL, err) < 0)
    {
      lp_profile_close (prof);
      return -1;
    }
  return 0;
}

int
lp_profile_open (struct lp_profile *prof, const char *path,
		 struct lp_err *err)
{
  return open_profile (prof, path, 0, err);
}

int
lp_profile_open_lean (struct lp_profile *prof, const char *path,
		      struct lp_err *err)
{
  return open_profile (prof, path, 1, err);
}

void
lp_profile_emit (struct lp_profile *prof, lp_sink_fn sink, void *ctx)
{
  struct lp_err err;
  if (dispatch (prof, sink, ctx, &err) < 0)
    /* Validation passed, so this is a bug in the reader.  */
    lp_fatal (prof->path, "internal error: %s", err.msg);
}

void
lp_profile_close (struct lp_profile *prof)
{
  if (prof->data)
    {
      if (prof->mapped)
	munmap ((void *) prof->data, prof->size);
      else
	free ((void *) prof->data);
    }
  prof->data = NULL;
  prof->size = 0;
}

const char *
lp_variant_kind_name (uint64_t v)
{
  if (v & LATEPGO_VARIANT_CSIR)
    return "context-sensitive IR";
  if (v & LATEPGO_VARIANT_IR)
    return "IR";
  return "front-end";
}
