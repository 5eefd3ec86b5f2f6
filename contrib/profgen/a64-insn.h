/* a64-insn.h: what latepgo-profgen needs to know of an AArch64
   instruction as aarch64-linux-gnu-objdump -d --no-show-raw-insn
   prints it ("bl\t600 <run>", "cbz\tw0, 61c <f+0x1c>"), and which way
   a conditional branch goes from the registers of a sample.

   perf's user registers on AArch64 are x0-x29, lr (x30), sp and pc
   (perf record --user-regs=x0,x1,...; the kernel's perf_regs.h has no
   PSTATE), so the direction of a cbz, cbnz, tbz or tbnz comes from the
   register it tests, and that of a b.cond, which tests NZCV, from
   nothing perf records: it stays unknown.  A memop's size is its third
   argument, x2.  */

#ifndef LATEPGO_A64_INSN_H
#define LATEPGO_A64_INSN_H

#include <stddef.h>
#include <stdint.h>

/* The register that holds a memop call's size: x2.  */
#define A64_SIZE_REG 2

/* The general registers a sample may carry: x0-x30, by number; MASK
   bit N set when xN is known.  */
struct a64_regs
{
  uint32_t mask;
  uint64_t x[31];
};

/* The mnemonic of INSN (objdump's text, of any machine, after any
   prefixes), NUL-terminated in BUF of SIZE bytes; its operands at the
   returned pointer.  */
const char *objdump_mnemonic (const char *insn, char *buf, size_t size);

/* An unconditional branch or return (b, br, ret, and the traps brk,
   udf): what follows is reached only as a branch target.  */
int a64_is_jump (const char *insn);

/* A return (ret, retaa, retab).  */
int a64_is_ret (const char *insn);

/* Alignment padding: nop.  */
int a64_is_padding (const char *insn);

/* Any instruction that may leave the straight line: a branch, call,
   return, conditional branch, trap or system call.  */
int a64_is_control (const char *insn);

/* Whether INSN may change x2: an instruction whose first operand (the
   destination) is x2 or w2, a load pair whose second one is, or a
   call (x2 is not preserved across calls).  */
int a64_writes_x2 (const char *insn);

/* Call (bl, blr) or jump (b, br) of INSN: *CALL or *JUMP set, *TARGET
   the direct target (0 for an indirect one, whose *INDIRECT is set),
   and OPS pointing at the operands.  Return 0 if INSN is neither.  */
int a64_branch (const char *insn, int *call, int *jump, int *indirect,
		uint64_t *target, const char **ops);

/* The condition of the conditional branch INSN (b.cond, cbz, cbnz, tbz,
   tbnz) as a number for a64_taken, its target in *TARGET; -1 if INSN
   is none or has no direct target.  */
int a64_cond_branch (const char *insn, uint64_t *target);

/* Whether the conditional branch of condition COND (a64_cond_branch)
   is taken with the registers REGS: 1 or 0, or -1 when they do not
   say (a b.cond, or the register tested is not in REGS).  */
int a64_taken (int cond, const struct a64_regs *regs);

#endif /* LATEPGO_A64_INSN_H */
