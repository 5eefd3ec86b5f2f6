/* exit-trap.h: run code that reports bad input by exiting
   (lp_fatal), as latepgo-profgen's decoders do, and come back.  The
   harness is linked with -Wl,--wrap=exit: an exit inside
   EXIT_TRAP_RUN returns there instead; any other exit (libFuzzer's
   own) is the real one.  What the code allocated (-Wl,--wrap= malloc,
   calloc, realloc, free) or opened (fopen, fclose) and still held
   when it exited is freed and closed; what libc allocated for it
   (getline's buffer) leaks, so these harnesses run with leak
   detection off.  */

#ifndef LATEPGO_EXIT_TRAP_H
#define LATEPGO_EXIT_TRAP_H

#include <setjmp.h>

extern jmp_buf exit_trap_env;
extern int exit_trap_armed;

/* Run STMT; evaluate to 1 if it exited, 0 if it returned.  */
#define EXIT_TRAP_RUN(STMT)						\
  (setjmp (exit_trap_env)						\
   ? (exit_trap_armed = 0, exit_trap_release (), 1)			\
   : (exit_trap_armed = 1, (STMT), exit_trap_armed = 0,		\
      exit_trap_forget (), 0))

/* Free and close what the trapped code held when it exited.  */
void exit_trap_release (void);

/* Stop tracking what the trapped code allocated: it returned, and
   what it handed back is the caller's.  */
void exit_trap_forget (void);

/* Turn off leak detection (see above); call from
   LLVMFuzzerInitialize.  */
void exit_trap_no_leak_check (int *argc, char ***argv);

#endif /* LATEPGO_EXIT_TRAP_H */
