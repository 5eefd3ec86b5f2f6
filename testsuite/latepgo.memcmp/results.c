/* results.c: memcmp.exp's program of results.  Each site below is a
   memcmp or bcmp call in a function of its own; "results train" calls
   each with the sizes that get it a version (so that the use build has
   exact-size versions and range versions of all four widths), "results
   check" compares, for every size 0 to 40, equal blocks and blocks that
   differ in one byte (each position, both ways, pairs of bytes with and
   without the high bit) or in two bytes the opposite ways, at offsets
   0, 1 and 3, the result of each site with that of libc's memcmp
   called through a volatile pointer, and prints the number of
   mismatches.  The bytes after the size differ, as a version must not
   read them.  */

#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef const unsigned char *bytes;

/* An ordered memcmp, a memcmp result only tested against zero and a
   bcmp, for the range of sizes W to 2W.  */
#define RANGE_SITES(W)							\
  __attribute__ ((noinline)) int					\
  order_##W (bytes a, bytes b, size_t n)				\
  {									\
    return memcmp (a, b, n);						\
  }									\
  __attribute__ ((noinline)) int					\
  same_##W (bytes a, bytes b, size_t n)					\
  {									\
    return memcmp (a, b, n) == 0;					\
  }									\
  __attribute__ ((noinline)) int					\
  differ_##W (bytes a, bytes b, size_t n)				\
  {									\
    return bcmp (a, b, n) != 0;						\
  }

RANGE_SITES (1)
RANGE_SITES (2)
RANGE_SITES (4)
RANGE_SITES (8)

/* A memcmp result tested against zero and a bcmp, for the exact sizes
   K1 and K2.  */
#define EXACT_SITES(K1, K2)						\
  __attribute__ ((noinline)) int					\
  same_##K1##_##K2 (bytes a, bytes b, size_t n)				\
  {									\
    return memcmp (a, b, n) == 0;					\
  }									\
  __attribute__ ((noinline)) int					\
  differ_##K1##_##K2 (bytes a, bytes b, size_t n)			\
  {									\
    return bcmp (a, b, n) != 0;						\
  }

EXACT_SITES (1, 2)
EXACT_SITES (3, 4)
EXACT_SITES (5, 6)
EXACT_SITES (7, 8)

enum kind { ORDER, SAME, DIFFER };

struct site
{
  int (*fn) (bytes, bytes, size_t);
  enum kind kind;
  /* Training: TIMES calls of each size FROM to TO.  */
  size_t from, to;
  int times;
};

/* Ranges: W = 1 with 900 calls of each size (fewer than 1000 so that no
   exact size gets a version), W = 2, 4 and 8 with 1000 calls of each of
   their sizes (none 40% of all).  Exact sizes: 3000 of the first, 1200
   of the second.  */
static const struct site sites[] = {
  { order_1, ORDER, 1, 2, 900 },   { same_1, SAME, 1, 2, 900 },
  { differ_1, DIFFER, 1, 2, 900 },
  { order_2, ORDER, 2, 4, 1000 },  { same_2, SAME, 2, 4, 1000 },
  { differ_2, DIFFER, 2, 4, 1000 },
  { order_4, ORDER, 4, 8, 1000 },  { same_4, SAME, 4, 8, 1000 },
  { differ_4, DIFFER, 4, 8, 1000 },
  { order_8, ORDER, 8, 16, 1000 }, { same_8, SAME, 8, 16, 1000 },
  { differ_8, DIFFER, 8, 16, 1000 },
  { same_1_2, SAME, 1, 0, 0 },     { differ_1_2, DIFFER, 1, 0, 0 },
  { same_3_4, SAME, 3, 0, 0 },     { differ_3_4, DIFFER, 3, 0, 0 },
  { same_5_6, SAME, 5, 0, 0 },     { differ_5_6, DIFFER, 5, 0, 0 },
  { same_7_8, SAME, 7, 0, 0 },     { differ_7_8, DIFFER, 7, 0, 0 },
};
#define N_SITES (sizeof sites / sizeof sites[0])

/* libc's memcmp, never expanded by the compiler.  */
static int (*volatile reference) (const void *, const void *, size_t)
  = memcmp;

static unsigned char abuf[64], bbuf[64];
static long mismatches;

static void
train (const struct site *s)
{
  if (s->times == 0)
    {
      for (int i = 0; i < 4200; i++)
	s->fn (abuf, bbuf, s->from + (i % 7 < 5));
      return;
    }
  for (size_t n = s->from; n <= s->to; n++)
    for (int i = 0; i < s->times; i++)
      s->fn (abuf, bbuf, n);
}

/* Compare site S on the N bytes at A and B with the reference.  */
static void
check_one (const struct site *s, bytes a, bytes b, size_t n)
{
  int want = reference (a, b, n);
  int got = s->fn (a, b, n);
  int ok;
  switch (s->kind)
    {
    case ORDER:
      ok = (got < 0) == (want < 0) && (got > 0) == (want > 0);
      break;
    case SAME:
      ok = got == (want == 0);
      break;
    default:
      ok = got == (want != 0);
      break;
    }
  if (!ok && mismatches++ < 10)
    printf ("site %d size %zu: got %d, libc %d\n", (int) (s - sites), n,
	    got, want);
}

/* Fill A and B with the same bytes (some with the high bit) for N
   bytes, different ones after.  */
static void
fill (unsigned char *a, unsigned char *b, size_t n)
{
  for (size_t i = 0; i < 48; i++)
    {
      a[i] = i < n ? (unsigned char) (i * 37 + 11) : 0x00;
      b[i] = i < n ? (unsigned char) (i * 37 + 11) : 0xff;
    }
}

static const unsigned char pairs[][2] = {
  { 0x00, 0x01 }, { 0x7f, 0x80 }, { 0x01, 0xff }, { 0x80, 0x81 },
};

static void
check (const struct site *s)
{
  static const int offsets[] = { 0, 1, 3 };
  for (size_t n = 0; n <= 40; n++)
    for (int oa = 0; oa < 3; oa++)
      for (int ob = 0; ob < 3; ob++)
	{
	  unsigned char *a = abuf + offsets[oa], *b = bbuf + offsets[ob];
	  fill (a, b, n);
	  check_one (s, a, b, n);
	  for (size_t p = 0; p < n; p++)
	    for (int k = 0; k < 4; k++)
	      for (int way = 0; way < 2; way++)
		{
		  fill (a, b, n);
		  a[p] = pairs[k][way];
		  b[p] = pairs[k][!way];
		  check_one (s, a, b, n);
		  /* And the last byte differing the other way.  */
		  if (p + 1 < n)
		    {
		      a[n - 1] = pairs[k][!way];
		      b[n - 1] = pairs[k][way];
		      check_one (s, a, b, n);
		    }
		}
	}
}

int
main (int argc, char **argv)
{
  int training = argc > 1 && strcmp (argv[1], "train") == 0;
  for (size_t i = 0; i < N_SITES; i++)
    if (training)
      train (&sites[i]);
    else
      check (&sites[i]);
  if (!training)
    printf ("%ld mismatches\n", mismatches);
  return 0;
}
