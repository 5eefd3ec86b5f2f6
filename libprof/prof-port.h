/* prof-port.h: the only file of the runtime with compiler and platform
   conditionals: visibility and weak macros, printf checking, and the
   few libc functions whose availability differs between C libraries.
   The runtime targets ELF systems with GNU ld style __start_/__stop_
   section symbols and dl_iterate_phdr; see README.  */

#ifndef LATEPGO_PROF_PORT_H
#define LATEPGO_PROF_PORT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <string.h>

#if !defined (__GNUC__) || !defined (__ELF__)
#error "the latepgo runtime needs GNU C on an ELF target"
#endif

#if __SIZEOF_POINTER__ != 8
#error "the latepgo runtime writes 64-bit raw profiles only"
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* The writer stores host-order words; LLVM readers accept either byte
   order, but only little-endian has been tested.  */
#warning "latepgo runtime: untested on big-endian targets"
#endif

/* Everything in the runtime is private to the module (executable or
   shared object) it is linked into; -fvisibility=hidden covers
   definitions, LP_HIDDEN covers declarations of things defined
   elsewhere (linker-made section symbols, the plugin's ABI symbols).  */
#define LP_HIDDEN __attribute__ ((visibility ("hidden")))

/* A definition that yields to any strong definition of the same symbol
   in the module, i.e. to compiler-rt's runtime when it is linked too.  */
#define LP_WEAK_HIDDEN __attribute__ ((weak, visibility ("hidden")))

#define LP_PRINTF(FMT, ARGS) __attribute__ ((format (printf, FMT, ARGS)))
#define LP_UNUSED __attribute__ ((unused))
#define LP_UNLIKELY(X) __builtin_expect (!!(X), 0)

/* An error message without locale translation or allocation, usable in
   the exit, exec and fork paths.  glibc 2.32 has strerrordesc_np; other
   C libraries fall back to strerror.  */
static inline const char *
lp_strerror (int errnum)
{
#if defined (__GLIBC__) \
    && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  const char *s = strerrordesc_np (errnum);
  return s ? s : "Unknown error";
#else
  return strerror (errnum);
#endif
}

#endif /* LATEPGO_PROF_PORT_H */
