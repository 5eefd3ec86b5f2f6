/* other.c: a file built without coverage, for a module that mixes
   the kinds of counters.  */

int
other (int x)
{
  return x + 1;
}
