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

/* MD5LOW64 (the names' NameRef) is the project's own, format/md5.c,
   compiled in by runtime.exp.  */
#include "md5.h"

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
  names[num_names].ref = lp_md5low64 (s, len);
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
