/* zlib_bench.c: compress and decompress generated data with zlib.

   Usage: zlib_bench SEED KBYTES MIX THREADS
     SEED     seed of the data generator
     KBYTES   size of the input buffer in KiB (split into 64 KiB items)
     MIX      0 = training mix, 1 = evaluation mix (other shares of the
              data kinds, levels and strategies)
     THREADS  number of threads; item I is done by thread I % THREADS

   Every item is generated from (SEED, I) alone and compressed with the
   level and strategy chosen from (SEED, I, MIX), then inflated back and
   compared, so the work done for an item, and the code it runs, does not
   depend on the number of threads or on which thread does it.  Only the
   functions named bench_* and main see THREADS; the bench scripts use
   that to check that the counters of the zlib functions of an atomic
   multithreaded run add up exactly to those of a one-thread run.

   The program prints a checksum of every compressed stream.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pthread.h>
#include "zlib.h"

#define ITEM (64 * 1024)

struct rng { uint64_t s; };

static uint32_t
bench_rnd (struct rng *r)
{
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return (uint32_t) ((r->s * 2685821657736338717ULL) >> 32);
}

static const char *const words[] = {
  "the", "of", "compression", "deflate", "window", "match", "literal",
  "distance", "huffman", "tree", "block", "stream", "and", "a", "to",
  "in", "is", "that", "for", "it", "with", "as", "was", "on", "buffer",
  "length", "code", "table", "bits", "inflate", "state", "check"
};

/* Fill BUF with ITEM bytes of kind KIND:
   0 text-like words, 1 random bytes, 2 runs, 3 structured binary
   records, 4 mixed: text with random noise.  */
static void
bench_fill (unsigned char *buf, int kind, struct rng *r)
{
  size_t i = 0;
  switch (kind)
    {
    case 0:
      while (i < ITEM)
	{
	  const char *w = words[bench_rnd (r) % 32];
	  while (*w && i < ITEM)
	    buf[i++] = (unsigned char) *w++;
	  if (i < ITEM)
	    buf[i++] = (bench_rnd (r) % 13 == 0) ? '\n' : ' ';
	}
      break;
    case 1:
      for (; i < ITEM; i += 4)
	{
	  uint32_t v = bench_rnd (r);
	  memcpy (buf + i, &v, 4);
	}
      break;
    case 2:
      while (i < ITEM)
	{
	  unsigned char c = (unsigned char) (bench_rnd (r) % 4);
	  size_t n = 1 + bench_rnd (r) % 300;
	  while (n-- && i < ITEM)
	    buf[i++] = c;
	}
      break;
    case 3:
      {
	uint32_t id = bench_rnd (r) % 1000, t = 0;
	for (; i + 16 <= ITEM; i += 16)
	  {
	    uint32_t rec[4] = { id++, t += bench_rnd (r) % 50,
				bench_rnd (r) % 256, 0xCAFE0000u | (i & 0xff) };
	    memcpy (buf + i, rec, 16);
	  }
	memset (buf + i, 0, ITEM - i);
      }
      break;
    default:
      bench_fill (buf, 0, r);
      for (i = 0; i < ITEM; i += 1 + bench_rnd (r) % 24)
	buf[i] = (unsigned char) bench_rnd (r);
    }
}

struct job
{
  uint64_t seed;
  int nitems, mix, threads, id;
  uint64_t sum, bytes_in, bytes_out;
  int failed;
};

static void
bench_item (struct job *j, int item)
{
  static const int kind_w[2][5] = { { 4, 1, 2, 2, 1 }, { 2, 2, 1, 3, 2 } };
  static const int levels[2][4] = { { 1, 6, 6, 9 }, { 1, 3, 6, 9 } };
  static const int strategies[2][4] = {
    { Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY, Z_FILTERED, Z_DEFAULT_STRATEGY },
    { Z_DEFAULT_STRATEGY, Z_RLE, Z_DEFAULT_STRATEGY, Z_HUFFMAN_ONLY } };
  struct rng r = { (j->seed * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t) item << 32) ^ 0x5bd1e995 };
  for (int k = 0; k < 4; k++)
    bench_rnd (&r);

  int w = bench_rnd (&r) % 10, kind = 0;
  while (w >= kind_w[j->mix][kind])
    w -= kind_w[j->mix][kind++];
  int choice = bench_rnd (&r) % 4;
  int level = levels[j->mix][choice];
  int strategy = strategies[j->mix][choice];

  unsigned char *in = malloc (ITEM), *back = malloc (ITEM);
  uLong bound = compressBound (ITEM);
  unsigned char *out = malloc (bound);
  bench_fill (in, kind, &r);

  /* Deflate through a stream with a small output window, so that the
     flush and pending-buffer paths run too.  */
  z_stream zs;
  memset (&zs, 0, sizeof zs);
  if (deflateInit2 (&zs, level, Z_DEFLATED, 15, 8, strategy) != Z_OK)
    {
      j->failed = 1;
      goto out;
    }
  zs.next_in = in;
  zs.avail_in = ITEM;
  zs.next_out = out;
  int rc;
  do
    {
      zs.avail_out = (uInt) ((bound - zs.total_out) < 4096 ? (bound - zs.total_out) : 4096);
      rc = deflate (&zs, Z_FINISH);
    }
  while (rc == Z_OK);
  uLong clen = zs.total_out;
  deflateEnd (&zs);
  if (rc != Z_STREAM_END)
    {
      j->failed = 1;
      goto out;
    }

  uLongf blen = ITEM;
  if (uncompress (back, &blen, out, clen) != Z_OK || blen != ITEM
      || memcmp (in, back, ITEM) != 0)
    {
      j->failed = 1;
      goto out;
    }
  j->sum += crc32 (0, out, clen) ^ adler32 (1, in, ITEM) ^ (uint64_t) clen << 32;
  j->bytes_in += ITEM;
  j->bytes_out += clen;
out:
  free (in);
  free (out);
  free (back);
}

static void *
bench_worker (void *arg)
{
  struct job *j = arg;
  for (int i = j->id; i < j->nitems; i += j->threads)
    bench_item (j, i);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 5)
    {
      fprintf (stderr, "usage: zlib_bench SEED KBYTES MIX THREADS\n");
      return 2;
    }
  uint64_t seed = strtoull (argv[1], 0, 0);
  int nitems = (atoi (argv[2]) + 63) / 64;
  int mix = atoi (argv[3]) ? 1 : 0;
  int threads = atoi (argv[4]);
  if (threads < 1)
    threads = 1;
  if (nitems < 1)
    nitems = 1;

  struct job *jobs = calloc ((size_t) threads, sizeof *jobs);
  pthread_t *tid = calloc ((size_t) threads, sizeof *tid);
  for (int t = 0; t < threads; t++)
    {
      jobs[t].seed = seed;
      jobs[t].nitems = nitems;
      jobs[t].mix = mix;
      jobs[t].threads = threads;
      jobs[t].id = t;
    }
  if (threads == 1)
    bench_worker (&jobs[0]);
  else
    {
      for (int t = 0; t < threads; t++)
	if (pthread_create (&tid[t], 0, bench_worker, &jobs[t]) != 0)
	  {
	    perror ("pthread_create");
	    return 1;
	  }
      for (int t = 0; t < threads; t++)
	pthread_join (tid[t], 0);
    }

  uint64_t sum = 0, in = 0, out = 0;
  int failed = 0;
  for (int t = 0; t < threads; t++)
    {
      sum += jobs[t].sum;	/* commutative: independent of THREADS */
      in += jobs[t].bytes_in;
      out += jobs[t].bytes_out;
      failed |= jobs[t].failed;
    }
  if (failed)
    {
      fprintf (stderr, "zlib_bench: round trip failed\n");
      return 1;
    }
  printf ("zlib_bench seed=%s items=%d mix=%d in=%llu out=%llu checksum=%016llx\n",
	  argv[1], nitems, mix, (unsigned long long) in,
	  (unsigned long long) out, (unsigned long long) sum);
  return 0;
}
