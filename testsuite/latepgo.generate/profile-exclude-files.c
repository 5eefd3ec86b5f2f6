/* GCC's -fprofile-exclude-files: functions of matching source files
   are not instrumented (tree-profile.cc's rule: the file the function
   is defined in, POSIX extended regular expressions separated by
   ';').  */
/* { dg-do run } */
/* { dg-options "-O2 -fprofile-exclude-files=nomatch;excluded-b\\.c$" } */
/* { dg-additional-sources "helpers/excluded-b.c" } */

int excluded_twice (int);

static __attribute__ ((noinline)) int
kept (int x)
{
  return x + 1;
}

int
main (void)
{
  int t = 0;
  for (int i = 0; i < 3; i++)
    t += kept (i) + excluded_twice (i);
  return t == 6 + 6 ? 0 : 1;
}

/* { dg-final { latepgo-profile-has "main" } } */
/* { dg-final { latepgo-entry-count "profile-exclude-files.c:kept" 3 } } */
/* { dg-final { latepgo-profile-lacks "excluded_twice" } } */
/* { dg-final { scan-latepgo-dump-not "^function excluded_twice " } } */
