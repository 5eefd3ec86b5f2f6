/* prof-merge.c: read what a profile file already holds and add its
   counts to ours.  The caller holds the file's lock.

   A file is a sequence of raw profiles, possibly separated by zero
   bytes (doc/raw-format.md section 1).  A profile in the file is compatible
   with ours, and its counters can be added to ours slot by slot, when
   everything but the counters and the run token is byte-identical:
   header, binary ID, records (which include the counter offsets) and
   names.  The value data after the names (indirect-call targets) is
   merged by prof-vdata.c, and rewritten with what follows it.  That is stricter than compiler-rt's check (sizes plus
   NameRef/FuncHash/NumCounters per record) and needs no trust in the
   file: a damaged profile never matches, so it is never merged.  */

#include "prof-internal.h"

#include <errno.h>
#include <unistd.h>

#define CHUNK 65536

/* Return 1 if the SIZE bytes at OFFSET of FD equal MEM, 0 if not or
   unreadable.  SCRATCH holds CHUNK bytes.  */

static int
same_bytes (int fd, uint64_t offset, const unsigned char *mem, uint64_t size,
	    unsigned char *scratch)
{
  while (size)
    {
      size_t n = size < CHUNK ? size : CHUNK;
      if (lp_pread_all (fd, scratch, n, offset) != 0
	  || memcmp (scratch, mem, n) != 0)
	return 0;
      offset += n;
      mem += n;
      size -= n;
    }
  return 1;
}

/* Return the length of the profile whose header is HDR up to its value
   data, or 0 if the header is not one this runtime writes (64-bit,
   version 8, paddings only as continuous mode's) or its sizes
   overflow.  */

static uint64_t
profile_length (const uint64_t *hdr)
{
  uint64_t size = (hdr[LP_H_VERSION] & LP_VARIANT_BYTE_COVERAGE) ? 1 : 8;
  if (hdr[LP_H_MAGIC] != LATEPGO_RAW_MAGIC_64
      || (hdr[LP_H_VERSION] & ~LATEPGO_VARIANT_MASK) != LATEPGO_RAW_VERSION
      || hdr[LP_H_IDS_SIZE] % 8 != 0
      || hdr[LP_H_PAD_BEFORE] % 8 != 0)
    return 0;
  const uint64_t limit = (uint64_t) 1 << 56;
  if (hdr[LP_H_IDS_SIZE] >= limit || hdr[LP_H_DATA_SIZE] >= limit / 64
      || hdr[LP_H_COUNTERS_SIZE] >= limit / 8
      || hdr[LP_H_NAMES_SIZE] >= limit
      || hdr[LP_H_PAD_BEFORE] >= limit || hdr[LP_H_PAD_AFTER] >= limit)
    return 0;
  /* The names start 8-aligned (byte counters are padded up to it).  */
  if ((hdr[LP_H_COUNTERS_SIZE] * size + hdr[LP_H_PAD_AFTER]) % 8 != 0)
    return 0;
  return LP_HEADER_SIZE + hdr[LP_H_IDS_SIZE]
	 + hdr[LP_H_DATA_SIZE] * LP_RECORD_SIZE + hdr[LP_H_PAD_BEFORE]
	 + hdr[LP_H_COUNTERS_SIZE] * size + hdr[LP_H_PAD_AFTER]
	 + hdr[LP_H_NAMES_SIZE] + lp_pad8 (hdr[LP_H_NAMES_SIZE]);
}

/* Return 1 if the profile at OFFSET of FD, whose header is HDR, has
   the same layout and identity as IMG.  */

static int
compatible (int fd, uint64_t offset, const uint64_t *hdr,
	    const struct lp_image *img, unsigned char *scratch)
{
  const uint64_t *mine = (const uint64_t *) img->buf;
  for (int i = 0; i < LATEPGO_RAW_HEADER_WORDS; i++)
    if (i != LP_H_NAMES_DELTA && hdr[i] != mine[i])
      return 0;
  /* Binary ID and records are contiguous in both.  */
  if (!same_bytes (fd, offset + img->ids_off, img->buf + img->ids_off,
		   img->counters_off - img->ids_off, scratch))
    return 0;
  return same_bytes (fd, offset + img->names_off, img->buf + img->names_off,
		     img->names_size, scratch);
}

/* Scan the SIZE bytes of profile file FD for a profile IMG can be
   merged into: a compatible one carrying run token TOKEN, or any
   compatible one when ANY_TOKEN.  Fill SCAN.  Return 0, or -1 with
   errno set when the file cannot be read.  */

int
lp_scan_file (int fd, uint64_t size, const struct lp_image *img,
	      uint64_t token, int any_token, struct lp_scan *scan)
{
  unsigned char *scratch = lp_alloc (CHUNK);
  uint64_t offset = 0;

  scan->end = 0;
  scan->match = -1;
  scan->match_end = 0;
  scan->ours = 0;
  scan->foreign = 0;
  if (!scratch)
    {
      errno = ENOMEM;
      return -1;
    }

  while (offset < size)
    {
      uint64_t hdr[LATEPGO_RAW_HEADER_WORDS];
      uint64_t word = 0;

      /* Zero bytes between and after profiles are allowed.  */
      size_t n = size - offset < 8 ? size - offset : 8;
      if (lp_pread_all (fd, &word, n, offset) != 0)
	goto fail;
      if (word == 0)
	{
	  offset += n;
	  continue;
	}
      if (size - offset < LP_HEADER_SIZE
	  || lp_pread_all (fd, hdr, sizeof hdr, offset) != 0)
	{
	  scan->foreign = 1;
	  break;
	}
      uint64_t len = profile_length (hdr);
      uint64_t vd = UINT64_MAX;
      if (len && len <= size - offset)
	vd = lp_vdata_length (fd, offset, hdr, offset + len,
			      size - offset - len);
      if (vd == UINT64_MAX)
	{
	  scan->foreign = 1;
	  break;
	}
      len += vd;
      if (hdr[LP_H_NAMES_DELTA] == token)
	scan->ours = 1;
      if (scan->match < 0 && (any_token || hdr[LP_H_NAMES_DELTA] == token)
	  && compatible (fd, offset, hdr, img, scratch))
	{
	  scan->match = (int64_t) offset;
	  scan->match_end = offset + len;
	}
      offset += len;
      scan->end = offset;
    }
  lp_free (scratch, CHUNK);
  return 0;

 fail:
  lp_free (scratch, CHUNK);
  return -1;
}

/* Warn about the bytes after the last good profile of file PATH (SIZE
   bytes, scanned into SCAN) that are not one, if the merge or append
   about to happen drops them: a torn write or a damaged file would
   keep the file unreadable for every reader.  */

void
lp_warn_dropped_tail (const char *path, uint64_t size,
		      const struct lp_scan *scan)
{
  if (scan->foreign && (scan->match >= 0 || scan->ours))
    lp_warning ("profile file '%s' is damaged after its first %llu bytes; "
		"dropping the %llu bytes from there", path,
		(unsigned long long) scan->end,
		(unsigned long long) (size - scan->end));
}

/* lp_merge_counters for byte coverage: covered if covered in either
   (prof-coverage.c).  */

static int
merge_bytes (int fd, uint64_t offset, struct lp_image *img)
{
  unsigned char *mine = img->buf + img->counters_off;
  uint64_t file_off = offset + img->counters_off;
  unsigned char *scratch = lp_alloc (CHUNK);
  if (!scratch)
    {
      errno = ENOMEM;
      return -1;
    }
  for (uint64_t done = 0; done < img->num_counters; )
    {
      uint64_t left = img->num_counters - done;
      uint64_t n = left < CHUNK ? left : CHUNK;
      if (lp_pread_all (fd, scratch, n, file_off + done) != 0)
	{
	  lp_free (scratch, CHUNK);
	  return -1;
	}
      lp_coverage_merge (mine + done, scratch, n);
      done += n;
    }
  lp_free (scratch, CHUNK);
  return lp_pwrite_all (fd, mine, img->num_counters, file_off);
}

/* Add the counters of the compatible profile at OFFSET of FD to IMG's
   counters, and write the sums back to the file in place.  Sums
   saturate at 2^64-1 (as latepgo-profdata's), setting *SATURATED;
   first-run times keep the earlier (latepgo-abi.h).  Return 0, or -1
   with errno set.  */

int
lp_merge_counters (int fd, uint64_t offset, struct lp_image *img,
		   int *saturated)
{
  if (img->counter_size == 1)
    return merge_bytes (fd, offset, img);
  uint64_t *mine = (uint64_t *) (img->buf + img->counters_off);
  uint64_t file_off = offset + img->counters_off;
  uint64_t left = img->num_counters;
  uint64_t *scratch = lp_alloc (CHUNK);
  if (!scratch)
    {
      errno = ENOMEM;
      return -1;
    }

  for (uint64_t done = 0; left; )
    {
      uint64_t n = left < CHUNK / 8 ? left : CHUNK / 8;
      if (lp_pread_all (fd, scratch, n * 8, file_off + done * 8) != 0)
	{
	  lp_free (scratch, CHUNK);
	  return -1;
	}
      for (uint64_t i = 0; i < n; i++)
	{
	  uint64_t m = mine[done + i];
	  mine[done + i] = lp_merge_slot (img, done + i, m, scratch[i]);
	  if (m && scratch[i] > UINT64_MAX - m
	      && !lp_is_first_run_slot (img, done + i))
	    *saturated = 1;
	}
      done += n;
      left -= n;
    }
  lp_free (scratch, CHUNK);
  return lp_pwrite_all (fd, mine, img->num_counters * 8, file_off);
}

/* After lp_merge_counters: merge IMG's value data with that of the
   profile at OFFSET of FD (ending at OLD_END), and rewrite the file
   from there: our value data, then the profiles that followed up to
   END (the rest is dropped).  Return 0, or -1 with errno set.  */

int
lp_merge_values (int fd, uint64_t offset, uint64_t old_end, uint64_t end,
		 struct lp_image *img)
{
  uint64_t vd_off = offset + img->size;
  size_t old_size = old_end - vd_off, tail_size = end - old_end;
  unsigned char *old = lp_alloc (old_size);
  unsigned char *tail = lp_alloc (tail_size);
  int rc = -1;
  if ((old_size && !old) || (tail_size && !tail))
    {
      errno = ENOMEM;
      goto out;
    }
  if ((old_size && lp_pread_all (fd, old, old_size, vd_off) != 0)
      || (tail_size && lp_pread_all (fd, tail, tail_size, old_end) != 0))
    goto out;
  if (lp_vdata_build (img, old, old_size) != 0)
    {
      /* Reported; the file keeps its value data, consistent with its
	 records, without this run's targets.  */
      rc = 0;
      goto out;
    }
  if (lp_pwrite_all (fd, img->vdata, img->vdata_size, vd_off) != 0
      || lp_pwrite_all (fd, tail, tail_size, vd_off + img->vdata_size) != 0)
    goto out;
  rc = ftruncate (fd, (off_t) (vd_off + img->vdata_size + tail_size));
 out:
  lp_free (old, old_size);
  lp_free (tail, tail_size);
  return rc;
}
