/* sample-mem.h: what the sample profile harnesses (sample-text.c,
   sample-ext.c) share: their report of a broken promise, and a profile
   written as text to memory.  */

#ifndef LATEPGO_FUZZ_SAMPLE_MEM_H
#define LATEPGO_FUZZ_SAMPLE_MEM_H

#include "sample-prof.h"

#include <stdio.h>
#include <stdlib.h>

static void __attribute__ ((noreturn, unused))
broken (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz: %s: %s\n", what, detail);
  abort ();
}

/* P written to a new malloc'ed string, its length in *LEN.  */
static char * __attribute__ ((unused))
write_mem (struct sp_profile *p, size_t *len)
{
  char *buf = NULL;
  FILE *f = open_memstream (&buf, len);
  if (!f || sp_write (p, f) < 0 || fclose (f) != 0)
    broken ("write", "cannot write to memory");
  return buf;
}

#endif /* LATEPGO_FUZZ_SAMPLE_MEM_H */
