/* broken.h: how a harness reports that a reader broke its promise:
   the message on stderr, then abort (), which libFuzzer records as a
   finding with the input that caused it.  */

#ifndef LATEPGO_FUZZ_BROKEN_H
#define LATEPGO_FUZZ_BROKEN_H

#include <stdio.h>
#include <stdlib.h>

static void __attribute__ ((noreturn, unused))
broken (const char *what)
{
  fprintf (stderr, "fuzz: %s\n", what);
  abort ();
}

#endif /* LATEPGO_FUZZ_BROKEN_H */
