/* jcc-flags.h: which way an x86 conditional jump goes, from the flags
   register.

   A cpu-clock sample interrupts the program before the instruction at
   its IP runs.  When that instruction is a conditional jump (jCC),
   the flags it tests are already set, so the flags register of the
   sample (perf record --user-regs=flags) says whether it jumps: one
   observation of the branch's direction per such sample, with no LBR.
   jrcxz and loop test RCX, not the flags, and are not handled.  */

#ifndef LATEPGO_JCC_FLAGS_H
#define LATEPGO_JCC_FLAGS_H

#include <stdint.h>

/* The condition of the jCC mnemonic MN as objdump prints it (AT&T:
   "je", "jne", "jg", ...; a ",pt" or ",pn" hint suffix is allowed),
   as an x86 condition code 0..15 (the low nibble of the opcode), or
   -1 if MN is no such jump.  */
int jcc_condition (const char *mn);

/* Whether a jump on condition code COND is taken with FLAGS.  */
int jcc_taken (int cond, uint64_t flags);

#endif /* LATEPGO_JCC_FLAGS_H */
