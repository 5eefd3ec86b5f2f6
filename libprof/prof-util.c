/* prof-util.c: small helpers that are safe to call on the exit, exec
   and fork paths: memory straight from mmap (not malloc, whose locks a
   signal handler or a vfork child may find taken), I/O loops that
   survive EINTR and short transfers, hashing and number formatting.  */

#include "prof-internal.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

/* Return SIZE bytes of zeroed memory, or NULL (also for SIZE 0).
   Release with lp_free and the same SIZE.  */

void *
lp_alloc (size_t size)
{
  if (size == 0)
    return NULL;
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* Release P, SIZE bytes from lp_alloc; P may be NULL.  */

void
lp_free (void *p, size_t size)
{
  if (p && size)
    munmap (p, size);
}

/* The three ways the runtime moves file data, and the one loop that
   carries each through EINTR and short transfers.  */

enum lp_io { LP_IO_PREAD, LP_IO_PWRITE, LP_IO_WRITE };

/* Move exactly SIZE bytes between P and FD by IO (OFFSET is ignored
   for LP_IO_WRITE).  Return 0, or -1 with errno set: a transfer of no
   bytes is EIO for a read (the file ends early), ENOSPC for a write.
   P is only written through for LP_IO_PREAD.  */

static int
lp_io_all (enum lp_io io, int fd, char *p, size_t size, uint64_t offset)
{
  while (size)
    {
      ssize_t n;
      if (io == LP_IO_PREAD)
	n = pread (fd, p, size, (off_t) offset);
      else if (io == LP_IO_PWRITE)
	n = pwrite (fd, p, size, (off_t) offset);
      else
	n = write (fd, p, size);
      if (n < 0 && errno == EINTR)
	continue;
      if (n < 0)
	return -1;
      if (n == 0)
	{
	  errno = io == LP_IO_PREAD ? EIO : ENOSPC;
	  return -1;
	}
      p += n;
      size -= n;
      offset += n;
    }
  return 0;
}

/* Read exactly SIZE bytes at OFFSET of FD into BUF.  Return 0, or -1
   with errno set (EIO for a file that ends early).  */

int
lp_pread_all (int fd, void *buf, size_t size, uint64_t offset)
{
  return lp_io_all (LP_IO_PREAD, fd, buf, size, offset);
}

/* Write SIZE bytes of BUF at OFFSET of FD.  Return 0, or -1 with errno
   set.  */

int
lp_pwrite_all (int fd, const void *buf, size_t size, uint64_t offset)
{
  return lp_io_all (LP_IO_PWRITE, fd, (char *) buf, size, offset);
}

/* Write SIZE bytes of BUF at the current position of FD (pipes,
   terminals, character devices).  Return 0, or -1 with errno set.  */

int
lp_write_all (int fd, const void *buf, size_t size)
{
  return lp_io_all (LP_IO_WRITE, fd, (char *) buf, size, 0);
}

/* Continue the 64-bit FNV-1a hash H over SIZE bytes of P.  Start with
   LP_HASH_INIT.  */

uint64_t
lp_hash_bytes (uint64_t h, const void *p, size_t size)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < size; i++)
    {
      h ^= b[i];
      h *= 0x100000001b3ULL;
    }
  return h;
}

/* The splitmix64 finaliser: spread every bit of X over the result.  */

uint64_t
lp_mix64 (uint64_t x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/* Write V in decimal to BUF (at least 21 bytes), NUL-terminated.
   Return the number of digits.  */

size_t
lp_format_u64 (char *buf, uint64_t v)
{
  char tmp[20];
  size_t n = 0;
  do
    {
      tmp[n++] = '0' + v % 10;
      v /= 10;
    }
  while (v);
  for (size_t i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  buf[n] = 0;
  return n;
}
