/* Second file of profile-exclude-files.c and profile-filter-files.c.  */

__attribute__ ((noinline)) int
excluded_twice (int x)
{
  return 2 * x;
}
