/* a64-insn.c: AArch64 instructions as objdump prints them, and the
   direction of a conditional branch from a sample's registers
   (a64-insn.h).  */

#include "a64-insn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *
objdump_mnemonic (const char *insn, char *buf, size_t size)
{
  size_t n = strcspn (insn, " \t\n");
  if (n >= size)
    n = size - 1;
  memcpy (buf, insn, n);
  buf[n] = 0;
  insn += strcspn (insn, " \t\n");
  return insn + strspn (insn, " \t");
}

/* Whether MN is one of the NUL-terminated list WORDS.  */
static int
one_of (const char *mn, const char *const *words)
{
  for (; *words; words++)
    if (strcmp (mn, *words) == 0)
      return 1;
  return 0;
}

int
a64_is_jump (const char *insn)
{
  static const char *const words[] = { "b", "br", "ret", "retaa", "retab",
				       "braa", "brab", "braaz", "brabz",
				       "brk", "udf", NULL };
  char mn[16];
  objdump_mnemonic (insn, mn, sizeof mn);
  return one_of (mn, words);
}

int
a64_is_ret (const char *insn)
{
  static const char *const words[] = { "ret", "retaa", "retab", NULL };
  char mn[16];
  objdump_mnemonic (insn, mn, sizeof mn);
  return one_of (mn, words);
}

int
a64_is_padding (const char *insn)
{
  char mn[16];
  objdump_mnemonic (insn, mn, sizeof mn);
  return strcmp (mn, "nop") == 0;
}

int
a64_is_control (const char *insn)
{
  static const char *const words[] = { "bl", "blr", "blraa", "blrab",
				       "blraaz", "blrabz", "cbz", "cbnz",
				       "tbz", "tbnz", "svc", "hvc", "smc",
				       "eret", "hlt", NULL };
  char mn[16];
  objdump_mnemonic (insn, mn, sizeof mn);
  return (a64_is_jump (insn) || one_of (mn, words)
	  || strncmp (mn, "b.", 2) == 0);
}

/* Whether the operand at OP (up to a comma or the end) is x2 or w2.  */
static int
is_reg2 (const char *op)
{
  return ((op[0] == 'x' || op[0] == 'w') && op[1] == '2'
	  && (op[2] == 0 || op[2] == ',' || op[2] == ' ' || op[2] == '\n'));
}

int
a64_writes_x2 (const char *insn)
{
  char mn[16];
  const char *ops = objdump_mnemonic (insn, mn, sizeof mn);
  /* Calls clobber the argument registers.  */
  if (strncmp (mn, "bl", 2) == 0)
    return 1;
  /* These read their first operand.  */
  static const char *const readers[] = { "cmp", "cmn", "tst", "ccmp", "ccmn",
					 "cbz", "cbnz", "tbz", "tbnz", "br",
					 "blr", "ret", "prfm", NULL };
  if (one_of (mn, readers) || strncmp (mn, "st", 2) == 0)
    return 0;
  if (is_reg2 (ops))
    return 1;
  /* A load pair writes its second operand too.  */
  if (strncmp (mn, "ldp", 3) == 0 || strncmp (mn, "ldnp", 4) == 0
      || strncmp (mn, "ldxp", 4) == 0 || strncmp (mn, "ldaxp", 5) == 0)
    {
      const char *comma = strchr (ops, ',');
      if (comma && is_reg2 (comma + 1 + strspn (comma + 1, " ")))
	return 1;
    }
  return 0;
}

/* The hexadecimal address at OPS ("600 <run>"), or 0.  */
static uint64_t
direct_target (const char *ops)
{
  char *end;
  errno = 0;
  uint64_t t = strtoull (ops, &end, 16);
  if (end == ops || errno || (*end && *end != ' ' && *end != '\n'))
    return 0;
  return t;
}

int
a64_branch (const char *insn, int *call, int *jump, int *indirect,
	    uint64_t *target, const char **ops)
{
  char mn[16];
  *ops = objdump_mnemonic (insn, mn, sizeof mn);
  *call = strcmp (mn, "bl") == 0 || strncmp (mn, "blr", 3) == 0;
  *jump = strcmp (mn, "b") == 0 || (strncmp (mn, "br", 2) == 0
				    && strcmp (mn, "brk") != 0);
  if (!*call && !*jump)
    return 0;
  *indirect = strcmp (mn, "bl") != 0 && strcmp (mn, "b") != 0;
  *target = *indirect ? 0 : direct_target (*ops);
  return 1;
}

/* The condition codes of b.cond by their number in the encoding.  */
static const char *const conds[16] = { "eq", "ne", "cs", "cc", "mi", "pl",
				       "vs", "vc", "hi", "ls", "ge", "lt",
				       "gt", "le", "al", "nv" };

/* The kinds of condition, above the 16 codes of b.cond.  */
enum { K_BCOND, K_CBZ, K_CBNZ, K_TBZ, K_TBNZ };

/* A condition number: KIND, then the register tested, its width (W,
   1 for a w register) and the bit a tbz or tbnz tests.  */
static int
encode (int kind, int reg, int w, int bit)
{
  return kind << 16 | bit << 8 | w << 7 | reg;
}

/* The register number of the operand at OP ("w0", "x13", "xzr"), its
   width in *W; -1 if OP is none.  */
static int
reg_operand (const char *op, int *w)
{
  if (op[0] != 'x' && op[0] != 'w')
    return -1;
  *w = op[0] == 'w';
  if (strncmp (op + 1, "zr", 2) == 0)
    return 31;
  char *end;
  long n = strtol (op + 1, &end, 10);
  if (end == op + 1 || n < 0 || n > 30 || *end != ',')
    return -1;
  return (int) n;
}

int
a64_cond_branch (const char *insn, uint64_t *target)
{
  char mn[16];
  const char *ops = objdump_mnemonic (insn, mn, sizeof mn);
  if (strncmp (mn, "b.", 2) == 0)
    {
      for (int c = 0; c < 16; c++)
	if (strcmp (mn + 2, conds[c]) == 0)
	  {
	    *target = direct_target (ops);
	    return *target ? encode (K_BCOND, 0, 0, 0) | c : -1;
	  }
      /* The aliases hs and lo.  */
      if (strcmp (mn + 2, "hs") == 0 || strcmp (mn + 2, "lo") == 0)
	{
	  *target = direct_target (ops);
	  return *target ? encode (K_BCOND, 0, 0, 0) | (mn[2] == 'h' ? 2 : 3)
			 : -1;
	}
      return -1;
    }
  int kind = (strcmp (mn, "cbz") == 0 ? K_CBZ : strcmp (mn, "cbnz") == 0
	      ? K_CBNZ : strcmp (mn, "tbz") == 0 ? K_TBZ
	      : strcmp (mn, "tbnz") == 0 ? K_TBNZ : -1);
  if (kind < 0)
    return -1;
  int w, reg = reg_operand (ops, &w), bit = 0;
  if (reg < 0)
    return -1;
  ops = strchr (ops, ',') + 1;
  ops += strspn (ops, " ");
  if (kind == K_TBZ || kind == K_TBNZ)
    {
      /* "tbz\tw0, #3, 61c <f+0x1c>".  */
      char *end;
      if (*ops != '#')
	return -1;
      long b = strtol (ops + 1, &end, 10);
      if (end == ops + 1 || b < 0 || b > 63 || *end != ',')
	return -1;
      bit = (int) b;
      ops = end + 1 + strspn (end + 1, " ");
    }
  *target = direct_target (ops);
  return *target ? encode (kind, reg, w, bit) : -1;
}

int
a64_taken (int cond, const struct a64_regs *regs)
{
  int kind = cond >> 16, reg = cond & 31, w = (cond >> 7) & 1;
  int bit = (cond >> 8) & 63;
  if (kind == K_BCOND)
    return -1;
  uint64_t v = 0;
  if (reg != 31)
    {
      if (!(regs->mask & (UINT32_C (1) << reg)))
	return -1;
      v = regs->x[reg];
    }
  if (w)
    v &= UINT32_C (0xffffffff);
  switch (kind)
    {
    case K_CBZ: return v == 0;
    case K_CBNZ: return v != 0;
    case K_TBZ: return !((v >> bit) & 1);
    default: return (v >> bit) & 1;
    }
}
