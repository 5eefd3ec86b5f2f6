/* lp-dump.c: print the raw profiles (LLVM raw version 8, 64-bit,
   little-endian) in a file, so the runtime tests can check exact counts
   without LLVM.  Checks what llvm-profdata 14 checks
   (doc/raw-format.md sections 1 and 5) and exits 1 on the first
   problem, so a writer bug fails the test even without llvm-profdata.

   Usage: lp-dump [-s] FILE...
   Without -s, for every profile of every FILE:
     profile N records R counters C names S token T binary-id HEX|none
   then one line per record, in file order:
     NAME HASH COUNT...
   NAME comes from the uncompressed name chunks (MD5LOW64 lookup);
   records whose name is in a compressed chunk print #NAMEREF instead.
   With -s: one line per (NAME, HASH) with the counts of all profiles
   of all FILEs added up, sorted by name then hash (llvm-profdata merge
   semantics), after a line "profiles N".  */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Its own MD5, not format/md5.c: the test checks the runtime's name
   hashes against an independent one.  */
/* ---- MD5 (RFC 1321), just enough for MD5LOW64.  */

static uint32_t
rol (uint32_t x, int c)
{
  return (x << c) | (x >> (32 - c));
}

/* Return the first 8 bytes of the MD5 digest of MSG (LEN bytes) read
   as a little-endian number.  */

static uint64_t
md5_low64 (const unsigned char *msg, size_t len)
{
  static const uint32_t k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
    0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
    0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };
  static const int r[64] = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21 };
  uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
  size_t total = ((len + 8) / 64 + 1) * 64;
  unsigned char *m = calloc (total, 1);
  memcpy (m, msg, len);
  m[len] = 0x80;
  uint64_t bits = (uint64_t) len * 8;
  for (int i = 0; i < 8; i++)
    m[total - 8 + i] = bits >> (8 * i);
  for (size_t off = 0; off < total; off += 64)
    {
      uint32_t w[16];
      for (int i = 0; i < 16; i++)
	w[i] = m[off + 4 * i] | m[off + 4 * i + 1] << 8
	       | m[off + 4 * i + 2] << 16 | (uint32_t) m[off + 4 * i + 3] << 24;
      uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
      for (int i = 0; i < 64; i++)
	{
	  uint32_t f;
	  int g;
	  if (i < 16)
	    f = (b & c) | (~b & d), g = i;
	  else if (i < 32)
	    f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
	  else if (i < 48)
	    f = b ^ c ^ d, g = (3 * i + 5) % 16;
	  else
	    f = c ^ (b | ~d), g = (7 * i) % 16;
	  uint32_t t = d;
	  d = c;
	  c = b;
	  b = b + rol (a + f + k[i] + w[g], r[i]);
	  a = t;
	}
      h[0] += a, h[1] += b, h[2] += c, h[3] += d;
    }
  free (m);
  return (uint64_t) h[0] | (uint64_t) h[1] << 32;
}

/* ---- Names.  */

struct name
{
  uint64_t ref;
  char *text;
};

static struct name *names;
static size_t num_names, names_alloc;

static void
add_name (const unsigned char *s, size_t len)
{
  if (num_names == names_alloc)
    {
      names_alloc = names_alloc ? 2 * names_alloc : 64;
      names = realloc (names, names_alloc * sizeof *names);
    }
  names[num_names].ref = md5_low64 (s, len);
  names[num_names].text = strndup ((const char *) s, len);
  num_names++;
}

static const char *
find_name (uint64_t ref)
{
  for (size_t i = 0; i < num_names; i++)
    if (names[i].ref == ref)
      return names[i].text;
  return NULL;
}

static int
read_uleb (const unsigned char **p, const unsigned char *end, uint64_t *v)
{
  int shift = 0;
  *v = 0;
  while (*p < end && shift < 64)
    {
      unsigned char b = *(*p)++;
      *v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
	return 0;
      shift += 7;
    }
  return -1;
}

/* Parse the names blob P..END; return 0 or -1.  */

static int
parse_names (const unsigned char *p, const unsigned char *end)
{
  while (p < end)
    {
      if (*p == 0)
	{
	  p++;
	  continue;
	}
      uint64_t ulen, clen;
      if (read_uleb (&p, end, &ulen) || read_uleb (&p, end, &clen))
	return -1;
      uint64_t len = clen ? clen : ulen;
      if (len > (uint64_t) (end - p))
	return -1;
      if (!clen)
	{
	  const unsigned char *s = p, *e = p + len;
	  while (s <= e)
	    {
	      const unsigned char *sep = memchr (s, 1, e - s);
	      if (!sep)
		sep = e;
	      if (sep == s)
		return -1;	/* Empty name.  */
	      add_name (s, sep - s);
	      s = sep + 1;
	    }
	}
      p += len;
    }
  return 0;
}

/* ---- Profiles.  */

struct record
{
  const char *name;
  char refname[24];
  uint64_t hash;
  uint32_t n;
  uint64_t *counts;
};

static struct record *records;
static size_t num_records, records_alloc;
static int sum_mode;
static int num_profiles;

static void
fail (const char *file, const char *msg, uint64_t v)
{
  fprintf (stderr, "lp-dump: %s: %s (%" PRIu64 ")\n", file, msg, v);
  exit (1);
}

static uint64_t
get64 (const unsigned char *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return v;
}

/* Print (or add up) the profile at BUF of FILE, SIZE bytes left in the
   file; return its length.  */

static uint64_t
dump_profile (const char *file, const unsigned char *buf, uint64_t size)
{
  if (size < 88)
    fail (file, "file header is corrupt", size);
  uint64_t h[11];
  for (int i = 0; i < 11; i++)
    h[i] = get64 (buf + 8 * i);
  if (h[0] != 0xff6c70726f667281ULL)
    fail (file, "unrecognized magic", h[0]);
  if ((h[1] & 0x00ffffffffffffffULL) != 8)
    fail (file, "unsupported version", h[1]);
  if (h[2] % 8)
    fail (file, "binary ids size not a multiple of 8", h[2]);
  uint64_t data_off = 88 + h[2];
  uint64_t cnt_off = data_off + h[3] * 48 + h[4];
  uint64_t names_off = cnt_off + h[5] * 8 + h[6];
  uint64_t end = names_off + h[7] + (8 - h[7] % 8) % 8;
  if (end > size)
    fail (file, "file header is corrupt: profile longer than file", end);

  /* Binary IDs.  */
  char id[300] = "none";
  const unsigned char *p = buf + 88, *pe = buf + data_off;
  if (p < pe)
    {
      uint64_t len = get64 (p);
      if (len == 0 || len > 128 || 8 + len > (uint64_t) (pe - p))
	fail (file, "bad binary id length", len);
      for (uint64_t i = 0; i < len; i++)
	sprintf (id + 2 * i, "%02x", p[8 + i]);
    }

  num_names = 0;
  if (parse_names (buf + names_off, buf + names_off + h[7]) != 0)
    fail (file, "malformed names", h[7]);

  num_profiles++;
  if (!sum_mode)
    printf ("profile %d records %" PRIu64 " counters %" PRIu64
	    " names %" PRIu64 " token %016" PRIx64 " binary-id %s\n",
	    num_profiles, h[3], h[5], h[7], h[9], id);

  for (uint64_t i = 0; i < h[3]; i++)
    {
      const unsigned char *r = buf + data_off + 48 * i;
      uint64_t ref = get64 (r), hash = get64 (r + 8);
      int64_t off = (int64_t) (get64 (r + 16) - (h[8] - i * 48));
      uint32_t n;
      memcpy (&n, r + 40, 4);
      if (n == 0)
	fail (file, "number of counters is zero", i);
      if (off < 0 || (uint64_t) off >= h[5] * 8 || off % 8)
	fail (file, "bad counter offset", (uint64_t) off);
      if (n > (h[5] * 8 - off) / 8)
	fail (file, "too many counters", n);
      if (r[44] || r[45] || r[46] || r[47])
	fail (file, "value sites present", i);

      const char *nm = find_name (ref);
      if (!sum_mode)
	{
	  if (nm)
	    printf ("%s", nm);
	  else
	    printf ("#%016" PRIx64, ref);
	  printf (" 0x%" PRIx64, hash);
	  for (uint32_t c = 0; c < n; c++)
	    printf (" %" PRIu64, get64 (buf + cnt_off + off + 8 * c));
	  printf ("\n");
	  continue;
	}

      size_t k;
      for (k = 0; k < num_records; k++)
	if (records[k].hash == hash
	    && strcmp (records[k].name, nm ? nm : "") == 0
	    && (nm || strtoull (records[k].refname, NULL, 16) == ref))
	  break;
      if (k == num_records)
	{
	  if (num_records == records_alloc)
	    {
	      records_alloc = records_alloc ? 2 * records_alloc : 64;
	      records = realloc (records, records_alloc * sizeof *records);
	    }
	  records[k].name = strdup (nm ? nm : "");
	  snprintf (records[k].refname, sizeof records[k].refname,
		    "%016" PRIx64, ref);
	  records[k].hash = hash;
	  records[k].n = n;
	  records[k].counts = calloc (n, 8);
	  num_records++;
	}
      else if (records[k].n != n)
	{
	  fprintf (stderr, "lp-dump: %s: counter mismatch for %s\n", file,
		   records[k].name);
	  continue;
	}
      for (uint32_t c = 0; c < n; c++)
	records[k].counts[c] += get64 (buf + cnt_off + off + 8 * c);
    }
  return end;
}

static int
compare_records (const void *a, const void *b)
{
  const struct record *x = a, *y = b;
  int c = strcmp (x->name, y->name);
  if (c)
    return c;
  return x->hash < y->hash ? -1 : x->hash > y->hash;
}

int
main (int argc, char **argv)
{
  int i = 1;
  if (i < argc && strcmp (argv[i], "-s") == 0)
    {
      sum_mode = 1;
      i++;
    }
  if (i >= argc)
    {
      fprintf (stderr, "usage: lp-dump [-s] FILE...\n");
      return 1;
    }
  for (; i < argc; i++)
    {
      FILE *f = fopen (argv[i], "rb");
      if (!f)
	{
	  perror (argv[i]);
	  return 1;
	}
      fseek (f, 0, SEEK_END);
      long size = ftell (f);
      rewind (f);
      unsigned char *buf = malloc (size + 1);
      if (fread (buf, 1, size, f) != (size_t) size)
	fail (argv[i], "read error", 0);
      fclose (f);
      if (size == 0)
	fail (argv[i], "empty raw profile file", 0);
      uint64_t off = 0;
      while (off < (uint64_t) size)
	{
	  /* Zero bytes may follow a profile; another one starts on an
	     8-byte boundary.  */
	  if (buf[off] == 0)
	    {
	      off++;
	      continue;
	    }
	  if (off % 8)
	    fail (argv[i], "not enough space for another header", off);
	  off += dump_profile (argv[i], buf + off, size - off);
	}
      free (buf);
    }
  if (sum_mode)
    {
      printf ("profiles %d\n", num_profiles);
      qsort (records, num_records, sizeof *records, compare_records);
      for (size_t k = 0; k < num_records; k++)
	{
	  if (*records[k].name)
	    printf ("%s", records[k].name);
	  else
	    printf ("#%s", records[k].refname);
	  printf (" 0x%" PRIx64, records[k].hash);
	  for (uint32_t c = 0; c < records[k].n; c++)
	    printf (" %" PRIu64, records[k].counts[c]);
	  printf ("\n");
	}
    }
  return 0;
}
