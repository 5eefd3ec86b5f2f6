/* GCC's -fprofile-filter-files: only functions of matching source
   files are instrumented.  */
/* { dg-do run } */
/* { dg-options "-O2 -fprofile-filter-files=excluded-b\\.c$" } */
/* { dg-additional-sources "helpers/excluded-b.c" } */

/* The program of profile-exclude-files.c on purpose: the two filters
   must select opposite halves of the same code.  */
int excluded_twice (int);

static __attribute__ ((noinline)) int
not_kept (int x)
{
  return x + 1;
}

int
main (void)
{
  int t = 0;
  for (int i = 0; i < 3; i++)
    t += not_kept (i) + excluded_twice (i);
  return t == 6 + 6 ? 0 : 1;
}

/* { dg-final { latepgo-profile-has "excluded_twice" } } */
/* { dg-final { latepgo-profile-lacks "main" } } */
/* { dg-final { scan-latepgo-dump-not "^function \[^ \]*not_kept " } } */
