/* mkprof.c: writes the hand-built profiles that profdata.exp feeds to
   latepgo-profdata.  Usage: mkprof CASE OUTPUT.  Every file is encoded
   here from doc/raw-format.md (raw v8) and doc/indexed-format.md
   (indexed v7), independently of the tool under test; most
   cases are one mutation of a valid file, named after what is wrong.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "md5.h"

/* Output buffer.  */
static unsigned char buf[1 << 16];
static size_t len;
static int big_endian;          /* Byte order of the raw file written.  */

static void
put (uint64_t v, int size)
{
  for (int i = 0; i < size; i++)
    buf[len + i] = (unsigned char) (v >> (8 * (big_endian ? size - 1 - i : i)));
  len += size;
}

static void put64 (uint64_t v) { put (v, 8); }
static void put32 (uint64_t v) { put (v, 4); }
static void put16 (uint64_t v) { put (v, 2); }

static void
put_bytes (const void *p, size_t n)
{
  memcpy (buf + len, p, n);
  len += n;
}

static void
pad8 (void)
{
  while (len % 8)
    buf[len++] = 0;
}

/* MD5LOW64 of a name: the project's MD5 (format/md5.c, compiled in
   by profdata.exp), the one piece shared with the tool under test;
   the llvm-profdata interop tests check the names it gives.  */
static uint64_t
md5low64 (const char *s)
{
  return lp_md5low64 (s, strlen (s));
}

/* One function of a synthetic profile.  */
struct fn
{
  const char *name;
  uint64_t hash;
  int ncounts;
  uint64_t counts[4];
};

/* Raw-writer options; each mutation case sets one.  */
struct raw_opts
{
  int ptr32;
  int compress;
  int binary_id;
  uint64_t version;             /* 0: 8 | IR.  */
  int fe;                       /* Front-end: no IR bit.  */
  const char *names_override;   /* Raw names text instead of the real one.  */
  int64_t counter_ptr_bias;     /* Added to record 0's CounterPtr.  */
  int zero_counters_rec0;       /* Record 0 NumCounters = 0.  */
  int drop_bytes;               /* Truncate the profile by this many.  */
  int corrupt_zlib;
  int truncated_uleb;
};

/* Append one raw profile of the N functions FNS (doc/raw-format.md
   section 1).  */
static void
raw_profile (const struct fn *fns, int n, const struct raw_opts *o)
{
  size_t start = len, rec_size = o->ptr32 ? 40 : 48;
  char names[1024] = "";
  unsigned char chunk[2048];
  size_t chunk_len = 0, ncounters = 0;

  for (int i = 0; i < n; i++)
    {
      if (i)
	strcat (names, "\001");
      strcat (names, fns[i].name);
      ncounters += fns[i].ncounts;
    }
  if (o->names_override)
    strcpy (names, o->names_override);

  /* Names chunk: ULEB uncompressed length, ULEB compressed length.  */
  if (o->truncated_uleb)
    {
      chunk[0] = 0x85;          /* Continuation bit, then nothing.  */
      chunk_len = 1;
    }
  else if (o->compress || o->corrupt_zlib)
    {
      uLongf clen = sizeof chunk - 8;
      compress2 (chunk + 4, &clen, (const Bytef *) names, strlen (names), 9);
      if (o->corrupt_zlib)
	memset (chunk + 4 + 2, 0xa5, clen - 2);
      /* Both lengths below 128: one ULEB byte each, then 2 spare bytes
	 moved out of the way.  */
      chunk[0] = (unsigned char) strlen (names);
      chunk[1] = (unsigned char) clen;
      memmove (chunk + 2, chunk + 4, clen);
      chunk_len = 2 + clen;
    }
  else
    {
      chunk[0] = (unsigned char) strlen (names);
      chunk[1] = 0;
      memcpy (chunk + 2, names, strlen (names));
      chunk_len = 2 + strlen (names);
    }

  /* Header (doc/raw-format.md section 2).  CountersDelta: counters
     start right after the data, so with file offsets as addresses
     Delta = DataSize * RecSize.  */
  put64 (o->ptr32 ? 0xff6c70726f665281ULL : 0xff6c70726f667281ULL);
  put64 (o->version ? o->version : 8 | (o->fe ? 0 : 1ULL << 56));
  put64 (o->binary_id ? 32 : 0);          /* BinaryIdsSize.  */
  put64 (n);                              /* DataSize.  */
  put64 (0);                              /* PaddingBytesBeforeCounters.  */
  put64 (ncounters);                      /* CountersSize.  */
  put64 (0);                              /* PaddingBytesAfterCounters.  */
  put64 (chunk_len);                      /* NamesSize.  */
  put64 (n * rec_size);                   /* CountersDelta.  */
  put64 (0);                              /* NamesDelta.  */
  put64 (1);                              /* ValueKindLast.  */
  if (o->binary_id)
    {
      put64 (20);
      for (int i = 0; i < 20; i++)
	buf[len++] = 0xb0 + i;
      pad8 ();
    }
  /* Data records (doc/raw-format.md section 5): CounterPtr_i =
     (counters + first_i) - record_i, with the data section at
     address 0.  */
  for (int i = 0, first = 0; i < n; i++)
    {
      int64_t cptr = (int64_t) (n * rec_size + 8 * first) - (int64_t) (i * rec_size);
      if (i == 0)
	cptr += o->counter_ptr_bias;
      put64 (md5low64 (fns[i].name));
      put64 (fns[i].hash);
      if (o->ptr32)
	{
	  put32 ((uint32_t) cptr);
	  put32 (0);                      /* FunctionPointer.  */
	  put32 (0);                      /* Values.  */
	  put32 (i == 0 && o->zero_counters_rec0 ? 0 : fns[i].ncounts);
	  put16 (0);
	  put16 (0);
	  put32 (0);                      /* Struct padding.  */
	}
      else
	{
	  put64 ((uint64_t) cptr);
	  put64 (0);
	  put64 (0);
	  put32 (i == 0 && o->zero_counters_rec0 ? 0 : fns[i].ncounts);
	  put16 (0);
	  put16 (0);
	}
      first += fns[i].ncounts;
    }
  for (int i = 0; i < n; i++)
    for (int c = 0; c < fns[i].ncounts; c++)
      put64 (fns[i].counts[c]);
  put_bytes (chunk, chunk_len);
  pad8 ();
  if (o->drop_bytes)
    len -= o->drop_bytes;
  (void) start;
}

/* Append an indexed v7 profile of functions with distinct names, at
   most 2 (one bucket), as in doc/indexed-format.md section 8.  MUTATE
   selects a defect.  */
enum idx_defect { IDX_OK, IDX_V8, IDX_HASHOFF, IDX_BUCKET, IDX_KEYHASH,
		  IDX_TRUNC };

static void
indexed_profile (const struct fn *fns, int n, enum idx_defect d)
{
  uint64_t total = 0, maxb = 0, maxf = 0, maxi = 0, nblocks = 0;
  size_t hashoff_at, payload, hash_offset;
  static const uint64_t cut[16] = { 10000, 100000, 200000, 300000, 400000,
    500000, 600000, 700000, 800000, 900000, 950000, 990000, 999000, 999900,
    999990, 999999 };
  uint64_t sorted[16];
  int ns = 0;

  big_endian = 0;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < fns[i].ncounts; c++)
      {
	uint64_t v = fns[i].counts[c];
	total += v, nblocks++;
	if (v > maxb) maxb = v;
	if (c == 0 && v > maxf) maxf = v;
	if (c > 0 && v > maxi) maxi = v;
	sorted[ns++] = v;
      }
  for (int i = 0; i < ns; i++)          /* Decreasing.  */
    for (int j = i + 1; j < ns; j++)
      if (sorted[j] > sorted[i])
	{ uint64_t t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t; }

  put64 (0x8169666f72706cffULL);
  put64 (d == IDX_V8 ? 8 | 1ULL << 56 : 7 | 1ULL << 56);
  put64 (0);
  put64 (0);
  hashoff_at = len;
  put64 (0);
  /* Summary (doc/indexed-format.md section 3).  */
  put64 (6);
  put64 (16);
  put64 (n); put64 (nblocks); put64 (maxf); put64 (maxb); put64 (maxi);
  put64 (total);
  for (int c = 0; c < 16; c++)
    {
      uint64_t desired = (uint64_t) ((unsigned __int128) total * cut[c] / 1000000);
      uint64_t sum = 0, seen = 0, minc = 0;
      int i = 0;
      while (sum < desired && i < ns)
	{
	  uint64_t v = sorted[i];
	  while (i < ns && sorted[i] == v)
	    sum += v, seen++, i++;
	  minc = v;
	}
      put64 (cut[c]); put64 (minc); put64 (seen);
    }
  payload = len;
  put16 (n);
  for (int i = 0; i < n; i++)
    {
      put64 (d == IDX_KEYHASH ? 0x1122334455667788ULL
			      : md5low64 (fns[i].name));
      put64 (strlen (fns[i].name));
      put64 (16 + 8 * fns[i].ncounts + 8);
      put_bytes (fns[i].name, strlen (fns[i].name));
      put64 (fns[i].hash);
      put64 (fns[i].ncounts);
      for (int c = 0; c < fns[i].ncounts; c++)
	put64 (fns[i].counts[c]);
      put64 (8);                          /* Empty ValueProfData.  */
    }
  pad8 ();
  hash_offset = len;
  put64 (1);                              /* NumBuckets.  */
  put64 (n);                              /* NumEntries.  */
  put64 (d == IDX_BUCKET ? 1u << 20 : payload);
  /* Patch HashOffset.  */
  {
    size_t save = len;
    len = hashoff_at;
    put64 (d == IDX_HASHOFF ? 1u << 24 : hash_offset);
    len = save;
  }
  if (d == IDX_TRUNC)
    len = payload + 30;
}

int
main (int argc, char **argv)
{
  static const struct fn a[] = {
    { "main", 0x1234, 2, { 5, 3 } },
    { "foo", 0x10, 3, { 1, 2, 3 } },
  };
  static const struct fn b[] = {
    { "main", 0x1234, 2, { 10, 20 } },
    { "bar", 0x20, 1, { 7 } },
  };
  static const struct fn sat[] = {
    { "main", 0x1234, 2, { 0xfffffffffffffffeULL, 5 } },
  };
  static const struct fn hash2[] = {
    { "main", 0x9999, 2, { 4, 4 } },
  };
  static const struct fn ncount[] = {
    { "main", 0x1234, 3, { 1, 1, 1 } },
  };
  static const struct fn dup[] = {
    { "main", 0x1234, 2, { 5, 3 } },
    { "main", 0x1234, 2, { 1, 1 } },
  };
  static const struct fn golden[] = {
    { "main", 0x1234, 2, { 5, 3 } },
  };
  static const struct fn big[] = {
    { "hot", 0x1, 2, { 1000000, 999 } },
    { "cold", 0x2, 2, { 1, 0 } },
  };
  struct raw_opts o;
  const char *c;
  FILE *f;

  if (argc != 3)
    {
      fprintf (stderr, "usage: mkprof CASE OUTPUT\n");
      return 2;
    }
  c = argv[1];
  memset (&o, 0, sizeof o);
#define IS(s) (strcmp (c, s) == 0)
  if (IS ("raw-le64"))
    raw_profile (a, 2, &o);
  else if (IS ("raw-le64-b"))
    raw_profile (b, 2, &o);
  else if (IS ("raw-be64"))
    big_endian = 1, raw_profile (a, 2, &o);
  else if (IS ("raw-le32"))
    o.ptr32 = 1, raw_profile (a, 2, &o);
  else if (IS ("raw-be32"))
    big_endian = 1, o.ptr32 = 1, raw_profile (a, 2, &o);
  else if (IS ("raw-zlib"))
    o.compress = 1, raw_profile (a, 2, &o);
  else if (IS ("raw-binid"))
    o.binary_id = 1, raw_profile (a, 2, &o);
  else if (IS ("raw-concat"))
    {
      raw_profile (a, 2, &o);
      raw_profile (b, 2, &o);
      len += 16;                          /* Trailing zeros are fine.  */
    }
  else if (IS ("raw-dup"))
    raw_profile (dup, 2, &o);
  else if (IS ("raw-sat"))
    raw_profile (sat, 1, &o);
  else if (IS ("raw-hash2"))
    raw_profile (hash2, 1, &o);
  else if (IS ("raw-ncount"))
    raw_profile (ncount, 1, &o);
  else if (IS ("raw-fe"))
    o.fe = 1, raw_profile (a, 2, &o);
  else if (IS ("raw-golden"))
    raw_profile (golden, 1, &o);
  else if (IS ("raw-big"))
    raw_profile (big, 2, &o);
  else if (IS ("raw-missing-name"))
    o.names_override = "main", raw_profile (a, 2, &o);
  /* Defects.  */
  else if (IS ("bad-empty"))
    len = 0;
  else if (IS ("bad-short-header"))
    raw_profile (a, 2, &o), len = 40;
  else if (IS ("bad-magic"))
    {
      raw_profile (a, 2, &o);
      buf[0] = 0x80;
      buf[7] = 0xfe;
    }
  else if (IS ("bad-version"))
    o.version = 9 | 1ULL << 56, raw_profile (a, 2, &o);
  else if (IS ("bad-truncated"))
    o.drop_bytes = 24, raw_profile (a, 2, &o);
  else if (IS ("bad-mixed-endian"))
    {
      raw_profile (a, 2, &o);
      big_endian = 1;
      raw_profile (b, 2, &o);
    }
  else if (IS ("bad-counter-offset"))
    o.counter_ptr_bias = 8 * 1000, raw_profile (a, 2, &o);
  else if (IS ("bad-counter-negative"))
    o.counter_ptr_bias = -8, raw_profile (a, 2, &o);
  else if (IS ("bad-zero-counters"))
    o.zero_counters_rec0 = 1, raw_profile (a, 2, &o);
  else if (IS ("bad-names-uleb"))
    o.truncated_uleb = 1, raw_profile (a, 2, &o);
  else if (IS ("bad-names-empty"))
    o.names_override = "main\001\001foo", raw_profile (a, 2, &o);
  else if (IS ("bad-zlib"))
    o.corrupt_zlib = 1, raw_profile (a, 2, &o);
  else if (IS ("bad-trailing"))
    {
      raw_profile (a, 2, &o);
      memcpy (buf + len, "garbage!", 8);
      len += 8;
    }
  /* One IS () line per case on purpose: grep finds each case's file.  */
  else if (IS ("idx-ok"))
    indexed_profile (a, 2, IDX_OK);
  else if (IS ("bad-idx-version"))
    indexed_profile (a, 2, IDX_V8);
  else if (IS ("bad-idx-hashoff"))
    indexed_profile (a, 2, IDX_HASHOFF);
  else if (IS ("bad-idx-bucket"))
    indexed_profile (a, 2, IDX_BUCKET);
  else if (IS ("bad-idx-keyhash"))
    indexed_profile (a, 2, IDX_KEYHASH);
  else if (IS ("bad-idx-truncated"))
    indexed_profile (a, 2, IDX_TRUNC);
  else
    {
      fprintf (stderr, "mkprof: unknown case %s\n", c);
      return 2;
    }
  f = fopen (argv[2], "wb");
  if (!f || fwrite (buf, 1, len, f) != len || fclose (f))
    {
      perror (argv[2]);
      return 1;
    }
  return 0;
}
