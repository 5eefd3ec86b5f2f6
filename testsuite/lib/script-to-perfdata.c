/* script-to-perfdata.c: write a perf.data file holding the samples of
   a perf script text with branch stacks, for the tests of
   latepgo-profgen --perf on branch stacks.

     script-to-perfdata SCRIPT OUT

   The machines here cannot record branch stacks (no LBR under the
   hypervisor), and the real recordings with branch stacks that can be
   had (quipper's test data in Debian's autofdo source) come without
   their binaries.  llvm-profgen's tests have both the binaries and
   real LBR samples, but as perf script text.  This turns such a text
   back into the perf.data perf record would have written, so that
   latepgo-profgen's perf.data route (perf evlist, perf script) runs on
   them and can be compared with its --perfscript route.

   SCRIPT is llvm-profgen's input: PERF_RECORD_MMAP2 lines, then each
   sample as its call-stack frames (a line per frame, leaf first,
   blanks and an address), then a line of branch records
   "0xFROM/0xTO/P/-/-/CYCLES" (newest first, perhaps led by the IP);
   a number alone before a sample repeats it (aggregated scripts).
   OUT gets perf.data (perf's perf.data-file-format.txt): the header,
   one cycles event sampling IP|TID|PERIOD|BRANCH_STACK, and CALLCHAIN
   when the samples have frames (user frames after PERF_CONTEXT_USER,
   the IP the leaf), a COMM and the MMAP2 events of the process, then
   one PERF_RECORD_SAMPLE per sample.  No build id: the binaries of
   llvm-profgen's tests have none, so perf.data is matched to them by
   the paths of the MMAP2 events.

   Exit status 0, or 1 with a message for input it cannot convert.  */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf_event.h's values, spelled out: the test must not depend on
   kernel headers.  */
#define PERF_RECORD_MMAP2 10
#define PERF_RECORD_COMM 3
#define PERF_RECORD_SAMPLE 9
#define PERF_RECORD_MISC_USER 2
#define PERF_SAMPLE_IP (1u << 0)
#define PERF_SAMPLE_TID (1u << 1)
#define PERF_SAMPLE_CALLCHAIN (1u << 5)
#define PERF_SAMPLE_PERIOD (1u << 8)
#define PERF_SAMPLE_BRANCH_STACK (1u << 11)
#define PERF_SAMPLE_BRANCH_USER (1u << 0)
#define PERF_SAMPLE_BRANCH_ANY (1u << 3)
#define PERF_CONTEXT_USER ((uint64_t) -512)
/* perf_event_attr as of PERF_ATTR_SIZE_VER5.  */
#define ATTR_SIZE 112
#define HEADER_SIZE 104

static const char *script_name;
static unsigned line_no;

static void __attribute__ ((noreturn, format (printf, 1, 2)))
die (const char *fmt, ...)
{
  va_list ap;
  fprintf (stderr, "script-to-perfdata: %s:%u: ", script_name, line_no);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (1);
}

/* ARR of *CAP elements of SIZE bytes, holding N, made to hold N + 1
   (doubling from 32).  */
static void *
grow (void *arr, size_t *cap, size_t n, size_t size)
{
  if (n < *cap)
    return arr;
  *cap = *cap ? 2 * *cap : 32;
  arr = realloc (arr, *cap * size);
  if (!arr)
    die ("out of memory");
  return arr;
}

/* A growing byte buffer: the data section.  */
static unsigned char *buf;
static size_t len, cap;

static void
put (const void *p, size_t n)
{
  if (len + n > cap)
    {
      cap = (len + n) * 2 + 4096;
      buf = realloc (buf, cap);
      if (!buf)
	die ("out of memory");
    }
  memcpy (buf + len, p, n);
  len += n;
}

static void
put_u64 (uint64_t v)
{
  put (&v, 8);
}

static void
put_u32 (uint32_t v)
{
  put (&v, 4);
}

/* perf_event_header: TYPE, misc user, SIZE bytes in all.  */
static void
put_header (uint32_t type, size_t size)
{
  uint16_t misc = PERF_RECORD_MISC_USER, sz = size;
  if (size > 0xffff)
    die ("record of %zu bytes: too large for perf.data", size);
  put_u32 (type);
  put (&misc, 2);
  put (&sz, 2);
}

/* A string padded with NULs to a multiple of 8 bytes.  */
static void
put_string (const char *s)
{
  static const char zeros[8];
  size_t n = strlen (s) + 1;
  put (s, n);
  put (zeros, (8 - n % 8) % 8);
}

static size_t
padded (const char *s)
{
  size_t n = strlen (s) + 1;
  return n + (8 - n % 8) % 8;
}

/* The samples, kept until all are read: CALLCHAIN is in the attribute,
   which comes first, if any has frames.  */
struct sample
{
  uint64_t ip, count;
  size_t num_frames, num_records;
  uint64_t *frames;		/* Leaf first.  */
  uint64_t *records;		/* FROM, TO, FLAGS per record.  */
};

static uint32_t pid;
static int have_pid;

/* "PERF_RECORD_MMAP2 PID/TID: [0xSTART(0xLEN) @ PGOFF MAJ:MIN INO GEN]:
   PROT PATH" into an MMAP2 record.  */
static void
mmap2_line (const char *s)
{
  unsigned p, t, maj, min;
  unsigned long long start, size, pgoff, ino, gen;
  char prot[8];
  int n = 0;
  if (sscanf (s, "PERF_RECORD_MMAP2 %u/%u: [%llx(%llx) @ %llx %x:%x %llu "
	      "%llu]: %7s %n", &p, &t, &start, &size, &pgoff, &maj, &min,
	      &ino, &gen, prot, &n) < 10 || n == 0 || !s[n])
    die ("MMAP2 event not understood");
  const char *path = s + n;
  if (!have_pid)
    {
      pid = p;
      have_pid = 1;
    }
  put_header (PERF_RECORD_MMAP2, 8 + 8 + 3 * 8 + 2 * 4 + 2 * 8 + 2 * 4
	      + padded (path));
  put_u32 (p);
  put_u32 (t);
  put_u64 (start);
  put_u64 (size);
  put_u64 (pgoff);
  put_u32 (maj);
  put_u32 (min);
  put_u64 (ino);
  put_u64 (gen);
  /* PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4; MAP_SHARED 1, MAP_PRIVATE 2.  */
  put_u32 ((prot[0] == 'r') | (prot[1] == 'w') << 1 | (prot[2] == 'x') << 2);
  put_u32 (prot[3] == 's' ? 1 : 2);
  put_string (path);
}

/* The records of the text at S into *SM ("0xFROM/0xTO/F/-/-/CYCLES"
   each; F is P, M or -).  */
static void
records_line (const char *s, struct sample *sm)
{
  size_t cap_r = 0;
  sm->num_records = 0;
  sm->records = NULL;
  while (*s)
    {
      unsigned long long from, to;
      char pred = '-';
      unsigned cycles = 0;
      int n = 0;
      if (sscanf (s, "0x%llx/0x%llx/%c/%*c/%*c/%u%n", &from, &to, &pred,
		  &cycles, &n) < 4 || n == 0)
	die ("branch record not understood: '%.40s'", s);
      s += n;
      s += strcspn (s, " \t");
      s += strspn (s, " \t");
      sm->records = grow (sm->records, &cap_r, sm->num_records,
			  3 * sizeof (uint64_t));
      uint64_t *r = &sm->records[3 * sm->num_records++];
      r[0] = from;
      r[1] = to;
      /* perf_branch_entry's flags: mispred bit 0, predicted bit 1,
	 cycles bits 4-19.  */
      r[2] = (pred == 'M') | (uint64_t) (pred == 'P') << 1
	     | (uint64_t) (cycles & 0xffff) << 4;
    }
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: script-to-perfdata SCRIPT OUT\n");
      return 2;
    }
  script_name = argv[1];
  FILE *in = fopen (argv[1], "r");
  if (!in)
    {
      fprintf (stderr, "script-to-perfdata: %s: %s\n", argv[1],
	       strerror (errno));
      return 1;
    }

  struct sample *samples = NULL;
  size_t num = 0, cap_s = 0;
  uint64_t *frames = NULL, count = 1;
  size_t nf = 0, cap_f = 0;
  int any_frames = 0;
  char *line = NULL;
  size_t lcap = 0;
  ssize_t n;

  /* The data section starts with the process's COMM; the MMAP2 events
     go right after it as they are read, the samples after them.  */
  size_t comm_at = 0;
  put_header (PERF_RECORD_COMM, 8 + 8 + padded ("perfbin"));
  put_u32 (0);
  put_u32 (0);
  put_string ("perfbin");
  while ((n = getline (&line, &lcap, in)) >= 0)
    {
      line_no++;
      while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
	line[--n] = 0;
      const char *s = line + strspn (line, " \t");
      if (!*s)
	continue;
      if (strncmp (s, "PERF_RECORD_MMAP2 ", 18) == 0)
	{
	  if (num)
	    die ("MMAP2 event after the samples: not supported");
	  mmap2_line (s);
	  continue;
	}
      if (strncmp (s, "PERF_RECORD_", 12) == 0)
	die ("event other than MMAP2: not supported");
      if (strchr (s, '/'))
	{
	  struct sample sm;
	  memset (&sm, 0, sizeof sm);
	  /* An IP before the records, as perf script -F ip,brstack
	     prints it.  */
	  if (s[0] != '0' || s[1] != 'x')
	    {
	      char *end;
	      sm.ip = strtoull (s, &end, 16);
	      s = end + strspn (end, " \t");
	    }
	  else
	    sm.ip = nf ? frames[0] : 0;
	  records_line (s, &sm);
	  if (!sm.ip && sm.num_records)
	    sm.ip = sm.records[1];
	  sm.count = count;
	  sm.num_frames = nf;
	  sm.frames = nf ? malloc (nf * sizeof *frames) : NULL;
	  if (nf && !sm.frames)
	    die ("out of memory");
	  if (nf)
	    memcpy (sm.frames, frames, nf * sizeof *frames);
	  samples = grow (samples, &cap_s, num, sizeof *samples);
	  samples[num++] = sm;
	  nf = 0;
	  count = 1;
	  continue;
	}
      char *end;
      errno = 0;
      unsigned long long v = strtoull (s, &end, line[0] == '\t'
				       || line[0] == ' ' ? 16 : 10);
      if (end == s || errno || *(end + strspn (end, " \t")))
	die ("line not understood");
      if (line[0] == '\t' || line[0] == ' ')
	{
	  frames = grow (frames, &cap_f, nf, sizeof *frames);
	  frames[nf++] = v;
	  any_frames = 1;
	}
      else
	count = v;
    }
  if (ferror (in))
    die ("read error");
  fclose (in);
  if (num == 0)
    die ("no samples");
  if (!have_pid)
    die ("no MMAP2 event: the process is unknown");
  memcpy (buf + comm_at + 8, &pid, 4);
  memcpy (buf + comm_at + 12, &pid, 4);

  uint32_t sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID
			 | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK
			 | (any_frames ? PERF_SAMPLE_CALLCHAIN : 0);
  for (size_t i = 0; i < num; i++)
    {
      const struct sample *sm = &samples[i];
      size_t chain = any_frames ? 8 + 8 * (1 + sm->num_frames) : 0;
      size_t size = 8 + 8 + 8 + 8 + chain + 8 + 24 * sm->num_records;
      for (uint64_t k = 0; k < sm->count; k++)
	{
	  put_header (PERF_RECORD_SAMPLE, size);
	  put_u64 (sm->ip);
	  put_u32 (pid);
	  put_u32 (pid);
	  put_u64 (1);		/* PERIOD */
	  if (any_frames)
	    {
	      put_u64 (1 + sm->num_frames);
	      put_u64 (PERF_CONTEXT_USER);
	      put (sm->frames, 8 * sm->num_frames);
	    }
	  put_u64 (sm->num_records);
	  put (sm->records, 24 * sm->num_records);
	}
    }

  /* Header, the one attribute (with an empty id section), data.  */
  unsigned char attr[ATTR_SIZE + 16];
  memset (attr, 0, sizeof attr);
  uint32_t type = 0, asize = ATTR_SIZE;	/* PERF_TYPE_HARDWARE */
  uint64_t config = 0, period = 1, st = sample_type;
  /* mmap (bit 8), comm (9), task (13), mmap2 (23).  */
  uint64_t flags = 1u << 8 | 1u << 9 | 1u << 13 | 1u << 23;
  uint64_t branch_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY;
  memcpy (attr + 0, &type, 4);
  memcpy (attr + 4, &asize, 4);
  memcpy (attr + 8, &config, 8);
  memcpy (attr + 16, &period, 8);
  memcpy (attr + 24, &st, 8);
  memcpy (attr + 40, &flags, 8);
  memcpy (attr + 72, &branch_type, 8);

  uint64_t h[HEADER_SIZE / 8];
  memset (h, 0, sizeof h);
  memcpy (h, "PERFILE2", 8);
  h[1] = HEADER_SIZE;
  h[2] = sizeof attr;
  h[3] = HEADER_SIZE;		/* attrs: offset, size */
  h[4] = sizeof attr;
  h[5] = HEADER_SIZE + sizeof attr;	/* data: offset, size */
  h[6] = len;
  /* event_types and the feature bitmap stay 0: no features.  */

  FILE *out = fopen (argv[2], "wb");
  if (!out)
    {
      fprintf (stderr, "script-to-perfdata: %s: %s\n", argv[2],
	       strerror (errno));
      return 1;
    }
  fwrite (h, 1, sizeof h, out);
  fwrite (attr, 1, sizeof attr, out);
  fwrite (buf, 1, len, out);
  if (fclose (out) != 0)
    {
      fprintf (stderr, "script-to-perfdata: %s: write error\n", argv[2]);
      return 1;
    }
  return 0;
}
