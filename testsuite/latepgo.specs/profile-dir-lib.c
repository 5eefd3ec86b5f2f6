/* The shared library of profile-dir.exp: a loop run N times.  */

int
lib_work (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += (i % 3 == 0) ? i : 1;
  return s;
}
