/* sample-text.c: libFuzzer harness for latepgo-profdata's reader of
   LLVM text sample profiles (contrib/profdata/sample-prof.c, merge
   --sample and show --sample).

   The input must be rejected with a message, or read without error;
   what was read is then written, and that text must read back and
   write the same text again; merging the profile with itself must
   write what reading it with weight 2 writes.  */

#define _GNU_SOURCE
#include "sample-prof.h"
#include "sample-mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  struct sp_profile p, q, two, sum;
  char err[256];
  size_t len1, len2, len3, len4;

  sp_profile_init (&p);
  if (sp_parse (&p, (const char *) data, size, 1, err, sizeof err) < 0)
    {
      if (!err[0])
	broken ("parse", "rejected without a message");
      sp_profile_free (&p);
      return 0;
    }
  char *t1 = write_mem (&p, &len1);
  sp_profile_init (&q);
  if (sp_parse (&q, t1, len1, 1, err, sizeof err) < 0)
    broken ("read back", err);
  char *t2 = write_mem (&q, &len2);
  if (len1 != len2 || memcmp (t1, t2, len1) != 0)
    broken ("read back", "writes another text");

  /* Read as merge --sample reads its inputs: into an arena.  */
  sp_profile_init_arena (&two);
  if (sp_parse (&two, (const char *) data, size, 2, err, sizeof err) < 0)
    broken ("weight 2", err);
  sp_profile_init (&sum);
  sp_merge (&sum, &p, "a");
  sp_merge (&sum, &q, "b");
  char *t3 = write_mem (&two, &len3);
  char *t4 = write_mem (&sum, &len4);
  if (len3 != len4 || memcmp (t3, t4, len3) != 0)
    broken ("merge", "twice the profile differs from weight 2");
  free (t1);
  free (t2);
  free (t3);
  free (t4);
  sp_profile_free (&p);
  sp_profile_free (&q);
  sp_profile_free (&two);
  sp_profile_free (&sum);
  return 0;
}
