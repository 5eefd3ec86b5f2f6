/* lib-main.c: calls lib-cov.c's lib_used.  */

extern int lib_used (int);

int
main (void)
{
  return lib_used (1) == 1 ? 0 : 1;
}
