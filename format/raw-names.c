/* raw-names.c: decoding the names blob of a raw profile
   (doc/raw-format.md section 7) into a NameRef -> name map.  The last
   decoded blob is kept: raw profiles of one program carry identical
   blobs, so merging many of them inflates and hashes the names once.  */

#include "raw-names.h"
#include "md5.h"
#include "leb128.h"
#include "tool-util.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct name_slot
{
  uint64_t md5;
  uint32_t off;
  uint32_t len;
  int used;
};

static struct
{
  unsigned char *blob;          /* Copy of the encoded blob.  */
  size_t blob_len;
  int valid;
  char *text;                   /* Decoded names, back to back.  */
  size_t text_len, text_cap;
  struct name_slot *slots;
  size_t mask;
  size_t num_names;
} cache;

/* Append [P, P+N) to the decoded text.  */
static char *
text_reserve (size_t n)
{
  if (cache.text_len + n > cache.text_cap)
    {
      size_t cap = cache.text_cap ? cache.text_cap : 4096;
      while (cap < cache.text_len + n)
	cap *= 2;
      cache.text = xrealloc (cache.text, cap);
      cache.text_cap = cap;
    }
  return cache.text + cache.text_len;
}

/* Read a ULEB128 at *P (< END) into *OUT, advancing *P.  */
static int
read_uleb (const unsigned char **p, const unsigned char *end, uint64_t *out)
{
  size_t off = 0;
  enum leb_status status = leb_read_u (*p, end - *p, &off, out);
  *p += off;
  return status == LEB_OK ? 0 : -1;
}
static void
insert_name (uint32_t off, uint32_t len)
{
  uint64_t md5 = lp_md5low64 (cache.text + off, len);
  size_t i = (size_t) md5 & cache.mask;
  while (cache.slots[i].used)
    {
      if (cache.slots[i].md5 == md5)
	return;
      i = (i + 1) & cache.mask;
    }
  cache.slots[i].used = 1;
  cache.slots[i].md5 = md5;
  cache.slots[i].off = off;
  cache.slots[i].len = len;
}

int
lp_raw_names_load (const unsigned char *blob, size_t len, struct lp_err *err)
{
  const unsigned char *p = blob, *end = blob + len;
  size_t num_names = 0;

  if (cache.valid && cache.blob_len == len
      && memcmp (cache.blob, blob, len) == 0)
    return 0;

  cache.valid = 0;
  cache.text_len = 0;
  while (p < end)
    {
      uint64_t ulen, clen;
      char *dst;

      if (*p == 0)
	{
	  p++;
	  continue;
	}
      if (read_uleb (&p, end, &ulen) < 0 || read_uleb (&p, end, &clen) < 0)
	{
	  lp_seterr (err, "names blob corrupt: truncated chunk header at "
		     "byte %zu of the names", (size_t) (p - blob));
	  return -1;
	}
      if (ulen > UINT32_MAX || ulen > 1u << 30)
	{
	  lp_seterr (err, "names blob corrupt: chunk claims %llu bytes of "
		     "names", (unsigned long long) ulen);
	  return -1;
	}
      if (clen == 0)
	{
	  if (ulen > (uint64_t) (end - p))
	    {
	      lp_seterr (err, "names blob corrupt: chunk of %llu bytes runs "
			 "past the end of the names",
			 (unsigned long long) ulen);
	      return -1;
	    }
	  dst = text_reserve (ulen + 1);
	  memcpy (dst, p, ulen);
	  p += ulen;
	}
      else
	{
	  uLongf out_len = ulen;
	  int zr;
	  if (clen > (uint64_t) (end - p))
	    {
	      lp_seterr (err, "names blob corrupt: compressed chunk of %llu "
			 "bytes runs past the end of the names",
			 (unsigned long long) clen);
	      return -1;
	    }
	  if (ulen > clen * 1100 + 1024)
	    {
	      lp_seterr (err, "names blob corrupt: %llu compressed bytes "
			 "cannot inflate to %llu bytes",
			 (unsigned long long) clen,
			 (unsigned long long) ulen);
	      return -1;
	    }
	  dst = text_reserve (ulen + 1);
	  zr = uncompress ((Bytef *) dst, &out_len, p, clen);
	  if (zr != Z_OK)
	    {
	      lp_seterr (err, "zlib error in names blob: %s",
			 zr == Z_BUF_ERROR
			 ? "data inflates to more bytes than the chunk "
			   "header says"
			 : zr == Z_DATA_ERROR ? "corrupt compressed data"
			 : zError (zr));
	      return -1;
	    }
	  if (out_len != ulen)
	    {
	      lp_seterr (err, "zlib error in names blob: chunk inflates to "
			 "%lu bytes, header says %llu",
			 (unsigned long) out_len, (unsigned long long) ulen);
	      return -1;
	    }
	  p += clen;
	}
      /* Split the chunk at the separators; no name may be empty.  */
      {
	size_t start = cache.text_len, chunk_end = cache.text_len + ulen;
	for (size_t i = start; i <= chunk_end; i++)
	  if (i == chunk_end || cache.text[i] == LATEPGO_NAME_SEPARATOR)
	    {
	      if (i == start)
		{
		  lp_seterr (err, "names blob corrupt: function name is "
			     "empty");
		  return -1;
		}
	      num_names++;
	      start = i + 1;
	    }
	/* Chunks follow each other without a separator in the blob;
	   add one so names of adjacent chunks stay apart.  */
	cache.text[chunk_end] = LATEPGO_NAME_SEPARATOR;
	cache.text_len = chunk_end + 1;
      }
    }
  if (cache.text_len > UINT32_MAX)
    {
      lp_seterr (err, "names blob corrupt: names too large");
      return -1;
    }

  /* Build the NameRef -> name table.  */
  {
    size_t nslots = 16;
    while (nslots < num_names * 2)
      nslots *= 2;
    free (cache.slots);
    cache.slots = xcalloc (nslots, sizeof *cache.slots);
    cache.mask = nslots - 1;
    cache.num_names = num_names;
    for (size_t i = 0, start = 0; i <= cache.text_len; i++)
      if (i == cache.text_len || cache.text[i] == LATEPGO_NAME_SEPARATOR)
	{
	  if (i > start)
	    insert_name (start, i - start);
	  start = i + 1;
	}
  }

  free (cache.blob);
  cache.blob = xmalloc (len);
  memcpy (cache.blob, blob, len);
  cache.blob_len = len;
  cache.valid = 1;
  return 0;
}

int
lp_raw_names_lookup (uint64_t name_ref, const char **name, size_t *len)
{
  size_t i = (size_t) name_ref & cache.mask;
  if (!cache.slots)
    return 0;
  while (cache.slots[i].used)
    {
      if (cache.slots[i].md5 == name_ref)
	{
	  *name = cache.text + cache.slots[i].off;
	  *len = cache.slots[i].len;
	  return 1;
	}
      i = (i + 1) & cache.mask;
    }
  return 0;
}
