/* probe-regions.c: probe regions, their instruction counts and the
   samples in them (probe-regions.h).  */

#define _GNU_SOURCE
#include "probe-regions.h"
#include "a64-insn.h"
#include "jcc-flags.h"
#include "run-cmd.h"
#include "tool-util.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For qsort of probe indices by address.  */
static const struct probe *sort_probes;

static int
cmp_probe_addr (const void *a, const void *b)
{
  const struct probe *x = &sort_probes[*(const size_t *) a];
  const struct probe *y = &sort_probes[*(const size_t *) b];
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return *(const size_t *) a < *(const size_t *) b ? -1 : 1;
}

/* The number of the N elements of SIZE bytes at BASE, sorted by the
   uint64_t at byte offset OFF, whose key is below KEY (with OR_EQUAL:
   at or below): where KEY goes.  */
static size_t
sorted_rank (const void *base, size_t n, size_t size, size_t off,
	     uint64_t key, int or_equal)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      uint64_t v;
      memcpy (&v, (const char *) base + mid * size + off, sizeof v);
      if (v < key || (or_equal && v == key))
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo;
}

/* Index of the region holding ADDR, or SIZE_MAX.  */
static size_t
find_region (const struct probe_regions *regs, uint64_t addr)
{
  /* Last region starting at or below ADDR.  */
  size_t lo = sorted_rank (regs->regions, regs->num_regions,
			   sizeof *regs->regions,
			   offsetof (struct probe_region, start), addr, 1);
  if (lo == 0 || addr >= regs->regions[lo - 1].end)
    return SIZE_MAX;
  return lo - 1;
}

/* True if the objdump mnemonic text INSN starts with WORD, followed
   by a blank or the end.  */
static int
insn_is (const char *insn, const char *word)
{
  size_t n = strlen (word);
  return strncmp (insn, word, n) == 0
	 && (insn[n] == ' ' || insn[n] == '\t' || insn[n] == '\n'
	     || insn[n] == 0);
}

/* INSN (objdump's text) after the prefixes objdump prints as words of
   their own, in any order: CET's notrack, MPX's bnd, rep and its
   forms, lock, segments, operand and address size, HLE.  */
static const char *
skip_prefixes (const char *insn)
{
  static const char *const prefixes[] = { "notrack ", "bnd ", "rep ",
					  "repz ", "repnz ", "repe ",
					  "repne ", "lock ", "data16 ",
					  "addr32 ", "cs ", "ds ", "es ",
					  "fs ", "gs ", "ss ", "xacquire ",
					  "xrelease " };
  const char *before;
  do
    {
      before = insn;
      for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
	if (strncmp (insn, prefixes[i], strlen (prefixes[i])) == 0)
	  insn += strlen (prefixes[i]);
    }
  while (insn != before);
  return insn;
}

/* An unconditional jump or a return: what follows is reached only as a
   jump target.  */
static int
is_jump (const char *insn)
{
  insn = skip_prefixes (insn);
  return insn_is (insn, "jmp") || insn_is (insn, "ret")
	 || insn_is (insn, "ud2");
}

/* The instructions GNU as and GCC use as alignment padding: nop in
   its forms (with data16/cs prefixes), xchg %ax,%ax and int3.  */
static int
is_padding (const char *insn)
{
  insn = skip_prefixes (insn);
  return insn_is (insn, "nop") || insn_is (insn, "nopl")
	 || insn_is (insn, "nopw") || insn_is (insn, "int3")
	 || strncmp (insn, "xchg   %ax,%ax", 14) == 0;
}

/* The mnemonic of INSN (objdump's text) after its prefixes, as a
   NUL-terminated copy in BUF of SIZE bytes; its operands are at the
   returned pointer.  */
static const char *
split_mnemonic (const char *insn, char *buf, size_t size)
{
  return objdump_mnemonic (skip_prefixes (insn), buf, size);
}

/* True if INSN may leave the straight line to the next instruction:
   any jump, call, return or trap.  */
static int
is_control (const char *insn)
{
  char mn[32];
  split_mnemonic (insn, mn, sizeof mn);
  /* Prefixes of mnemonics: "int" is int3 too, "call" callq.  */
  static const char *const words[] = { "call", "ret", "loop", "ud2", "int",
				       "hlt", "syscall", "sysenter" };
  if (mn[0] == 'j')
    return 1;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strncmp (mn, words[i], strlen (words[i])) == 0)
      return 1;
  return 0;
}

/* The register DX in its widths, as objdump names them.  */
static const char *const dx_names[] = { "%rdx", "%edx", "%dx", "%dl", "%dh" };

/* True if the operand text OP (up to a comma or the end) is DX.  */
static int
is_dx_operand (const char *op)
{
  for (size_t i = 0; i < sizeof dx_names / sizeof dx_names[0]; i++)
    {
      size_t n = strlen (dx_names[i]);
      if (strncmp (op, dx_names[i], n) == 0
	  && (op[n] == 0 || op[n] == ',' || op[n] == ' ' || op[n] == '\n'))
	return 1;
    }
  return 0;
}

/* True if the operand text OPS names DX anywhere.  */
static int
mentions_dx (const char *ops)
{
  for (size_t i = 0; i < sizeof dx_names / sizeof dx_names[0]; i++)
    if (strstr (ops, dx_names[i]))
      return 1;
  return 0;
}

/* True if INSN may change DX.  objdump prints AT&T syntax, where the
   destination is the last operand; besides, some instructions write
   DX implicitly (sign extension into DX:AX, multiply and divide, the
   time-stamp counter, cpuid) and exchanges write both operands.  */
static int
writes_dx (const char *insn)
{
  char mn[32];
  const char *ops = split_mnemonic (insn, mn, sizeof mn);
  static const char *const implicit[] = { "cqto", "cltd", "cwtd", "rdtsc",
					  "rdpmc", "rdmsr", "xgetbv",
					  "cpuid", "rdpid", "mul", "div",
					  "idiv" };
  for (size_t i = 0; i < sizeof implicit / sizeof implicit[0]; i++)
    if (strncmp (mn, implicit[i], strlen (implicit[i])) == 0)
      return 1;
  /* The one-operand imul writes DX:AX.  */
  if (strncmp (mn, "imul", 4) == 0 && !strchr (ops, ','))
    return 1;
  if (!mentions_dx (ops))
    return 0;
  if (strncmp (mn, "xchg", 4) == 0 || strncmp (mn, "xadd", 4) == 0
      || strncmp (mn, "cmpxchg", 7) == 0)
    return 1;
  /* These read their last operand only.  */
  if (strncmp (mn, "cmp", 3) == 0 || strncmp (mn, "test", 4) == 0
      || strncmp (mn, "push", 4) == 0 || strcmp (mn, "bt") == 0
      || strcmp (mn, "btq") == 0 || strcmp (mn, "btl") == 0)
    return 0;
  /* The last operand, after any '#' comment objdump adds.  */
  const char *last = ops;
  for (const char *s = ops; *s && *s != '#'; s++)
    if (*s == ',')
      last = s + 1;
  while (*last == ' ')
    last++;
  return is_dx_operand (last);
}

/* If INSN (objdump's text; A64: AArch64's) is a call to memcpy,
   memmove, mempcpy, memset, memcmp or bcmp (each takes its size as
   the third argument), through the PLT, the GOT or directly, or a jump
   to one (a tail call), return 1.  Any other call: 2.  Else 0.  */
static int
call_kind (const char *insn, int a64)
{
  int jump, call;
  if (a64)
    {
      int indirect;
      uint64_t target;
      const char *ops;
      if (!a64_branch (insn, &call, &jump, &indirect, &target, &ops))
	return 0;
    }
  else
    {
      insn = skip_prefixes (insn);
      jump = insn_is (insn, "jmp") || insn_is (insn, "jmpq");
      call = insn_is (insn, "call") || insn_is (insn, "callq");
    }
  if (!jump && !call)
    return 0;
  int other = jump ? 0 : 2;
  const char *lt = strchr (insn, '<');
  if (!lt)
    return other;
  static const char *const memops[] = { "memcpy", "memmove", "mempcpy",
					"memset", "memcmp", "bcmp" };
  for (size_t i = 0; i < sizeof memops / sizeof memops[0]; i++)
    {
      size_t n = strlen (memops[i]);
      /* <memcpy>, <memcpy@plt>, or with -fno-plt <memcpy@GLIBC_2.14>.  */
      if (strncmp (lt + 1, memops[i], n) == 0
	  && (lt[n + 1] == '>' || lt[n + 1] == '@'))
	return 1;
    }
  return other;
}

/* Note ADDR as a prologue or epilogue instruction.  */
static void
add_pro_epi (struct probe_regions *regs, uint64_t addr)
{
  regs->pro_epi = lp_grow (regs->pro_epi, &regs->cap_pro_epi,
			   regs->num_pro_epi, sizeof *regs->pro_epi, 256);
  regs->pro_epi[regs->num_pro_epi++] = addr;
}

/* Note INSN at ADDR (objdump's text; A64: AArch64's) in REGS if it is
   a direct call
   (its return address is the next instruction's: *PENDING is set to
   its index until then) or a tail jump; FN is the address of the
   function symbol holding it.  */
static void
note_branch (struct probe_regions *regs, uint64_t addr, uint64_t fn,
	     const char *insn, size_t *pending, int a64)
{
  char mn[32];
  const char *ops;
  int call, jump, indirect;
  uint64_t a64_target;
  if (a64)
    {
      if (!a64_branch (insn, &call, &jump, &indirect, &a64_target, &ops))
	return;
    }
  else
    {
      ops = split_mnemonic (insn, mn, sizeof mn);
      call = strcmp (mn, "call") == 0 || strcmp (mn, "callq") == 0;
      jump = strcmp (mn, "jmp") == 0 || strcmp (mn, "jmpq") == 0;
      indirect = *ops == '*';
    }
  if (!call && !jump)
    return;
  /* "53c20 <f>" or "53c30 <f+0x10>"; indirect: "*%rax", "*0x8(%rdi)"
     (AArch64: "blr\tx16").  */
  uint64_t target = 0;
  int at_symbol = 0;
  if (!indirect)
    {
      char *end;
      errno = 0;
      target = strtoull (ops, &end, 16);
      if (end == ops || errno || target == 0)
	return;
      const char *lt = strchr (end, '<');
      at_symbol = lt && !strchr (lt, '+');
    }
  if (call || (jump && target && at_symbol && target != fn))
    {
      regs->call_insns = lp_grow (regs->call_insns, &regs->cap_call_insns,
				  regs->num_call_insns,
				  sizeof *regs->call_insns, 64);
      struct call_insn *ci = &regs->call_insns[regs->num_call_insns++];
      ci->addr = addr;
      ci->floor = addr;
      ci->probe = SIZE_MAX;
      ci->indirect = call && !target && indirect;
      ci->is_call = call;
    }
  if (call && target)
    {
      regs->calls = lp_grow (regs->calls, &regs->cap_calls, regs->num_calls,
			     sizeof *regs->calls, 64);
      regs->calls[regs->num_calls].addr = addr;
      regs->calls[regs->num_calls].ret = addr + 1;	/* Until known.  */
      regs->calls[regs->num_calls].target = target;
      *pending = regs->num_calls++;
    }
  /* Each append below fills a different record; lp_grow holds what
     they share.  */
  else if (jump && (!target || (at_symbol && target != fn)))
    {
      regs->tail_jumps = lp_grow (regs->tail_jumps, &regs->cap_tail_jumps,
				  regs->num_tail_jumps,
				  sizeof *regs->tail_jumps, 64);
      struct tail_jump *t = &regs->tail_jumps[regs->num_tail_jumps++];
      t->addr = addr;
      t->fn = fn;
      t->target = target;
    }
}

/* Note INSN at ADDR (objdump's text; A64: AArch64's) in REGS if it is
   a conditional jump with a direct target; *PENDING is set to its index
   until the next instruction's address is known.  */
static void
note_cond_jump (struct probe_regions *regs, uint64_t addr, const char *insn,
		size_t *pending, int a64)
{
  char mn[32];
  uint64_t target;
  int cond;
  if (a64)
    {
      cond = a64_cond_branch (insn, &target);
      if (cond < 0)
	return;
    }
  else
    {
      const char *ops = split_mnemonic (insn, mn, sizeof mn);
      cond = jcc_condition (mn);
      if (cond < 0)
	return;
      char *end;
      errno = 0;
      target = strtoull (ops, &end, 16);
      if (end == ops || errno || target == 0)
	return;
    }
  regs->jumps = lp_grow (regs->jumps, &regs->cap_jumps, regs->num_jumps,
			 sizeof *regs->jumps, 256);
  struct cond_jump *j = &regs->jumps[regs->num_jumps];
  memset (j, 0, sizeof *j);
  j->addr = addr;
  j->next = addr + 2;		/* Until known.  */
  j->target = target;
  j->cond = cond;
  *pending = regs->num_jumps++;
}

/* Count instructions per region with objdump -d over the span of the
   regions, and note the memop calls.  Return 0, or -1 when objdump
   cannot be run or fails.  */
static int
count_insns_objdump (const struct elf_file *elf, struct probe_regions *regs,
		     int verbose)
{
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < regs->num_regions; i++)
    if (regs->regions[i].end > regs->regions[i].start)
      {
	if (regs->regions[i].start < lo)
	  lo = regs->regions[i].start;
	if (regs->regions[i].end > hi)
	  hi = regs->regions[i].end;
      }
  if (lo >= hi)
    return 0;

  char start_opt[64], stop_opt[64];
  snprintf (start_opt, sizeof start_opt, "--start-address=0x%" PRIx64, lo);
  snprintf (stop_opt, sizeof stop_opt, "--stop-address=0x%" PRIx64, hi);
  /* This machine's objdump reads x86-64 code; AArch64's needs the
     cross binutils' (binutils-aarch64-linux-gnu).  */
  int a64 = elf->machine == EM_AARCH64;
  char *objdump = a64 ? "aarch64-linux-gnu-objdump" : "objdump";
  char *argv[] = { objdump, "-d", "--no-show-raw-insn", start_opt,
		   stop_opt, (char *) elf->path, NULL };
  struct run_cmd cmd;
  if (run_start (&cmd, argv) != 0)
    {
      /* Every x86-64 machine has objdump; the cross binutils are a
	 package of their own, whose absence must not go unnoticed.  */
      if (a64)
	lp_warning (elf->path, "cannot run %s (%s): install "
		    "binutils-aarch64-linux-gnu; until then instructions are "
		    "estimated at 4 bytes each, and memop sizes and branch "
		    "directions are left out", objdump, strerror (errno));
      else if (verbose)
	lp_note ("cannot run %s (%s)", objdump, strerror (errno));
      return -1;
    }

  /* Instruction lines are "  ADDR:\tMNEMONIC ...": blank, hex, colon,
     tab.  Symbol lines ("0000000000001050 <main>:") and section
     headers do not start with a blank.  */
  char *line = NULL, *err;
  size_t cap = 0;
  int after_jump = 0;
  uint64_t floor = 0, fn = 0;
  size_t pending = SIZE_MAX, pending_jump = SIZE_MAX;
  /* The first address of the straight run of instructions (no control
     transfer, no write of DX) that ends at the current one; 0: the
     next instruction starts one.  */
  uint64_t window = 0;
  /* For llvm-profgen's prologues: instructions of the function still
     to note; the previous instruction (0: none).  */
  int prologue = 0;
  uint64_t prev_insn = 0, call_floor = 0;
  regs->insn_lo = lo;
  regs->insn_hi = hi;
  while (getline (&line, &cap, cmd.out) >= 0)
    {
      const char *s = line;
      if (*s != ' ')
	{
	  /* "0000000000001050 <main>:": a function starts.  */
	  char *end;
	  unsigned long long sym = strtoull (s, &end, 16);
	  if (end != s && end[0] == ' ' && end[1] == '<')
	    {
	      floor = fn = call_floor = sym;
	      window = 0;
	      prologue = 2;
	    }
	  continue;
	}
      while (*s == ' ')
	s++;
      char *end;
      errno = 0;
      unsigned long long addr = strtoull (s, &end, 16);
      if (end == s || errno || end[0] != ':' || end[1] != '\t')
	continue;
      const char *insn = end + 2;
      if (pending != SIZE_MAX)
	regs->calls[pending].ret = addr;
      pending = SIZE_MAX;
      if (pending_jump != SIZE_MAX)
	regs->jumps[pending_jump].next = addr;
      pending_jump = SIZE_MAX;
      size_t calls_before = regs->num_call_insns;
      note_branch (regs, addr, fn, insn, &pending, a64);
      note_cond_jump (regs, addr, insn, &pending_jump, a64);
      if (regs->num_call_insns > calls_before)
	{
	  regs->call_insns[calls_before].floor = call_floor;
	  call_floor = addr + 1;
	}
      regs->insn_addrs = lp_grow (regs->insn_addrs, &regs->cap_insn_addrs,
				  regs->num_insn_addrs,
				  sizeof *regs->insn_addrs, 1024);
      regs->insn_addrs[regs->num_insn_addrs++] = addr;
      if (prologue > 0)
	{
	  prologue--;
	  add_pro_epi (regs, addr);
	}
      {
	const char *bare = skip_prefixes (insn);
	if (a64 ? a64_is_ret (insn)
	    : insn_is (bare, "ret") || insn_is (bare, "retq"))
	  {
	    regs->rets = lp_grow (regs->rets, &regs->cap_rets, regs->num_rets,
				  sizeof *regs->rets, 64);
	    regs->rets[regs->num_rets++] = addr;
	    add_pro_epi (regs, addr);
	    if (prev_insn)
	      add_pro_epi (regs, prev_insn);
	  }
      }
      prev_insn = addr;
      /* Padding after a jump or return never runs: counting it would
	 make the block before it look less often executed.  */
      int padding = after_jump && (a64 ? a64_is_padding (insn)
				   : is_padding (insn));
      after_jump = padding || (a64 ? a64_is_jump (insn) : is_jump (insn));
      size_t r = find_region (regs, addr);
      if (r != SIZE_MAX && !padding)
	regs->regions[r].insns++;
      if (!window)
	window = addr;
      int kind = call_kind (insn, a64);
      if (kind == 1)
	{
	  regs->memop_calls = lp_grow (regs->memop_calls,
				       &regs->cap_memop_calls,
				       regs->num_memop_calls,
				       sizeof *regs->memop_calls, 16);
	  struct memop_call *c = &regs->memop_calls[regs->num_memop_calls++];
	  c->addr = addr;
	  c->window = window;
	  c->floor = floor;
	  c->probe = SIZE_MAX;
	}
      if (kind)
	floor = addr + 1;
      if (a64 ? a64_is_control (insn) || a64_writes_x2 (insn)
	  : is_control (insn) || writes_dx (insn))
	window = 0;
    }
  free (line);
  int status = run_finish (&cmd, &err);
  if (status != 0)
    {
      lp_warning (elf->path, "%s failed (exit status %d)%s%s", objdump,
		  status, *err ? ": " : "", err);
      free (err);
      for (size_t i = 0; i < regs->num_regions; i++)
	regs->regions[i].insns = 0;
      return -1;
    }
  free (err);
  return 0;
}

/* The non-dangling call probes of REGS by address, in a new array;
   *NUM is set to their number.  */
static size_t *
call_probes_by_addr (const struct probe_set *set,
		     const struct probe_regions *regs, size_t *num)
{
  size_t n = 0;
  size_t *calls = xmalloc ((set->num_probes + 1) * sizeof *calls);
  for (size_t r = 0; r < regs->num_regions; r++)
    for (size_t i = 0; i < regs->regions[r].num_probes; i++)
      {
	size_t p = regs->sorted_probes[regs->regions[r].first_probe + i];
	if (set->probes[p].type != PROBE_BLOCK)
	  calls[n++] = p;
      }
  *num = n;
  return calls;
}

/* The call probe of a call at ADDR among the NUM CALLS
   (call_probes_by_addr): the last one at or below ADDR, if it is not
   below FLOOR and no other probe shares its address; else
   PROBE_NO_CALL.  */
#define PROBE_NO_CALL ((size_t) -1)
static size_t
call_probe_at (const struct probe_set *set, const size_t *calls, size_t num,
	       uint64_t addr, uint64_t floor)
{
  size_t lo = 0, hi = num;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (set->probes[calls[mid]].addr <= addr)
	lo = mid + 1;
      else
	hi = mid;
    }
  if (lo == 0)
    return PROBE_NO_CALL;
  uint64_t a = set->probes[calls[lo - 1]].addr;
  if (a < floor || (lo >= 2 && set->probes[calls[lo - 2]].addr == a))
    return PROBE_NO_CALL;
  return calls[lo - 1];
}

/* The call probe of each memop call (see probe-regions.h).  */
static void
find_memop_probes (const struct probe_set *set, struct probe_regions *regs)
{
  size_t num;
  size_t *calls = call_probes_by_addr (set, regs, &num);
  for (size_t m = 0; m < regs->num_memop_calls; m++)
    {
      struct memop_call *c = &regs->memop_calls[m];
      size_t p = call_probe_at (set, calls, num, c->addr, c->floor);
      if (p != PROBE_NO_CALL)
	c->probe = p;
    }
  free (calls);
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

static int
cmp_call_insn (const void *a, const void *b)
{
  return cmp_u64 (&((const struct call_insn *) a)->addr,
		  &((const struct call_insn *) b)->addr);
}

/* The call probe of each call instruction and tail jump (see
   probe-regions.h), and the instruction lists in order.  */
static void
find_call_probes (const struct probe_set *set, struct probe_regions *regs)
{
  qsort (regs->insn_addrs, regs->num_insn_addrs, sizeof *regs->insn_addrs,
	 cmp_u64);
  qsort (regs->pro_epi, regs->num_pro_epi, sizeof *regs->pro_epi, cmp_u64);
  qsort (regs->rets, regs->num_rets, sizeof *regs->rets, cmp_u64);
  qsort (regs->call_insns, regs->num_call_insns, sizeof *regs->call_insns,
	 cmp_call_insn);
  size_t num;
  size_t *calls = call_probes_by_addr (set, regs, &num);
  for (size_t m = 0; m < regs->num_call_insns; m++)
    {
      struct call_insn *c = &regs->call_insns[m];
      size_t p = call_probe_at (set, calls, num, c->addr, c->floor);
      if (p != PROBE_NO_CALL)
	c->probe = p;
    }
  free (calls);
}

void
regions_build (const struct elf_file *elf, const struct probe_set *set,
	       struct probe_regions *regs, int verbose)
{
  size_t num = 0;
  size_t *order = xmalloc ((set->num_probes + 1) * sizeof *order);

  memset (regs, 0, sizeof *regs);
  regs->num_probes = set->num_probes;
  regs->probe_region = xmalloc ((set->num_probes + 1)
				* sizeof *regs->probe_region);
  for (size_t i = 0; i < set->num_probes; i++)
    {
      regs->probe_region[i] = SIZE_MAX;
      if (!(set->probes[i].attr & PROBE_ATTR_DANGLING))
	order[num++] = i;
    }
  sort_probes = set->probes;
  qsort (order, num, sizeof *order, cmp_probe_addr);

  regs->regions = xcalloc (num + 1, sizeof *regs->regions);
  for (size_t i = 0; i < num;)
    {
      uint64_t addr = set->probes[order[i]].addr;
      size_t j = i;
      while (j < num && set->probes[order[j]].addr == addr)
	regs->probe_region[order[j++]] = regs->num_regions;
      struct probe_region *r = &regs->regions[regs->num_regions++];
      r->start = addr;
      r->end = addr;
      r->first_probe = i;
      r->num_probes = j - i;
      /* A probe outside the code (e.g. of discarded code) gets an
	 empty region.  */
      if (elf_in_code (elf, addr))
	{
	  uint64_t bound = elf_next_bound (elf, addr);
	  r->end = j < num ? set->probes[order[j]].addr : UINT64_MAX;
	  if (bound < r->end)
	    r->end = bound;
	}
      i = j;
    }
  regs->sorted_probes = order;

  regs->set = set;
  if (count_insns_objdump (elf, regs, verbose) == 0)
    {
      find_memop_probes (set, regs);
      find_call_probes (set, regs);
    }
  else
    {
      regs->num_memop_calls = 0;
      regs->num_calls = regs->num_tail_jumps = regs->num_jumps = 0;
      regs->num_call_insns = regs->num_insn_addrs = regs->num_pro_epi = 0;
      regs->num_rets = 0;
      regs->insn_lo = regs->insn_hi = 0;
      regs->insns_estimated = 1;
      if (verbose)
	lp_note ("%s: objdump not available; estimating one instruction "
		 "per 4 bytes", elf->path);
      for (size_t i = 0; i < regs->num_regions; i++)
	{
	  struct probe_region *r = &regs->regions[i];
	  uint64_t n = (r->end - r->start) / 4;
	  r->insns = n ? n : 1;
	}
    }
}

void
regions_add_sample (struct probe_regions *regs, uint64_t vaddr,
		    uint64_t seq)
{
  size_t r = find_region (regs, vaddr);
  if (r == SIZE_MAX)
    {
      regs->unattributed++;
      return;
    }
  if (regs->regions[r].samples++ == 0)
    regs->regions[r].first_sample = seq;
  regs->attributed++;
}

size_t
regions_region_at (const struct probe_regions *regs, uint64_t vaddr)
{
  return find_region (regs, vaddr);
}

const char *
regions_function_at (const struct probe_regions *regs,
		     const struct probe_set *set, uint64_t vaddr)
{
  size_t r = find_region (regs, vaddr);
  if (r == SIZE_MAX)
    return NULL;
  /* Every probe of a region belongs to the same code, hence to the
     same top-level function: any will do.  */
  const struct probe *pr
    = &set->probes[regs->sorted_probes[regs->regions[r].first_probe]];
  uint32_t n = pr->node;
  while (set->nodes[n].parent != PROBE_NO_NODE)
    n = set->nodes[n].parent;
  const struct probe_desc *desc = probe_find_desc (set, set->nodes[n].guid);
  return desc ? desc->name : NULL;
}

/* The indirect call probe of the region holding VADDR, or SIZE_MAX
   when it has none or several.  */
static size_t
region_icall_probe (const struct probe_regions *regs,
		    const struct probe_set *set, uint64_t vaddr)
{
  size_t r = find_region (regs, vaddr);
  if (r == SIZE_MAX)
    return SIZE_MAX;
  const struct probe_region *reg = &regs->regions[r];
  size_t call = SIZE_MAX;
  for (size_t i = 0; i < reg->num_probes; i++)
    {
      size_t p = regs->sorted_probes[reg->first_probe + i];
      if (set->probes[p].type != PROBE_INDIRECT_CALL)
	continue;
      if (call != SIZE_MAX)
	return SIZE_MAX;
      call = p;
    }
  return call;
}

/* The index of the direct call instruction holding VADDR, or
   SIZE_MAX.  */
static size_t
find_direct_call (const struct probe_regions *regs, uint64_t vaddr)
{
  /* The last call at or below VADDR.  */
  size_t lo = sorted_rank (regs->calls, regs->num_calls, sizeof *regs->calls,
			   offsetof (struct direct_call, addr), vaddr, 1);
  return lo > 0 && vaddr < regs->calls[lo - 1].ret ? lo - 1 : SIZE_MAX;
}

/* Count one call of CALLEE for indirect call probe CALL.  */
static void
count_target (struct probe_regions *regs, const struct probe_set *set,
	      size_t call, const char *callee, uint64_t n)
{
  if (!regs->targets)
    regs->targets = xcalloc (set->num_probes + 1, sizeof *regs->targets);
  struct probe_targets *t = &regs->targets[call];
  /* A call site has few callees: a linear search is enough.  */
  for (size_t i = 0; i < t->num; i++)
    if (strcmp (t->targets[i].name, callee) == 0)
      {
	t->targets[i].samples = lp_sat_add (t->targets[i].samples, n);
	return;
      }
  t->targets = lp_grow (t->targets, &t->cap, t->num, sizeof *t->targets, 4);
  t->targets[t->num].name = callee;
  t->targets[t->num].samples = n;
  t->num++;
}

int
regions_add_call (struct probe_regions *regs, const struct probe_set *set,
		  uint64_t vaddr, const char *callee)
{
  /* A direct call there (objdump says so) called what it names.  */
  if (find_direct_call (regs, vaddr) != SIZE_MAX)
    return 0;
  size_t call = region_icall_probe (regs, set, vaddr);
  if (call == SIZE_MAX)
    return 0;
  count_target (regs, set, call, callee, 1);
  return 1;
}

/* The tail jumps of the function whose symbol is at FN: *N of them
   from index *FIRST (they are by address, a function's together).  */
static void
function_tail_jumps (const struct probe_regions *regs, uint64_t fn,
		     size_t *first, size_t *n)
{
  size_t lo = sorted_rank (regs->tail_jumps, regs->num_tail_jumps,
			   sizeof *regs->tail_jumps,
			   offsetof (struct tail_jump, addr), fn, 0);
  *first = lo;
  while (lo < regs->num_tail_jumps && regs->tail_jumps[lo].fn == fn)
    lo++;
  *n = lo - *first;
}

/* How many indirect tail jumps of the function at FN are in an indirect
   call probe's region; *PROBE is that probe of the last one.  */
static size_t
indirect_tail_sites (const struct probe_regions *regs,
		     const struct probe_set *set, uint64_t fn, size_t *probe)
{
  size_t first, n, sites = 0;
  function_tail_jumps (regs, fn, &first, &n);
  for (size_t i = first; i < first + n; i++)
    if (regs->tail_jumps[i].target == 0)
      {
	size_t p = region_icall_probe (regs, set, regs->tail_jumps[i].addr);
	if (p != SIZE_MAX)
	  {
	    sites++;
	    *probe = p;
	  }
      }
  return sites;
}

int
regions_add_tail_call (struct probe_regions *regs,
		       const struct probe_set *set, uint64_t vaddr,
		       const char *callee)
{
  size_t c = find_direct_call (regs, vaddr);
  if (c == SIZE_MAX)
    return 0;
  uint64_t fn = regs->calls[c].target;
  const char *name = regions_function_at (regs, set, fn);
  if (!name || strcmp (name, callee) == 0)
    return 0;			/* An ordinary call.  */

  /* A direct tail jump of FN to CALLEE, or to a function that may jump
     on to it, leaves the way CALLEE was reached open.  */
  size_t first, n, probe;
  function_tail_jumps (regs, fn, &first, &n);
  for (size_t i = first; i < first + n; i++)
    {
      uint64_t to = regs->tail_jumps[i].target;
      if (to == 0)
	continue;
      const char *to_name = regions_function_at (regs, set, to);
      if ((to_name && strcmp (to_name, callee) == 0)
	  || indirect_tail_sites (regs, set, to, &probe) > 0)
	return 0;
    }
  if (indirect_tail_sites (regs, set, fn, &probe) != 1)
    return 0;
  count_target (regs, set, probe, callee, 1);
  return 1;
}

int
regions_add_size (struct probe_regions *regs, uint64_t vaddr, uint64_t dx)
{
  size_t lo = sorted_rank (regs->memop_calls, regs->num_memop_calls,
			   sizeof *regs->memop_calls,
			   offsetof (struct memop_call, addr), vaddr, 0);
  /* The first call at or above VADDR: DX is its size if VADDR is in
     the call's window.  */
  if (lo == regs->num_memop_calls || regs->memop_calls[lo].window > vaddr
      || regs->memop_calls[lo].probe == SIZE_MAX)
    return 0;
  size_t p = regs->memop_calls[lo].probe;
  if (!regs->sizes)
    regs->sizes = xcalloc (regs->num_probes + 1, sizeof *regs->sizes);
  struct probe_sizes *ps = &regs->sizes[p];
  /* A call has a few sizes, or one sample per size: linear is enough.  */
  for (size_t i = 0; i < ps->num; i++)
    if (ps->sizes[i].size == dx)
      {
	ps->sizes[i].samples = lp_sat_add (ps->sizes[i].samples, 1);
	return 1;
      }
  ps->sizes = lp_grow (ps->sizes, &ps->cap, ps->num, sizeof *ps->sizes, 4);
  ps->sizes[ps->num].size = dx;
  ps->sizes[ps->num].samples = 1;
  ps->num++;
  return 1;
}

/* The conditional jump at VADDR, or NULL.  */
static struct cond_jump *
jump_at (struct probe_regions *regs, uint64_t vaddr)
{
  size_t lo = sorted_rank (regs->jumps, regs->num_jumps, sizeof *regs->jumps,
			   offsetof (struct cond_jump, addr), vaddr, 0);
  if (lo == regs->num_jumps || regs->jumps[lo].addr != vaddr)
    return NULL;
  return &regs->jumps[lo];
}

/* Count the way J went: TAKEN 1 or 0; -1 (unknown) counts nothing.
   Return 1 if counted.  */
static int
count_direction (struct cond_jump *j, int taken)
{
  if (!j || taken < 0)
    return 0;
  if (taken)
    j->taken++;
  else
    j->not_taken++;
  return 1;
}

int
regions_add_flags (struct probe_regions *regs, uint64_t vaddr,
		   uint64_t flags)
{
  struct cond_jump *j = jump_at (regs, vaddr);
  return count_direction (j, j ? jcc_taken (j->cond, flags) : -1);
}

int
regions_add_a64_regs (struct probe_regions *regs, uint64_t vaddr,
		      const struct a64_regs *x)
{
  struct cond_jump *j = jump_at (regs, vaddr);
  return count_direction (j, j ? a64_taken (j->cond, x) : -1);
}

/* Add V to the sorted set OUT of *N elements (up to MAX stored).  */
static void
add_sorted (uint32_t *out, size_t *n, size_t max, uint32_t v)
{
  size_t k = 0;
  while (k < *n && k < max && out[k] < v)
    k++;
  if (k < *n && k < max && out[k] == v)
    return;
  if (*n < max)
    {
      memmove (out + k + 1, out + k, (*n - k) * sizeof *out);
      out[k] = v;
    }
  (*n)++;
}

/* The probes of the region holding ADDR: *NUM of them from the
   returned pointer into SORTED_PROBES (0 outside the regions).  */
static const size_t *
probes_at (const struct probe_regions *regs, uint64_t addr, size_t *num)
{
  size_t r = find_region (regs, addr);
  *num = r == SIZE_MAX ? 0 : regs->regions[r].num_probes;
  return r == SIZE_MAX ? NULL
	 : regs->sorted_probes + regs->regions[r].first_probe;
}

size_t
regions_context_probes_at (const struct probe_regions *regs,
			   const struct probe_set *set, uint64_t addr,
			   uint32_t node, uint32_t *out, size_t max)
{
  size_t num, n = 0;
  const size_t *probes = probes_at (regs, addr, &num);
  for (size_t i = 0; i < num; i++)
    {
      const struct probe *pr = &set->probes[probes[i]];
      if (pr->node == node)
	{
	  add_sorted (out, &n, max, pr->index);
	  continue;
	}
      /* Inlined into NODE, at some depth?  */
      uint32_t m = pr->node;
      while (set->nodes[m].parent != PROBE_NO_NODE
	     && set->nodes[m].parent != node)
	m = set->nodes[m].parent;
      if (set->nodes[m].parent == node)
	add_sorted (out, &n, max, set->nodes[m].call_index);
    }
  return n;
}

size_t
regions_block_contexts_at (const struct probe_regions *regs,
			   const struct probe_set *set, uint64_t addr,
			   uint32_t *out, size_t max)
{
  size_t num, n = 0;
  const size_t *probes = probes_at (regs, addr, &num);
  for (size_t i = 0; i < num; i++)
    if (set->probes[probes[i]].type == PROBE_BLOCK)
      add_sorted (out, &n, max, set->probes[probes[i]].node);
  return n;
}

void
regions_add_leaf (struct probe_regions *regs, uint64_t vaddr)
{
  size_t r = find_region (regs, vaddr);
  if (r != SIZE_MAX)
    regs->regions[r].leaf_samples
      = lp_sat_add (regs->regions[r].leaf_samples, 1);
}

uint64_t
regions_probe_samples (const struct probe_regions *regs, size_t p)
{
  size_t r = regs->probe_region[p];
  if (r == SIZE_MAX)
    return 0;
  return lp_sat_add (regs->regions[r].samples,
		     regions_probe_branch_count (regs, p));
}

uint64_t
regions_probe_first_sample (const struct probe_regions *regs, size_t p)
{
  size_t r = regs->probe_region[p];
  return r == SIZE_MAX ? 0 : regs->regions[r].first_sample;
}

uint64_t
regions_probe_count (const struct probe_regions *regs, size_t p)
{
  uint64_t ip = regions_probe_ip_count (regs, p);
  if (!regs->branch_units)
    return ip;
  double scaled = ip * regs->ip_scale + 0.5;
  return lp_sat_add (regions_probe_branch_count (regs, p),
		     scaled >= 18446744073709551615.0 ? UINT64_MAX
		     : (uint64_t) scaled);
}

void
regions_add_range (struct probe_regions *regs, uint64_t start, uint64_t end,
		   uint64_t count, uint64_t seq)
{
  if (!regs->range_diff)
    regs->range_diff = xcalloc (regs->num_regions + 1,
				sizeof *regs->range_diff);
  regs->ranges++;
  /* llvm-profgen warns about ranges that do not start on an instruction
     or do not end on a branch (profile and binary mismatch): check
     the first part, where objdump saw the code.  */
  if (start >= regs->insn_lo && start < regs->insn_hi)
    {
      size_t i = sorted_rank (regs->insn_addrs, regs->num_insn_addrs,
			      sizeof *regs->insn_addrs, 0, start, 0);
      if (i == regs->num_insn_addrs || regs->insn_addrs[i] != start)
	regs->ranges_off_insns++;
    }
  /* The regions whose first instruction is in [START, END]: from the
     first starting at or after START to the last starting at or before
     END.  Counts wrap around in between; the prefix sums come out
     right.  */
  size_t lo = sorted_rank (regs->regions, regs->num_regions,
			   sizeof *regs->regions,
			   offsetof (struct probe_region, start), start, 0);
  size_t hi = sorted_rank (regs->regions, regs->num_regions,
			   sizeof *regs->regions,
			   offsetof (struct probe_region, start), end, 1);
  if (lo < hi)
    {
      regs->range_diff[lo] += count;
      regs->range_diff[hi] -= count;
    }
  size_t r = find_region (regs, start);
  if (r != SIZE_MAX && regs->regions[r].first_sample == 0)
    regs->regions[r].first_sample = seq;
  regs->ranges_finished = 0;
}

void
regions_finish_ranges (struct probe_regions *regs)
{
  if (!regs->range_diff || regs->ranges_finished)
    return;
  if (!regs->range_cover)
    regs->range_cover = xcalloc (regs->num_regions + 1,
				 sizeof *regs->range_cover);
  uint64_t run = 0;
  for (size_t i = 0; i <= regs->num_regions; i++)
    {
      run += regs->range_diff[i];
      regs->range_cover[i] = run;
    }
  regs->ranges_finished = 1;
}

int
regions_add_branch (struct probe_regions *regs, uint64_t from,
		    const struct probe_regions *to_regs, uint64_t to,
		    uint64_t count, uint64_t seq)
{
  size_t i = sorted_rank (regs->call_insns, regs->num_call_insns,
			  sizeof *regs->call_insns,
			  offsetof (struct call_insn, addr), from, 0);
  if (i == regs->num_call_insns || regs->call_insns[i].addr != from
      || regs->call_insns[i].probe == SIZE_MAX)
    return 0;
  const struct call_insn *c = &regs->call_insns[i];
  if (!regs->call_branches)
    regs->call_branches = xcalloc (regs->num_probes + 1,
				   sizeof *regs->call_branches);
  regs->call_branches[c->probe] = lp_sat_add (regs->call_branches[c->probe],
					      count);
  size_t r = regs->probe_region[c->probe];
  if (r != SIZE_MAX && regs->regions[r].first_sample == 0)
    regs->regions[r].first_sample = seq;
  /* The callee of an indirect call, when the record lands on the start
     of a function with probes.  */
  if (c->indirect && to_regs
      && regs->set->probes[c->probe].type == PROBE_INDIRECT_CALL)
    {
      const char *name = regions_function_at (to_regs, to_regs->set, to);
      size_t tr = find_region (to_regs, to);
      if (name && tr != SIZE_MAX && to_regs->regions[tr].start == to)
	count_target (regs, regs->set, c->probe, name, count);
    }
  return 1;
}

int
regions_in_prologue (const struct probe_regions *regs, uint64_t vaddr)
{
  size_t i = sorted_rank (regs->pro_epi, regs->num_pro_epi,
			  sizeof *regs->pro_epi, 0, vaddr, 0);
  return i < regs->num_pro_epi && regs->pro_epi[i] == vaddr;
}

uint64_t
regions_probe_branch_count (const struct probe_regions *regs, size_t p)
{
  size_t r = regs->probe_region[p];
  if (r == SIZE_MAX)
    return 0;
  if (regs->set->probes[p].type == PROBE_BLOCK)
    return regs->range_cover && regs->ranges_finished
	   ? regs->range_cover[r] : 0;
  return regs->call_branches ? regs->call_branches[p] : 0;
}

uint64_t
regions_probe_ip_count (const struct probe_regions *regs, size_t p)
{
  size_t r = regs->probe_region[p];
  if (r == SIZE_MAX)
    return 0;
  uint64_t s = regs->regions[r].samples;
  uint64_t n = regs->regions[r].insns ? regs->regions[r].insns : 1;
  /* round (100 * s / n), saturating.  */
  if (s > (UINT64_MAX - n / 2) / 100)
    return lp_sat_mul (s / n, 100);
  return (100 * s + n / 2) / n;
}
