/* read-file.cc: a profile file read whole into memory, for the
   indexed profile (profile-read.cc) and the sample profile
   (sample-read.cc): the same checks and messages, which name the
   kind of profile.  */

#include "gcc-common.h"
#include "read-file.h"

/* Read the regular file PATH, a KIND ("profile", "sample profile"),
   into a new buffer with a NUL after its *SIZE bytes.  Returns NULL
   after reporting an error.  */

unsigned char *
lp_read_file (const char *path, const char *kind, size_t *size)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    {
      error ("latepgo: cannot open %s %qs: %m", kind, path);
      return NULL;
    }
  struct stat st;
  if (fstat (fileno (f), &st) != 0 || !S_ISREG (st.st_mode))
    {
      error ("latepgo: %s %qs is not a regular file", kind, path);
      fclose (f);
      return NULL;
    }
  *size = st.st_size;
  unsigned char *buf = XNEWVEC (unsigned char, *size + 1);
  if (fread (buf, 1, *size, f) != *size)
    {
      error ("latepgo: cannot read %s %qs: %m", kind, path);
      fclose (f);
      XDELETEVEC (buf);
      return NULL;
    }
  fclose (f);
  buf[*size] = 0;
  return buf;
}
