/* jcc-flags.c: x86 jump conditions from the flags register
   (jcc-flags.h).  */

#include "jcc-flags.h"

#include <string.h>

/* The mnemonics by condition code (Intel SDM Vol. 2, Jcc), as GNU
   objdump prints them, then the aliases other disassemblers use.  */
static const struct
{
  const char *name;
  int cond;
} jccs[] = {
  { "jo", 0 }, { "jno", 1 }, { "jb", 2 }, { "jae", 3 }, { "je", 4 },
  { "jne", 5 }, { "jbe", 6 }, { "ja", 7 }, { "js", 8 }, { "jns", 9 },
  { "jp", 10 }, { "jnp", 11 }, { "jl", 12 }, { "jge", 13 }, { "jle", 14 },
  { "jg", 15 },
  { "jc", 2 }, { "jnae", 2 }, { "jnc", 3 }, { "jnb", 3 }, { "jz", 4 },
  { "jnz", 5 }, { "jna", 6 }, { "jnbe", 7 }, { "jpe", 10 }, { "jpo", 11 },
  { "jnge", 12 }, { "jnl", 13 }, { "jng", 14 }, { "jnle", 15 },
};

int
jcc_condition (const char *mn)
{
  size_t n = strcspn (mn, ",");
  if (mn[n] && strcmp (mn + n, ",pt") != 0 && strcmp (mn + n, ",pn") != 0)
    return -1;
  for (size_t i = 0; i < sizeof jccs / sizeof jccs[0]; i++)
    if (strlen (jccs[i].name) == n && strncmp (mn, jccs[i].name, n) == 0)
      return jccs[i].cond;
  return -1;
}

int
jcc_taken (int cond, uint64_t flags)
{
  int cf = flags & 1, pf = (flags >> 2) & 1, zf = (flags >> 6) & 1;
  int sf = (flags >> 7) & 1, of = (flags >> 11) & 1;
  int t;
  /* An odd code is the negation of the even one below it.  */
  switch (cond >> 1)
    {
    case 0: t = of; break;
    case 1: t = cf; break;
    case 2: t = zf; break;
    case 3: t = cf || zf; break;
    case 4: t = sf; break;
    case 5: t = pf; break;
    case 6: t = sf != of; break;
    default: t = zf || sf != of; break;
    }
  return (cond & 1) ? !t : t;
}
