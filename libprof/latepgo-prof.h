/* latepgo-prof.h: the user API of the latepgo profile runtime.

   These are compiler-rt's functions (clang's <profile/instr_prof_interface.h>),
   so code written for clang's -fprofile-generate works unchanged.  In
   libprof they are weak and hidden: each module (executable or shared
   object) has its own runtime and a call acts on the module it is made
   from; if compiler-rt's runtime is linked into the same module, its
   strong definitions take over.  Declaring them is optional: a
   program can declare them itself, as clang users do.  */

#ifndef LATEPGO_PROF_H
#define LATEPGO_PROF_H

#ifdef __cplusplus
extern "C" {
#endif

/* Write the profile now to the current file (same rules as at exit:
   README).  Return 0, or -1 after printing an error.  Counts written
   here are not written again by a later write to the same file.  */
int __llvm_profile_write_file (void);

/* Write the profile now, then disable every later write, including the
   one at exit, until __llvm_profile_reset_counters.  Return as
   __llvm_profile_write_file.  */
int __llvm_profile_dump (void);

/* Zero the counters and re-enable writing after __llvm_profile_dump.  */
void __llvm_profile_reset_counters (void);

/* Use PATTERN (README: %p %h %t %m %Nm %%) as the profile file name;
   this overrides the environment and the build.  NULL restores
   "default.profraw".  PATTERN is copied.  */
void __llvm_profile_set_filename (const char *pattern);

/* Set the file name from the build and the environment again (the
   runtime does this at start-up).  */
void __llvm_profile_initialize_file (void);

/* Make sure the profile is written at exit (the runtime does this at
   start-up).  Return 0.  */
int __llvm_profile_register_write_file_atexit (void);

#ifdef __cplusplus
}
#endif

#endif /* LATEPGO_PROF_H */
