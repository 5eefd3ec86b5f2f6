/* The program of profgen.exp's icall-targets test: main calls through
   a function pointer, picked from a table by the loop counter so that
   GCC cannot devirtualize the call, either hot_fn (9 times out of 10)
   or cold_fn (once in 10).  Both do the same work, enough that most
   samples fall inside them, with main's call site as their caller.
   With -DICALL_TAIL, dispatch makes the call as its last act, which
   GCC turns into a tail jump: the callees' caller frame is then main's
   call of dispatch.  With -DCOLD_STEPS=400, a call of cold_fn takes
   ten times as long as one of hot_fn, so that cold_fn gets more
   samples than hot_fn though called a ninth as often.  Runs about half
   a second; prints a checksum.  */
#include <stdio.h>
#include <stdlib.h>

#ifndef ICALL_N
#define ICALL_N 10000000
#endif

/* Dependent multiply-adds: time spent in the callee's own code.  */
#define STEP(v, k) ((v) = (v) * (k) + ((v) >> 15))

/* Each starts with steps outside its loop: code in its entry block,
   whose samples estimate its calls.  */
__attribute__ ((noinline)) unsigned
hot_fn (unsigned x)
{
  STEP (x, 3u);
  STEP (x, 5u);
  for (int i = 0; i < 40; i++)
    STEP (x, 1103515245u);
  return x;
}

#ifndef COLD_STEPS
#define COLD_STEPS 40
#endif

__attribute__ ((noinline)) unsigned
cold_fn (unsigned x)
{
  STEP (x, 3u);
  STEP (x, 5u);
  for (int i = 0; i < COLD_STEPS; i++)
    STEP (x, 69069u);
  return x;
}

typedef unsigned (*fn_t) (unsigned);

/* Volatile: GCC must load the pointer at each call.  */
static fn_t volatile table[10] = {
  hot_fn, hot_fn, hot_fn, hot_fn, hot_fn,
  hot_fn, hot_fn, hot_fn, hot_fn, cold_fn
};

#ifdef ICALL_TAIL
/* F arrives in a register: loaded from memory right before the jump,
   the x86 peephole that folds the load into "jmp *MEM" would delete
   the call probe's marker with it.  */
__attribute__ ((noinline)) unsigned
dispatch (fn_t f, unsigned x)
{
  return f (x);
}
#define CALL(x, i) dispatch (table[(i) % 10], (x))
#else
#define CALL(x, i) table[(i) % 10] (x)
#endif

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : ICALL_N;
  unsigned x = 1;
  for (unsigned i = 0; i < n; i++)
    x = CALL (x, i) + i;
  printf ("%u\n", x);
  return 0;
}
