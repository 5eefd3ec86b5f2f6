/* __llvm_profile_write_file writes the counts so far; the exit write
   to the same file adds only what was counted since, so nothing counts
   twice: after the call the file holds main [3] (copied to
   after-write.profraw), at exit main [5].  */

#include <fcntl.h>
#include <unistd.h>
#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_NAMES ("main")

static int
copy_file (const char *from, const char *to)
{
  char buf[4096];
  ssize_t n;
  int in = open (from, O_RDONLY);
  int out = open (to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0)
    return -1;
  while ((n = read (in, buf, sizeof buf)) > 0)
    if (write (out, buf, n) != n)
      return -1;
  close (in);
  close (out);
  return 0;
}

int
main (void)
{
  lp_main[0] += 3;
  if (__llvm_profile_write_file () != 0)
    return 2;
  if (copy_file ("default.profraw", "after-write.profraw") != 0)
    return 3;
  lp_main[0] += 2;
  return 0;
}
