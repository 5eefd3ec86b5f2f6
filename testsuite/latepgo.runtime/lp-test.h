/* lp-test.h: emit by hand, for a test program, what the latepgo plugin
   emits for instrumented functions (libprof/latepgo-abi.h), so that the
   runtime can be tested without the plugin and with known counts.

   LP_FUNCTION (fn, NAMEREF, HASH, N) defines u64 lp_fn[N] (the
   counters, TU-local, symbol __profc_fn, section __llvm_prf_cnts) and
   the 48-byte record __profd_fn in __llvm_prf_data whose CounterPtr is
   __profc_fn - __profd_fn and whose Values field is
   __latepgo_runtime - __profd_fn.  NAMEREF must be MD5LOW64 of the
   function's PGO name (doc/raw-format.md section 5).  LP_NAMES ("a\\001b")
   emits an uncompressed names chunk, LP_FNAME ("x") the build-time
   profile path.  The test "increments" counters itself:  lp_fn[i]++.  */

#ifndef LP_TEST_H
#define LP_TEST_H

/* The extra level expands macro arguments (LP_MD5_x) before # quotes.  */
#define LP_FUNCTION(FN, NAMEREF, HASH, N) LP_FUNCTION_1 (FN, NAMEREF, HASH, N)
#define LP_FUNCTION_1(FN, NAMEREF, HASH, N)				\
  static unsigned long long lp_##FN[N] __asm__ ("__profc_" #FN)	\
    __attribute__ ((section ("__llvm_prf_cnts"), aligned (8), used));	\
  __asm__ (".pushsection __llvm_prf_data,\"aw\",@progbits\n"		\
	   "\t.p2align 3\n"						\
	   "\t.type __profd_" #FN ", @object\n"				\
	   "__profd_" #FN ":\n"						\
	   "\t.quad " #NAMEREF "\n"					\
	   "\t.quad " #HASH "\n"					\
	   "\t.quad __profc_" #FN " - __profd_" #FN "\n"		\
	   "\t.quad 0\n"						\
	   "\t.quad __latepgo_runtime - __profd_" #FN "\n"		\
	   "\t.long " #N "\n"						\
	   "\t.short 0, 0\n"						\
	   "\t.size __profd_" #FN ", 48\n"				\
	   "\t.hidden __latepgo_runtime\n"				\
	   "\t.popsection");

#define LP_NAMES(NAMES)							\
  __asm__ (".pushsection __llvm_prf_names,\"a\",@progbits\n"		\
	   "\t.uleb128 2f - 1f\n"					\
	   "\t.uleb128 0\n"						\
	   "1:\t.ascii \"" NAMES "\"\n"					\
	   "2:\n"							\
	   "\t.popsection");

#define LP_FNAME(PATH)							\
  __asm__ (".pushsection __latepgo_prf_fname,\"a\",@progbits\n"	\
	   "\t.asciz \"" PATH "\"\n"					\
	   "\t.popsection");

/* MD5LOW64 of names used by the tests.  */
#define LP_MD5_main 0xdb956436e78dd5fa
#define LP_MD5_foo 0x5cf8c24cdb18bdac
#define LP_MD5_bar 0xe413754a191db537
#define LP_MD5_inl 0xbfa9788d026c52a3
#define LP_MD5_lib_fn 0x630ee69c57860071

/* Declarations of the runtime entry points the plugin calls and of
   compiler-rt's API, as user code writes them.  */
extern void __latepgo_before_exec (void)
  __attribute__ ((visibility ("hidden")));
int __llvm_profile_write_file (void);
int __llvm_profile_dump (void);
void __llvm_profile_reset_counters (void);
void __llvm_profile_set_filename (const char *);

#endif /* LP_TEST_H */
