/* warnopts.c: a unit for the warning-option tests (warnopts.exp).  */

int
main (void)
{
  return 0;
}
