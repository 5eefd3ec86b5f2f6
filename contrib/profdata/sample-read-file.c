/* sample-read-file.c: read a sample profile file in either format, text
   (sample-prof.c) or extensible binary (sample-ext-load.c): the one
   place that knows both, so that neither reader calls the other.  */

#include "sample-prof.h"
#include "sample-ext.h"
#include "tool-util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
sp_read_file (struct sp_profile *p, const char *path, uint64_t weight,
	      char *err, size_t errlen)
{
  /* read(2) into a buffer of the file's size: no stdio copy (a merge
     of many profiles reads little but these bytes).  */
  int fd = open (path, O_RDONLY);
  char *buf = NULL;
  size_t len = 0, cap;
  ssize_t n;
  struct stat st;

  if (fd < 0)
    {
      snprintf (err, errlen, "%s", strerror (errno));
      return -1;
    }
  cap = fstat (fd, &st) == 0 && st.st_size > 0 ? (size_t) st.st_size + 1
						: 65536;
  buf = xmalloc (cap);
  do
    {
      if (len == cap)
	buf = xrealloc (buf, cap *= 2);
      n = read (fd, buf + len, cap - len);
      if (n > 0)
	len += n;
    }
  while (n > 0 || (n < 0 && errno == EINTR));
  int bad = n < 0 ? errno : 0;
  close (fd);
  if (bad)
    {
      snprintf (err, errlen, "read error: %s", strerror (bad));
      free (buf);
      return -1;
    }
  int r;
  if (lp_sx_is_ext ((const unsigned char *) buf, len))
    {
      sp_use_arena (p);
      r = sp_load_ext (p, (const unsigned char *) buf, len, weight, err,
		       errlen);
      sp_use_arena (NULL);
    }
  else
    r = sp_parse (p, buf ? buf : "", len, weight, err, errlen);
  free (buf);
  return r;
}
