/* perf-samples.c: run perf on a perf.data file (or read saved perf
   script text) and turn its IP samples into (binary, virtual address)
   pairs (perf-samples.h).

   perf itself decodes perf.data: its format changes between versions
   and perf knows them all.  We only parse the two text outputs, whose
   lines look like this (perf 6.1):

     7ebc65e52f2bbea498b4040fa92f7238377aaba9 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
   from buildid-list, and from script:
     22868 PERF_RECORD_MMAP2 22868/22868: [0x5565a1756000(0x1000) @ 0x1000 fe:00 10994157 1775012109]: r-xp /tmp/pg/k
     23061 PERF_RECORD_FORK(23063:23063):(23061:23061)
     23063 PERF_RECORD_COMM exec: k:23063/23063
     22868      7f7d471c36bd
   the last being a sample: pid, then ip.  -G keeps a sample on one
   line when perf.data has call graphs (perf record -g).  The call-stack
   pass (perf script -F pid,ip,dso) prints a sample as its pid, a line
   per frame (tab, blanks, address, path) and an empty line:
     22868
     \t            1206 (/tmp/pg/icall)
     \t            10aa (/tmp/pg/icall)
   and perf evlist -v, which tells whether there are call stacks:
     cpu-clock: type: 1, ..., sample_type: IP|TID|TIME|CALLCHAIN, ...
   With branch stacks (sample_type BRANCH_STACK), -F pid,ip,brstack
   prints the records after the IP, newest first:
     22868      401136 0x401130/0x401120/P/-/-/0  0x40115c/0x401128/P/-/-/0
   and with call stacks too, -F pid,ip,dso,brstack without -G the
   frames, then the records with the files of their ends:
     22868
     \t             79e (/tmp/pg/k)
     \t    7f83e84e7793 ([unknown])
      0x20177f(/tmp/pg/k)/0x2017c4(/tmp/pg/k)/P/-/-/0/
   llvm-profgen's inputs (perf script -F ip,brstack) have no pid: the
   events start the line, and a sample with a call stack is its frames,
   then the records (perhaps after the IP), as in its tests:
     PERF_RECORD_MMAP2 1243676/1243676: [0x201000(0x1000) @ 0 00:1d 224517108 1044165]: r-xp /home/p.perfbin
     \t          20179e
     \t    7f83e84e7793
      0x2017cf/0x20179e/P/-/-/0  0x20177f/0x2017c4/P/-/-/0
   and its aggregated scripts put "N", the number of such samples,
   before one.  */

#define _GNU_SOURCE
#include "perf-samples.h"
#include "index-table.h"
#include "run-cmd.h"
#include "tool-util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* User-space addresses on x86-64 are below this; perf reports kernel
   samples at or above it.  */
#define KERNEL_START 0xffff800000000000ULL

/* The one process of a script without pids (llvm-profgen's input).  */
#define NO_PID INT_MIN

/* How the lines of a perf script name their process.  */
enum script_mode { MODE_UNKNOWN, MODE_PID, MODE_NO_PID };

/* Where an address of a process is (translate): a binary's index, or
   one of these.  */
enum { AT_KERNEL = -1, AT_UNMAPPED = -2, AT_OTHER_FILE = -3,
       AT_OUTSIDE_LOADS = -4 };

/* An executable mapping of a process.  */
struct mapping
{
  uint64_t start, end, pgoff;
  int bin;			/* Index of the binary, -1 for other files.  */
};

struct process
{
  int pid;
  struct mapping *maps;		/* In event order: the last one wins.  */
  size_t num_maps, cap_maps;
};

/* One line of perf buildid-list.  */
struct dso_id
{
  char *build_id;
  char *path;
};

struct perf_reader
{
  const char *file;
  int is_script;
  struct elf_file *elfs;
  size_t num_elfs;
  perf_sample_fn fn;
  perf_stack_fn stack_fn;
  perf_ipstack_fn ipstack_fn;
  void *ctx;
  struct perf_stats *stats;

  struct dso_id *dsos;
  size_t num_dsos;
  /* Per binary: match mapped files by the build id (1) or by the real
     path (0).  */
  int *by_build_id;

  struct process *procs;
  size_t num_procs, cap_procs;
  struct index_table pid_index;	/* procs by pid.  */

  /* Mapped path -> binary index or -1, decided once per path.  */
  struct path_bin { char *path; int bin; } *paths;
  size_t num_paths, cap_paths;
  struct index_table path_index;

  /* Call-stack pass: the next frame of the current sample (-1 between
     samples), and frame 0 when it is in a binary (bin -1 if not).  */
  int frame;
  size_t stack_frames;		/* --csprof: frames collected.  */
  int frame0_bin;
  uint64_t frame0_vaddr;

  /* The samples carry DX or FLAGS (sample pass with -F pid,ip,uregs).  */
  int want_regs;

  /* Branch stacks.  */
  perf_branch_fn branch_fn;
  int want_branches;		/* perf.data has them: -F ...,brstack.  */
  int has_stacks;		/* perf.data has call stacks.  */
  /* perf.data with branch stacks and call stacks, read in one pass
     without -G: each frame "ADDR (PATH)", ADDR a file offset in PATH
     (mapped frames) or absolute, each record's ends followed by
     "(PATH)"; the frames are mapped as they are read.  */
  int frames_dso;
  int verbose;
  enum script_mode mode;
  /* Per binary: an MMAP event of it was seen (in a script without
     pids, a binary without one is taken at its own addresses).  */
  int *mapped;
  int warned_unmapped;
  /* The sample being read over several lines: its pid (MODE_PID), its
     count (an aggregated script), its frames so far (frame0: the
     leaf, frames_bad: a frame line that is no address).  */
  int pending_pid, has_pending_pid;
  uint64_t pending_count;
  size_t frames;
  uint64_t frame0;
  int frames_bad;
  /* The frames' addresses as printed (leaf first), and mapped.  */
  uint64_t *frame_addrs, *frame_vaddrs;
  int *frame_bins;
  size_t cap_frames, cap_frame_vaddrs;
  struct branch_record *records;
  size_t cap_records;
  /* frames_dso: a line of records without their "(PATH)"s.  */
  char *plain;
  size_t cap_plain;
};

/* FNV-1a, for the path table.  */
static uint64_t
hash_string (const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ULL;
  return h;
}

/* Build ids are equal when the hex strings are, or one is the other
   padded with zeros (older perf versions print every build id as 20
   bytes).  */
static int
build_id_equal (const char *a, const char *b)
{
  size_t la = strlen (a), lb = strlen (b);
  if (la < lb)
    {
      const char *t = a;
      a = b;
      b = t;
      size_t tl = la;
      la = lb;
      lb = tl;
    }
  if (lb == 0 || strncmp (a, b, lb) != 0)
    return 0;
  for (size_t i = lb; i < la; i++)
    if (a[i] != '0')
      return 0;
  return 1;
}

/* The binary a file mapped at PATH is, or -1.  */
static int
match_path (struct perf_reader *r, const char *path)
{
  char *real = NULL;
  int found = -1;
  for (size_t b = 0; b < r->num_elfs && found < 0; b++)
    {
      const struct elf_file *elf = &r->elfs[b];
      if (r->by_build_id[b])
	{
	  for (size_t d = 0; d < r->num_dsos; d++)
	    if (strcmp (r->dsos[d].path, path) == 0
		&& build_id_equal (r->dsos[d].build_id, elf->build_id))
	      found = b;
	}
      else
	{
	  if (!real)
	    {
	      real = realpath (path, NULL);
	      if (!real)
		real = xstrdup (path);
	    }
	  if (strcmp (real, elf->realpath) == 0)
	    found = b;
	}
    }
  free (real);
  return found;
}

/* In a perf script (no build ids), the binary whose file name is that
   of PATH, when exactly one is: llvm-profgen matches binaries by file
   name, and its test inputs were recorded under other directories.
   -1 otherwise.  */
static int
match_file_name (struct perf_reader *r, const char *path)
{
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  int found = -1;
  for (size_t b = 0; b < r->num_elfs; b++)
    {
      const char *p = r->elfs[b].realpath;
      const char *eb = strrchr (p, '/');
      eb = eb ? eb + 1 : p;
      if (*base && strcmp (base, eb) == 0)
	{
	  if (found >= 0)
	    return -1;
	  found = b;
	}
    }
  return found;
}

/* Cached match_path.  */
static int
path_to_bin (struct perf_reader *r, const char *path)
{
  uint64_t h = hash_string (path);
  size_t s;
  for (s = index_table_start (&r->path_index, h); r->path_index.slots[s];
       s = index_table_next (&r->path_index, s))
    {
      struct path_bin *pb = &r->paths[r->path_index.slots[s] - 1];
      if (r->path_index.hashes[s] == h && strcmp (pb->path, path) == 0)
	return pb->bin;
    }
  if (r->num_paths == r->cap_paths)
    r->paths = xrealloc (r->paths, (r->cap_paths *= 2) * sizeof *r->paths);
  struct path_bin *pb = &r->paths[r->num_paths];
  pb->path = xstrdup (path);
  pb->bin = match_path (r, path);
  if (pb->bin < 0 && r->is_script)
    pb->bin = match_file_name (r, path);
  index_table_add (&r->path_index, s, h, r->num_paths++);
  return pb->bin;
}

/* The process PID, created without mappings if new.  */
static struct process *
get_process (struct perf_reader *r, int pid)
{
  size_t s;
  for (s = index_table_start (&r->pid_index, (uint64_t) pid);
       r->pid_index.slots[s]; s = index_table_next (&r->pid_index, s))
    if (r->procs[r->pid_index.slots[s] - 1].pid == pid)
      return &r->procs[r->pid_index.slots[s] - 1];

  if (r->num_procs == r->cap_procs)
    r->procs = xrealloc (r->procs, (r->cap_procs *= 2) * sizeof *r->procs);
  struct process *p = &r->procs[r->num_procs];
  memset (p, 0, sizeof *p);
  p->pid = pid;
  index_table_add (&r->pid_index, s, (uint64_t) pid, r->num_procs++);
  return p;
}

static void
add_mapping (struct process *p, const struct mapping *m)
{
  if (p->num_maps == p->cap_maps)
    {
      p->cap_maps = p->cap_maps ? 2 * p->cap_maps : 8;
      p->maps = xrealloc (p->maps, p->cap_maps * sizeof *p->maps);
    }
  p->maps[p->num_maps++] = *m;
}

/* Parse a decimal int at *S (optional '-'), advance *S.  */
static int
parse_int (const char **s, int *out)
{
  char *end;
  errno = 0;
  long v = strtol (*s, &end, 10);
  if (end == *s || errno || v < INT_MIN || v > INT_MAX)
    return -1;
  *s = end;
  *out = v;
  return 0;
}

/* Parse a hexadecimal u64 at *S ("0x" optional), advance *S.  */
static int
parse_hex (const char **s, uint64_t *out)
{
  const char *p = *s;
  uint64_t v = 0;
  int digits = 0;

  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;
  for (;; p++, digits++)
    {
      unsigned d;
      if (*p >= '0' && *p <= '9')
	d = *p - '0';
      else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
	d = (*p | 0x20) - 'a' + 10;
      else
	break;
      if (v >> 60)
	return -1;
      v = v * 16 + d;
    }
  if (!digits)
    return -1;
  *out = v;
  *s = p;
  return 0;
}

static int
skip (const char **s, const char *lit)
{
  size_t n = strlen (lit);
  if (strncmp (*s, lit, n) != 0)
    return -1;
  *s += n;
  return 0;
}

/* " PID/TID: [0xSTART(0xLEN) @ PGOFF ...]: PROT PATH" after
   PERF_RECORD_MMAP or PERF_RECORD_MMAP2.  */
static int
parse_mmap (struct perf_reader *r, const char *s, int v2)
{
  int pid, tid;
  uint64_t start, len, pgoff;
  while (*s == ' ')
    s++;
  if (parse_int (&s, &pid) || skip (&s, "/") || parse_int (&s, &tid)
      || skip (&s, ": [") || parse_hex (&s, &start) || skip (&s, "(")
      || parse_hex (&s, &len) || skip (&s, ") @ ") || parse_hex (&s, &pgoff))
    return -1;
  s = strstr (s, "]: ");
  if (!s)
    return -1;
  s += 3;
  const char *prot = s;
  s = strchr (s, ' ');
  if (!s)
    return -1;
  int exec = v2 ? (s - prot == 4 && prot[2] == 'x')
		: (s - prot == 1 && prot[0] == 'x');
  const char *path = s + 1;
  if (!exec || pid < 0 || *path == 0 || start + len < start)
    return 0;

  struct mapping m = { start, start + len, pgoff, path_to_bin (r, path) };
  if (m.bin >= 0)
    r->mapped[m.bin] = 1;
  add_mapping (get_process (r, r->mode == MODE_NO_PID ? NO_PID : pid), &m);
  return 0;
}

/* "(CPID:CTID):(PPID:PTID)" after PERF_RECORD_FORK: a new process
   starts with its parent's mappings; a new thread shares them.  */
static int
parse_fork (struct perf_reader *r, const char *s)
{
  int cpid, ctid, ppid, ptid;
  if (skip (&s, "(") || parse_int (&s, &cpid) || skip (&s, ":")
      || parse_int (&s, &ctid) || skip (&s, "):(") || parse_int (&s, &ppid)
      || skip (&s, ":") || parse_int (&s, &ptid))
    return -1;
  if (cpid == ppid)
    return 0;
  get_process (r, cpid)->num_maps = 0;
  /* get_process may move the process array: take both pointers after
     both exist.  */
  struct process *parent = get_process (r, ppid);
  struct process *child = get_process (r, cpid);
  for (size_t i = 0; i < parent->num_maps; i++)
    add_mapping (child, &parent->maps[i]);
  return 0;
}

/* " exec: COMM:PID/TID" after PERF_RECORD_COMM: the process image is
   replaced, its mappings go.  A COMM without "exec" only renames.  */
static int
parse_comm (struct perf_reader *r, const char *s)
{
  int pid;
  if (skip (&s, " exec: ") != 0)
    return 0;
  s = strrchr (s, ':');
  if (!s)
    return -1;
  s++;
  if (parse_int (&s, &pid))
    return -1;
  get_process (r, pid)->num_maps = 0;
  return 0;
}

/* Where IP of process PID is: the index of the binary, with the
   virtual address in *VADDR, or one of AT_*.  */
static int
translate (struct perf_reader *r, int pid, uint64_t ip, uint64_t *vaddr)
{
  if (ip >= KERNEL_START)
    return AT_KERNEL;
  struct process *p = get_process (r, pid);
  int other = 0;
  for (size_t i = p->num_maps; i-- > 0;)
    {
      const struct mapping *m = &p->maps[i];
      if (ip < m->start || ip >= m->end)
	continue;
      /* Without pids, another file's mapping does not hide the code of
	 a binary without MMAP events (llvm-profgen looks only at the
	 events of its binary).  */
      if (m->bin < 0 && pid == NO_PID)
	{
	  other = 1;
	  break;
	}
      if (m->bin < 0)
	return AT_OTHER_FILE;
      if (elf_offset_to_vaddr (&r->elfs[m->bin], ip - m->start + m->pgoff,
			       vaddr) != 0)
	return AT_OUTSIDE_LOADS;
      return m->bin;
    }
  /* A script without pids and without an MMAP event of a binary: its
     code where the binary puts it (llvm-profgen does the same).  */
  if (pid == NO_PID)
    for (size_t b = 0; b < r->num_elfs; b++)
      if (!r->mapped[b] && elf_in_code (&r->elfs[b], ip))
	{
	  if (!r->warned_unmapped)
	    lp_warning (r->file, "no MMAP event of %s: taking its "
			"addresses as they are in the file",
			r->elfs[b].path);
	  r->warned_unmapped = 1;
	  *vaddr = ip;
	  return b;
	}
  return other ? AT_OTHER_FILE : AT_UNMAPPED;
}

/* A sample at VADDR of binary BIN, or at one of AT_*, with the
   registers REGS.  */
static void
sample_at (struct perf_reader *r, int bin, uint64_t vaddr,
	   const struct sample_regs *regs)
{
  struct perf_stats *st = r->stats;
  st->samples++;
  switch (bin)
    {
    case AT_KERNEL: st->kernel++; return;
    case AT_UNMAPPED: st->unmapped++; return;
    case AT_OTHER_FILE: st->other_files++; return;
    case AT_OUTSIDE_LOADS: st->outside_loads++; return;
    default: break;
    }
  st->per_binary[bin]++;
  /* On AArch64, x2 is the size register, and any of the others may be
     what a cbz or tbz tests.  */
  st->dx_samples += (regs->has_dx
		     || (regs->a64.mask & (UINT32_C (1) << A64_SIZE_REG)));
  st->flags_samples += regs->has_flags || regs->a64.mask != 0;
  r->fn (r->ctx, bin, vaddr, regs);
}

/* A sample of process PID at IP, with the registers REGS.  */
static void
sample (struct perf_reader *r, int pid, uint64_t ip,
	const struct sample_regs *regs)
{
  uint64_t vaddr = 0;
  /* Translate first: the order of a call's arguments is unspecified.  */
  int bin = translate (r, pid, ip, &vaddr);
  sample_at (r, bin, vaddr, regs);
}

/* The binary holding the code at address A of process PID, with the
   virtual address in *VADDR, or -1 (code of no binary).  */
static int
code_at (struct perf_reader *r, int pid, uint64_t a, uint64_t *vaddr)
{
  int bin = translate (r, pid, a, vaddr);
  if (bin >= 0 && !elf_in_code (&r->elfs[bin], *vaddr))
    {
      r->stats->ends_outside_code++;
      bin = -1;
    }
  if (bin < 0)
    *vaddr = a;
  return bin;
}

/* True if the token at S (up to a blank) is a branch record,
   "0xFROM/0xTO...".  */
static int
is_record (const char *s)
{
  size_t n = strcspn (s, " \t");
  const char *slash = memchr (s, '/', n);
  return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && slash != NULL;
}

/* True if the line at S (after its blanks) holds branch records and no
   pid: records only, or an address and records.  */
static int
is_branch_line (const char *s)
{
  if (is_record (s))
    return 1;
  size_t n = strcspn (s, " \t");
  if (n == 0 || memchr (s, '/', n))
    return 0;
  s += n;
  s += strspn (s, " \t");
  return *s && is_record (s);
}

/* The branch records of the text at S (blank-separated tokens
   "0xFROM/0xTO/FLAGS..."), of process PID, with the leaf of the
   sample's call stack (frame 0, or the IP) at LEAF if HAS_STACK, to
   the branch callback, standing for COUNT samples.  A token that is no
   record ends them (llvm-profgen keeps the records before it);
   returns -1 then, else 0.  */
static int
branch_sample (struct perf_reader *r, int pid, const char *s, int has_stack,
	       uint64_t leaf, uint64_t count)
{
  struct perf_stats *st = r->stats;
  size_t num = 0;
  int bad = 0;
  if (!r->branch_fn)
    return -1;
  uint64_t in_bins = 0;
  int *seen = NULL;

  for (s += strspn (s, " \t"); *s; s += strspn (s, " \t"))
    {
      uint64_t from, to;
      const char *t = s;
      s += strcspn (s, " \t");
      if (parse_hex (&t, &from) != 0 || skip (&t, "/") != 0
	  || parse_hex (&t, &to) != 0 || (*t != '/' && t != s))
	{
	  bad = 1;
	  break;
	}
      r->records = lp_grow (r->records, &r->cap_records, num,
			    sizeof *r->records, 32);
      struct branch_record *b = &r->records[num++];
      b->from_bin = code_at (r, pid, from, &b->from);
      b->to_bin = code_at (r, pid, to, &b->to);
      in_bins += b->from_bin >= 0 || b->to_bin >= 0;
    }
  if (num == 0)
    return bad ? -1 : 0;

  struct branch_sample bs;
  bs.records = r->records;
  bs.num = num;
  bs.count = count;
  bs.has_stack = has_stack;
  if (r->frames_dso && has_stack && r->frames > 0)
    {
      /* Mapped as they were read.  */
      bs.leaf_bin = r->frame_bins[0];
      bs.leaf = r->frame_vaddrs[0];
    }
  else
    bs.leaf_bin = has_stack ? code_at (r, pid, leaf, &bs.leaf) : -1;
  if (!has_stack)
    bs.leaf = 0;
  /* The frames of its call stack (mapped as they were read when they
     came with their files, frames_dso).  */
  bs.num_frames = 0;
  bs.frames = NULL;
  bs.frame_bins = NULL;
  if (has_stack && r->frames > 0 && r->frame_addrs)
    {
      size_t nf = r->frames;
      if (r->cap_frame_vaddrs < r->cap_frames)
	{
	  r->cap_frame_vaddrs = r->cap_frames;
	  r->frame_vaddrs = xrealloc (r->frame_vaddrs, r->cap_frames
				      * sizeof *r->frame_vaddrs);
	  r->frame_bins = xrealloc (r->frame_bins, r->cap_frames
				    * sizeof *r->frame_bins);
	}
      for (size_t i = 0; i < nf && !r->frames_dso; i++)
	r->frame_bins[i] = code_at (r, pid, r->frame_addrs[i],
				    &r->frame_vaddrs[i]);
      bs.num_frames = nf;
      bs.frames = r->frame_vaddrs;
      bs.frame_bins = r->frame_bins;
    }
  st->samples = lp_sat_add (st->samples, count);
  st->branch_samples = lp_sat_add (st->branch_samples, count);
  st->branch_records = lp_sat_add (st->branch_records,
				   lp_sat_mul (num, count));
  st->records_in_bins = lp_sat_add (st->records_in_bins,
				    lp_sat_mul (in_bins, count));
  /* A sample counts for each binary one of its records is in.  */
  seen = xcalloc (r->num_elfs + 1, sizeof *seen);
  for (size_t i = 0; i < num; i++)
    {
      if (r->records[i].from_bin >= 0)
	seen[r->records[i].from_bin] = 1;
      if (r->records[i].to_bin >= 0)
	seen[r->records[i].to_bin] = 1;
    }
  for (size_t b = 0; b < r->num_elfs; b++)
    if (seen[b])
      st->per_binary[b] = lp_sat_add (st->per_binary[b], count);
  free (seen);
  r->branch_fn (r->ctx, &bs);
  return bad ? -1 : 0;
}

/* The number of the AArch64 register perf names by the COLON - S
   characters at S ("x0".."x29", "lr" for x30), or -1.  */
static int
a64_reg_number (const char *s, const char *colon)
{
  if (colon - s == 2 && strncmp (s, "lr", 2) == 0)
    return 30;
  if (s[0] != 'x' || colon - s < 2 || colon - s > 3)
    return -1;
  int n = 0;
  for (const char *d = s + 1; d < colon; d++)
    {
      if (*d < '0' || *d > '9')
	return -1;
      n = n * 10 + (*d - '0');
    }
  return n <= 29 ? n : -1;
}

/* The user registers perf script prints after the IP for -F uregs:
   "ABI:2    DX:0x1f    FLAGS:0x246" on x86-64, "ABI:2    x0:0x1
   x2:0x18    lr:0x4005d0" on AArch64 (ABI:0, and no registers, when
   the sample has none, e.g. in a kernel thread).  Set REGS from "DX:"
   and "FLAGS:", and from AArch64's x0-x29 and lr.  Returns -1 for
   anything else.  */
static int
parse_uregs (const char *s, const char *end, struct sample_regs *regs)
{
  memset (regs, 0, sizeof *regs);
  while (s < end && *s)
    {
      const char *colon = s;
      while (*colon && *colon != ':' && *colon != ' ')
	colon++;
      if (*colon != ':' || colon == s)
	return -1;
      const char *v = colon + 1;
      uint64_t x;
      if (colon - s == 3 && strncmp (s, "ABI", 3) == 0)
	{
	  int abi;
	  if (parse_int (&v, &abi) != 0)
	    return -1;
	}
      else if (parse_hex (&v, &x) != 0)
	return -1;
      else if (colon - s == 2 && strncmp (s, "DX", 2) == 0)
	{
	  regs->has_dx = 1;
	  regs->dx = x;
	}
      else if (colon - s == 5 && strncmp (s, "FLAGS", 5) == 0)
	{
	  regs->has_flags = 1;
	  regs->flags = x;
	}
      else
	{
	  int n = a64_reg_number (s, colon);
	  if (n >= 0)
	    {
	      regs->a64.mask |= UINT32_C (1) << n;
	      regs->a64.x[n] = x;
	    }
	}
      if (*v && *v != ' ' && *v != '\t')
	return -1;
      s = v;
      while (*s == ' ' || *s == '\t')
	s++;
    }
  return 0;
}

/* The message for IP samples printed with their call graph.  */
static void __attribute__ ((noreturn))
call_graph_error (struct perf_reader *r)
{
  lp_fatal (r->file, "call-graph output of perf script: run it with -G "
	    "(perf script --show-mmap-events --show-task-events -G -F "
	    "pid,ip), or give the branch stacks too (-F ip,brstack)");
}

/* Room for N frames of a sample in R's mapped frame arrays.  */
static void
grow_frame_vaddrs (struct perf_reader *r, size_t n)
{
  if (r->cap_frame_vaddrs < n)
    {
      r->cap_frame_vaddrs = 2 * n;
      r->frame_vaddrs = xrealloc (r->frame_vaddrs, r->cap_frame_vaddrs
				  * sizeof *r->frame_vaddrs);
      r->frame_bins = xrealloc (r->frame_bins, r->cap_frame_vaddrs
				* sizeof *r->frame_bins);
    }
}

/* The virtual address in a binary of a frame at file offset OFFSET of
   the file PATH: return the binary's index and store the address in
   *VADDR, or return -1 for other files and offsets outside the
   PT_LOAD segments.  */
static int
frame_vaddr (struct perf_reader *r, const char *path, uint64_t offset,
	     uint64_t *vaddr)
{
  int bin = path_to_bin (r, path);
  if (bin < 0 || elf_offset_to_vaddr (&r->elfs[bin], offset, vaddr) != 0)
    return -1;
  return bin;
}

/* Frame N of a sample read with its dso (frames_dso): the text after
   its address ADDR at S, " (PATH)", into R's mapped frames: in the
   code of a binary (PATH's file offset ADDR), or -1 and ADDR as it
   is.  Returns -1 if S is not " (PATH)".  */
static int
dso_frame (struct perf_reader *r, const char *s, uint64_t addr, size_t n)
{
  const char *close = strrchr (s, ')');
  if (skip (&s, " (") != 0 || !close || close < s)
    return -1;
  char *path = xmalloc (close - s + 1);
  memcpy (path, s, close - s);
  path[close - s] = 0;
  grow_frame_vaddrs (r, n + 1);
  int bin = frame_vaddr (r, path, addr, &r->frame_vaddrs[n]);
  free (path);
  if (bin >= 0 && !elf_in_code (&r->elfs[bin], r->frame_vaddrs[n]))
    {
      r->stats->ends_outside_code++;
      bin = -1;
    }
  if (bin < 0)
    r->frame_vaddrs[n] = addr;
  r->frame_bins[n] = bin;
  return 0;
}

/* A sample's frames ended without its branch records: IP samples with
   their call graph (perf script without -G), which are not worth
   decoding; or in a script of branch stacks, a sample cut short.  */
static void
frames_without_records (struct perf_reader *r)
{
  if (r->frames == 0)
    return;
  if (r->frames_dso)
    {
      /* perf.data read with its frames: a sample of an event without
	 branch stacks, its leaf the IP, its frames mapped already.  */
      if (!r->frames_bad)
	{
	  struct sample_regs regs = { 0 };
	  int bin = r->frame_bins[0];
	  if (bin < 0)
	    bin = r->frame_addrs[0] >= KERNEL_START ? AT_KERNEL
		  : AT_OTHER_FILE;
	  sample_at (r, bin, r->frame_vaddrs[0], &regs);
	  if (r->ipstack_fn)
	    {
	      r->stats->stack_samples++;
	      r->ipstack_fn (r->ctx, 1, r->frames, r->frame_bins,
			     r->frame_vaddrs);
	    }
	}
      else
	r->stats->skipped_lines++;
      r->frames = 0;
      r->frames_bad = 0;
      return;
    }
  if (r->ipstack_fn)
    {
      /* An IP sample with its call stack (--csprof): the leaf is the
	 IP, counted as an IP sample too.  */
      int pid = r->mode == MODE_PID ? (r->has_pending_pid ? r->pending_pid
				       : -1) : NO_PID;
      uint64_t count = r->pending_count ? r->pending_count : 1;
      if (pid != -1 && !r->frames_bad)
	{
	  size_t nf = r->frames;
	  grow_frame_vaddrs (r, nf);
	  for (size_t i = 0; i < nf; i++)
	    r->frame_bins[i] = code_at (r, pid, r->frame_addrs[i],
					&r->frame_vaddrs[i]);
	  struct sample_regs regs = { 0 };
	  for (uint64_t k = 0; k < count; k++)
	    sample (r, pid, r->frame_addrs[0], &regs);
	  r->stats->stack_samples = lp_sat_add (r->stats->stack_samples,
						count);
	  r->ipstack_fn (r->ctx, count, nf, r->frame_bins, r->frame_vaddrs);
	}
      else
	r->stats->skipped_lines++;
      r->frames = 0;
      r->frames_bad = 0;
      return;
    }
  if (r->stats->branch_samples == 0)
    call_graph_error (r);
  r->stats->stack_no_branches++;
  r->frames = 0;
  r->frames_bad = 0;
}

/* An event line, "PERF_RECORD_..." at S, of the process PID.  Returns
   0, or -1 when it cannot be parsed.  */
static int
parse_event (struct perf_reader *r, const char *s)
{
  s += 12;
  if (strncmp (s, "MMAP2 ", 6) == 0)
    return parse_mmap (r, s + 6, 1);
  if (strncmp (s, "MMAP ", 5) == 0)
    return parse_mmap (r, s + 5, 0);
  /* Without pids there is one process: nothing forks or execs.  */
  if (r->mode == MODE_NO_PID)
    return 0;
  if (strncmp (s, "FORK", 4) == 0)
    return parse_fork (r, s + 4);
  if (strncmp (s, "COMM", 4) == 0)
    return parse_comm (r, s + 4);
  return 0;			/* EXIT, LOST, ...: nothing to do.  */
}

/* True if S is blanks, an address in hex without "0x", and perhaps
   blanks.  */
static int
is_frame_line (const char *s)
{
  s += strspn (s, " ");
  size_t n = strspn (s, "0123456789abcdefABCDEF");
  if (n == 0 || (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
    return 0;
  s += n;
  s += strspn (s, " \t");
  return *s == 0;
}

/* The line S of branch records as perf script -F ...,dso,brstack
   prints them, "0xFROM(PATH)/0xTO(PATH)/P/-/-/0/", without the
   "(PATH)"s, in R's buffer: a path runs from the '(' right after an
   address to the first ")/" or ") " or ')' at the end (a path may hold
   blanks and parentheses).  */
static const char *
strip_record_dsos (struct perf_reader *r, const char *s)
{
  size_t n = strlen (s);
  if (r->cap_plain < n + 1)
    {
      r->cap_plain = 2 * (n + 1);
      r->plain = xrealloc (r->plain, r->cap_plain);
    }
  char *o = r->plain;
  while (*s)
    {
      if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
	{
	  *o++ = *s++;
	  *o++ = *s++;
	  while (isxdigit ((unsigned char) *s))
	    *o++ = *s++;
	  if (*s == '(')
	    {
	      const char *e = s + 1;
	      while (*e && !(e[0] == ')' && (e[1] == '/' || e[1] == ' '
					     || e[1] == 0)))
		e++;
	      if (*e)
		s = e + 1;
	    }
	  continue;
	}
      *o++ = *s++;
    }
  *o = 0;
  return r->plain;
}

/* One line of perf script output.  */
static void
parse_script_line (struct perf_reader *r, const char *line)
{
  const char *s = line;
  int pid;
  int ok;

  /* A frame of a call stack: a tab, blanks, the address, perhaps
     symbol and path.  The frames of a sample come before its branch
     records; without them, this is the call graph of an IP sample.
     In a script without pids, blanks and an address alone are a frame
     too (some of llvm-profgen's test scripts indent them so).  */
  if (*s == '\t' || (r->mode == MODE_NO_PID && *s == ' '
		     && is_frame_line (s)))
    {
      uint64_t addr;
      s += strspn (s, " \t");
      int bad = parse_hex (&s, &addr) != 0 || (*s && *s != ' ' && *s != '\t');
      /* perf script text of frames with their files (-F ...,dso, as
	 latepgo-profgen runs it on perf.data with branch stacks) is
	 read as perf.data is: each frame mapped through its file.  */
      if (!bad && r->is_script && *line == '\t' && strncmp (s, " (", 2) == 0)
	r->frames_dso = 1;
      if (bad || (r->frames_dso && dso_frame (r, s, addr, r->frames) != 0))
	{
	  r->frames_bad = 1;
	  addr = 0;
	}
      else if (r->frames == 0)
	r->frame0 = addr;
      r->frame_addrs = lp_grow (r->frame_addrs, &r->cap_frames, r->frames,
				sizeof *r->frame_addrs, 32);
      r->frame_addrs[r->frames] = addr;
      r->frames++;
      return;
    }

  while (*s == ' ')
    s++;
  if (*s == 0)
    return;
  if (strncmp (s, "0x", 2) == 0 && strchr (s, '('))
    s = strip_record_dsos (r, s);

  /* The records of a sample (perhaps after its IP) without a pid: of
     the process of the pid line before its frames, or of the only
     process of a script without pids.  */
  if (is_branch_line (s) && !(r->mode == MODE_PID && !r->has_pending_pid))
    {
      if (r->mode == MODE_UNKNOWN)
	r->mode = MODE_NO_PID;
      int p = r->mode == MODE_PID ? r->pending_pid : NO_PID;
      uint64_t count = r->pending_count ? r->pending_count : 1;
      if (!is_record (s))
	s += strcspn (s, " \t");
      /* llvm-profgen drops a sample with a frame that is no address.  */
      if (r->frames_bad)
	r->stats->skipped_lines++;
      else if (branch_sample (r, p, s, r->frames > 0, r->frame0, count) != 0)
	r->stats->skipped_lines++;
      r->frames = 0;
      r->frames_bad = 0;
      r->pending_count = 0;
      r->has_pending_pid = 0;
      return;
    }
  frames_without_records (r);
  r->pending_count = 0;
  r->has_pending_pid = 0;

  if (strncmp (s, "PERF_RECORD_", 12) == 0)
    {
      /* Events without a pid before them: llvm-profgen's scripts.  */
      if (r->mode == MODE_UNKNOWN)
	r->mode = MODE_NO_PID;
      if (parse_event (r, s) != 0)
	r->stats->skipped_lines++;
      return;
    }

  if (parse_int (&s, &pid) != 0)
    {
      r->stats->skipped_lines++;
      return;
    }
  if (*s != ' ' && *s != '\t' && *s != 0)
    {
      r->stats->skipped_lines++;
      return;
    }
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s == 0)
    {
      /* A number alone: the pid before the frames of a sample; in a
	 script without pids, the count of an aggregated sample.  */
      if (pid > 0 && r->mode != MODE_PID)
	{
	  r->mode = MODE_NO_PID;
	  r->pending_count = pid;
	}
      else if (r->mode == MODE_PID)
	{
	  r->pending_pid = pid;
	  r->has_pending_pid = 1;
	}
      else
	r->stats->skipped_lines++;
      return;
    }
  if (r->mode == MODE_NO_PID)
    {
      /* A pid in a script without pids: junk.  */
      r->stats->skipped_lines++;
      return;
    }
  r->mode = MODE_PID;
  if (strncmp (s, "PERF_RECORD_", 12) == 0)
    ok = parse_event (r, s) == 0;
  else
    {
      uint64_t ip;
      struct sample_regs regs = { 0 };
      ok = parse_hex (&s, &ip) == 0 && (*s == 0 || *s == ' ' || *s == '\t');
      while (ok && (*s == ' ' || *s == '\t'))
	s++;
      /* Registers, then branch records.  */
      const char *recs = s;
      while (*recs && !is_record (recs))
	{
	  recs += strcspn (recs, " \t");
	  recs += strspn (recs, " \t");
	}
      if (ok && recs > s)
	ok = parse_uregs (s, recs, &regs) == 0;
      if (ok && *recs && r->branch_fn)
	{
	  if (branch_sample (r, pid, recs, r->has_stacks, ip, 1) != 0)
	    r->stats->skipped_lines++;
	}
      else if (ok)
	sample (r, pid, ip, &regs);
    }
  if (!ok)
    r->stats->skipped_lines++;
}

/* Feed every line of F, without its line ending, to PARSE_LINE.  */
static void
parse_lines (struct perf_reader *r, FILE *f,
	     void (*parse_line) (struct perf_reader *, const char *))
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline (&line, &cap, f)) >= 0)
    {
      /* perf ends every line: a last line without its end was cut
	 short, and its last address may be cut too.  */
      if (len > 0 && line[len - 1] != '\n' && parse_line == parse_script_line)
	{
	  r->stats->truncated = 1;
	  break;
	}
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
	line[--len] = 0;
      /* A NUL inside a line (binary junk) ends it; harmless.  */
      parse_line (r, line);
    }
  free (line);
}

/* The call-stack pass for --csprof: the frames collected of a sample,
   to the IP-stack callback.  */
static void
flush_stack_frames (struct perf_reader *r)
{
  if (r->ipstack_fn && r->stack_frames > 0)
    r->ipstack_fn (r->ctx, 1, r->stack_frames, r->frame_bins,
		   r->frame_vaddrs);
  r->stack_frames = 0;
}

/* One line of the call-stack pass.  Only the first two frames of a
   sample matter for indirect calls, and both must be in the binaries:
   a frame in the kernel or in another file breaks the chain, since
   what called into it is not a call site of ours.  For --csprof
   (IPSTACK_FN) every frame is collected.  */
static void
parse_stack_line (struct perf_reader *r, const char *s)
{
  if (*s != '\t')
    {
      /* "PID" starts a sample, an empty line ends it.  A sample
	 without a call stack ("PID ADDR (PATH)") has no frames.  */
      int pid;
      flush_stack_frames (r);
      while (*s == ' ')
	s++;
      r->frame = -1;
      if (parse_int (&s, &pid) != 0)
	return;
      while (*s == ' ')
	s++;
      if (*s == 0)
	r->frame = 0;
      return;
    }
  if (r->frame < 0 || (r->frame > 1 && !r->ipstack_fn))
    return;

  /* "\t   ADDR (PATH)"; PATH may hold parentheses: up to the last.  */
  uint64_t addr;
  s++;
  while (*s == ' ')
    s++;
  const char *close = strrchr (s, ')');
  if (parse_hex (&s, &addr) != 0 || skip (&s, " (") != 0 || !close
      || close < s)
    {
      /* The frames so far make the context.  */
      r->frame = -1;
      return;
    }
  char *path = xmalloc (close - s + 1);
  memcpy (path, s, close - s);
  path[close - s] = 0;

  if (r->ipstack_fn)
    {
      grow_frame_vaddrs (r, r->stack_frames + 1);
      r->frame_bins[r->stack_frames]
	= frame_vaddr (r, path, addr, &r->frame_vaddrs[r->stack_frames]);
      r->stack_frames++;
    }
  if (r->frame == 0)
    {
      r->stats->stack_samples++;
      r->frame0_bin = frame_vaddr (r, path, addr, &r->frame0_vaddr);
      r->frame = 1;
    }
  else if (r->frame == 1)
    {
      uint64_t call_vaddr;
      int call_bin = -1;
      /* Into the call instruction (see perf-samples.h).  */
      if (r->frame0_bin >= 0 && addr > 0)
	call_bin = frame_vaddr (r, path, addr - 1, &call_vaddr);
      if (call_bin >= 0)
	{
	  r->stats->stack_in_bins++;
	  if (r->stack_fn)
	    r->stack_fn (r->ctx, r->frame0_bin, r->frame0_vaddr, call_bin,
			 call_vaddr);
	}
      r->frame = 2;
    }
  free (path);
}

/* Check the start of a perf.data file before running perf on it, for
   clear messages: empty, not perf data, truncated data section.  The
   header (perf's struct perf_file_header) is magic "PERFILE2", its own
   size, attr size, then {offset, size} of attrs, data, event types.  A
   pipe-mode file has only magic and size.  */
static void
check_perf_header (const char *file)
{
  unsigned char h[104];
  struct stat st;
  FILE *f = fopen (file, "rb");
  if (!f)
    lp_fatal (file, "%s", strerror (errno));
  if (fstat (fileno (f), &st) != 0)
    lp_fatal (file, "%s", strerror (errno));
  size_t n = fread (h, 1, sizeof h, f);
  fclose (f);
  if (st.st_size == 0)
    lp_fatal (file, "empty file: no perf data");
  if (n < 16 || memcmp (h, "PERFILE2", 8) != 0)
    lp_fatal (file, "not a perf.data file (perf record -o FILE writes one; "
	      "use --perfscript for perf script text)");
  uint64_t hsize, data_off, data_size;
  memcpy (&hsize, h + 8, 8);
  if (hsize == 16)
    return;
  if (n < sizeof h)
    lp_fatal (file, "truncated perf.data header");
  memcpy (&data_off, h + 40, 8);
  memcpy (&data_size, h + 48, 8);
  if (data_off > (uint64_t) st.st_size
      || data_size > (uint64_t) st.st_size - data_off)
    lp_fatal (file, "truncated perf.data: the data section ends at byte "
	      "%" PRIu64 ", the file has %jd bytes", data_off + data_size,
	      (intmax_t) st.st_size);
}

/* Exit with a message for a failed perf command WHAT with its exit
   STATUS and standard error ERR (all of it: perf's own message is the
   most precise one we have).  */
static void
show_perf_error (const char *file, const char *what, int status,
		 const char *err)
{
  lp_fatal (file, "%s failed (exit status %d): corrupt or truncated perf "
	    "data?%s%s", what, status, *err ? "\n" : "", err);
}

/* Start perf with ARGV; exit with a message if perf is missing.  */
static void
start_perf (struct run_cmd *cmd, char **argv)
{
  if (run_start (cmd, argv) != 0)
    {
      if (errno == ENOENT)
	lp_fatal (NULL, "cannot run 'perf': not found in PATH; install "
		  "perf (Debian: linux-perf) or use --perfscript");
      lp_fatal (NULL, "cannot run 'perf': %s", strerror (errno));
    }
}

/* Run perf buildid-list on FILE and keep its lines.  */
static void
read_build_ids (struct perf_reader *r)
{
  char *argv[] = { "perf", "buildid-list", "-i", (char *) r->file, NULL };
  struct run_cmd cmd;
  char *line = NULL, *err;
  size_t cap = 0, dcap = 16;
  ssize_t len;

  start_perf (&cmd, argv);
  r->dsos = xmalloc (dcap * sizeof *r->dsos);
  while ((len = getline (&line, &cap, cmd.out)) >= 0)
    {
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
	line[--len] = 0;
      /* "BUILDID PATH"; perf pads a build id shorter than 20 bytes
	 with blanks.  */
      char *sp = strchr (line, ' ');
      if (!sp || sp == line)
	continue;
      *sp++ = 0;
      while (*sp == ' ')
	sp++;
      if (!*sp)
	continue;
      if (r->num_dsos == dcap)
	r->dsos = xrealloc (r->dsos, (dcap *= 2) * sizeof *r->dsos);
      r->dsos[r->num_dsos].build_id = xstrdup (line);
      r->dsos[r->num_dsos].path = xstrdup (sp);
      r->num_dsos++;
    }
  free (line);
  int status = run_finish (&cmd, &err);
  if (status != 0)
    show_perf_error (r->file, "perf buildid-list", status, err);
  free (err);
}

/* Run perf script on FILE (or read FILE as its output) and parse it.  */
static void
read_script (struct perf_reader *r)
{
  if (r->is_script)
    {
      FILE *f = fopen (r->file, "r");
      if (!f)
	lp_fatal (r->file, "%s", strerror (errno));
      parse_lines (r, f, parse_script_line);
      if (ferror (f))
	lp_fatal (r->file, "read error");
      fclose (f);
      frames_without_records (r);
      return;
    }

  char fields[64];
  snprintf (fields, sizeof fields, "pid,ip%s%s", r->want_regs ? ",uregs" : "",
	    r->want_branches ? ",brstack" : "");
  char *argv[] = { "perf", "script", "-i", (char *) r->file,
		   "--show-mmap-events", "--show-task-events",
		   "-G", "-F", fields, NULL };
  /* Branch stacks with call stacks: the frames come too (contexts,
     the prologue rule), with their files, since perf prints a mapped
     frame as an offset in its file, and without inlined frames
     (perf's own, from debug info).  No registers: a branch-stack
     sample does not use them.  */
  if (r->frames_dso)
    {
      argv[6] = "--no-inline";
      snprintf (fields, sizeof fields, "pid,ip,dso,brstack");
    }
  /* The command, so that the text it reads can be had (--perfscript
     reads it the same way).  */
  if (r->verbose)
    lp_note ("%s: perf script -i %s %s %s %s -F %s", r->file, r->file,
	     argv[4], argv[5], argv[6], fields);
  struct run_cmd cmd;
  char *err;
  start_perf (&cmd, argv);
  r->mode = MODE_PID;
  parse_lines (r, cmd.out, parse_script_line);
  int status = run_finish (&cmd, &err);
  if (status != 0)
    show_perf_error (r->file, "perf script", status, err);
  free (err);
}

/* What the events of FILE sample, from perf evlist -v, which reads only
   the header and so costs nothing even for a large perf.data: call
   stacks (CALLCHAIN in a sample_type) into *STACKS, and whether it has
   user registers we use into *REGS: DX or FLAGS (bits 3 and 9 of a
   sample_regs_user, perf's PERF_REG_X86_DX and PERF_REG_X86_FLAGS).  */
static void
read_evlist (struct perf_reader *r, int *stacks, int *regs, int *branches)
{
  char *argv[] = { "perf", "evlist", "-v", "-i", (char *) r->file, NULL };
  struct run_cmd cmd;
  char *line = NULL, *err;
  size_t cap = 0;

  *stacks = *regs = *branches = 0;
  start_perf (&cmd, argv);
  while (getline (&line, &cap, cmd.out) >= 0)
    {
      const char *s = strstr (line, "sample_type: ");
      if (s)
	{
	  s += 13;
	  /* "IP|TID|...|CALLCHAIN|...", up to the next ',' or blank.  */
	  size_t n = strcspn (s, ", \n");
	  for (const char *f = s; f < s + n; f += strcspn (f, "|, \n") + 1)
	    if (strncmp (f, "CALLCHAIN", 9) == 0
		&& (f[9] == '|' || f + 9 == s + n))
	      *stacks = 1;
	    else if (strncmp (f, "BRANCH_STACK", 12) == 0
		     && (f[12] == '|' || f + 12 == s + n))
	      *branches = 1;
	}
      s = strstr (line, "sample_regs_user: ");
      if (s)
	{
	  uint64_t mask;
	  s += 18;
	  if (parse_hex (&s, &mask) == 0 && (mask & ((1 << 3) | (1 << 9))))
	    *regs = 1;
	}
    }
  free (line);
  int status = run_finish (&cmd, &err);
  if (status != 0)
    {
      lp_warning (r->file, "perf evlist failed (exit status %d): call "
		  "stacks, registers and branch stacks not read%s%s", status,
		  *err ? "\n" : "", err);
      *stacks = *regs = *branches = 0;
    }
  free (err);
}

/* The call-stack pass: run perf script for the first two frames of
   every sample and pass them to the stack callback.  */
static void
read_stacks (struct perf_reader *r)
{
  char *argv[] = { "perf", "script", "-i", (char *) r->file,
		   "-F", "pid,ip,dso", "--no-inline", "--max-stack=2", NULL };
  struct run_cmd cmd;
  char *err;

  /* --csprof: every frame (perf's default limit, 127).  */
  if (r->ipstack_fn)
    argv[7] = NULL;
  start_perf (&cmd, argv);
  r->frame = -1;
  r->stack_frames = 0;
  parse_lines (r, cmd.out, parse_stack_line);
  flush_stack_frames (r);
  int status = run_finish (&cmd, &err);
  if (status != 0)
    show_perf_error (r->file, "perf script (call stacks)", status, err);
  free (err);
}

/* Decide per binary how mapped files are matched to it.  */
static void
choose_matching (struct perf_reader *r, int verbose)
{
  for (size_t b = 0; b < r->num_elfs; b++)
    {
      const struct elf_file *elf = &r->elfs[b];
      r->by_build_id[b] = !r->is_script && elf->build_id[0];
      if (r->is_script)
	{
	  if (verbose && b == 0)
	    lp_note ("--perfscript: build ids cannot be checked; mapped "
		     "files are matched to the binaries by path");
	}
      else if (!elf->build_id[0])
	lp_warning (elf->path, "no build id (linked with --build-id=none?); "
		    "matching it to perf.data by path, unchecked");
    }
}

/* After reading: the checks that need all samples.  */
static void
check_samples (struct perf_reader *r)
{
  const struct perf_stats *st = r->stats;
  size_t with_samples = 0;

  if (st->truncated)
    lp_warning (r->file, "the perf script output ends in the middle of a "
		"line (cut short?): its last line is not read");
  if (st->ends_outside_code)
    lp_warning (r->file, "%" PRIu64 " ends of branch records are in a "
		"binary's mapping but not in its code (left out as if "
		"outside it): recorded from another build?",
		st->ends_outside_code);
  if (st->stack_no_branches)
    lp_warning (r->file, "%" PRIu64 " call stacks without the branch "
		"records that follow them (cut short?) are not read",
		st->stack_no_branches);
  if (st->samples == 0)
    lp_fatal (r->file, "no samples%s", st->skipped_lines && r->is_script
	      ? " (is this the output of perf script -G -F pid,ip, or of "
		"perf script -F ip,brstack?)" : "");

  /* A binary whose path perf.data knows under another build id (for
     a binary without one: under any).  */
  for (size_t b = 0; b < r->num_elfs && !r->is_script; b++)
    {
      const struct elf_file *elf = &r->elfs[b];
      if (st->per_binary[b] && r->by_build_id[b])
	continue;
      for (size_t d = 0; d < r->num_dsos; d++)
	{
	  char *real = realpath (r->dsos[d].path, NULL);
	  int same = strcmp (r->dsos[d].path, elf->realpath) == 0
		     || (real && strcmp (real, elf->realpath) == 0);
	  free (real);
	  if (same && !build_id_equal (r->dsos[d].build_id, elf->build_id))
	    lp_fatal (NULL, "%s was recorded from another build of %s "
		      "(build id %s there, %s here)", r->file, elf->path,
		      r->dsos[d].build_id,
		      elf->build_id[0] ? elf->build_id : "none");
	}
    }

  for (size_t b = 0; b < r->num_elfs; b++)
    with_samples += st->per_binary[b] != 0;
  for (size_t b = 0; b < r->num_elfs; b++)
    if (!st->per_binary[b])
      {
	char what[160] = "";
	if (st->branch_samples && !st->records_in_bins)
	  snprintf (what, sizeof what, ": none of its %" PRIu64 " branch "
		    "records is in the code of the binaries given (a "
		    "recording of another program?)", st->branch_records);
	if (with_samples)
	  lp_warning (NULL, "no samples of %s in %s", r->elfs[b].path,
		      r->file);
	else
	  lp_fatal (NULL, "no samples of %s in %s%s", r->elfs[b].path,
		    r->file, what);
      }
}

void
perf_read_samples (const char *file, int is_script, struct elf_file *elfs,
		   size_t num, perf_sample_fn fn, perf_branch_fn branch_fn,
		   perf_stack_fn stack_fn, perf_ipstack_fn ipstack_fn,
		   void *ctx,
		   struct perf_stats *stats, int verbose)
{
  struct perf_reader r;

  memset (&r, 0, sizeof r);
  memset (stats, 0, sizeof *stats);
  stats->per_binary = xcalloc (num, sizeof *stats->per_binary);
  r.file = file;
  r.verbose = verbose;
  r.is_script = is_script;
  r.elfs = elfs;
  r.num_elfs = num;
  r.fn = fn;
  r.stack_fn = stack_fn;
  r.ipstack_fn = ipstack_fn;
  r.branch_fn = branch_fn;
  r.mapped = xcalloc (num + 1, sizeof *r.mapped);
  r.ctx = ctx;
  r.stats = stats;
  r.by_build_id = xcalloc (num, sizeof *r.by_build_id);
  r.cap_procs = 16;
  r.procs = xmalloc (r.cap_procs * sizeof *r.procs);
  index_table_init (&r.pid_index);
  r.cap_paths = 16;
  r.paths = xmalloc (r.cap_paths * sizeof *r.paths);
  index_table_init (&r.path_index);

  int has_stacks = 0;
  if (!is_script)
    {
      check_perf_header (file);
      read_build_ids (&r);
      read_evlist (&r, &has_stacks, &r.want_regs, &r.want_branches);
      r.want_branches &= branch_fn != NULL;
      r.has_stacks = has_stacks;
      r.frames_dso = r.want_branches && has_stacks;
      stats->has_branches = r.want_branches;
    }
  choose_matching (&r, verbose);
  read_script (&r);
  if (verbose && stats->skipped_lines)
    lp_note ("%s: %" PRIu64 " lines of perf script output not understood",
	     file, stats->skipped_lines);
  check_samples (&r);
  /* With branch stacks, the frames came with the samples: the records
     give the calls, the stacks the contexts.  */
  if (!is_script && (stack_fn || ipstack_fn) && !r.frames_dso)
    {
      stats->has_stacks = has_stacks;
      if (stats->has_stacks)
	read_stacks (&r);
    }

  for (size_t i = 0; i < r.num_procs; i++)
    free (r.procs[i].maps);
  free (r.procs);
  index_table_free (&r.pid_index);
  for (size_t i = 0; i < r.num_paths; i++)
    free (r.paths[i].path);
  free (r.paths);
  index_table_free (&r.path_index);
  for (size_t i = 0; i < r.num_dsos; i++)
    {
      free (r.dsos[i].build_id);
      free (r.dsos[i].path);
    }
  free (r.dsos);
  free (r.by_build_id);
  free (r.mapped);
  free (r.records);
  free (r.plain);
  free (r.frame_addrs);
  free (r.frame_vaddrs);
  free (r.frame_bins);
}
