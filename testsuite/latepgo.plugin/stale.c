/* Used by plugin.exp: trained as is, then rebuilt with -DCHANGED, which
   changes the control flow of changed () only.  */
volatile int sink;

__attribute__ ((noinline)) void
changed (int x)
{
  if (x > 3)
    sink = x;
#ifdef CHANGED
  else if (x == 1)
    sink = -1;
#endif
}

__attribute__ ((noinline)) void
stable (int x)
{
  if (x & 1)
    sink = x;
}


__attribute__ ((noinline)) void
never_run (int x)
{
  for (int i = 0; i < x; i++)
    sink = i;
}

__attribute__ ((noinline)) void
hot (int n)
{
  for (int i = 0; i < n; i++)
    sink += i;
}

int
main (int argc, char **argv)
{
  for (int i = 0; i < 10; i++)
    {
      changed (i);
      stable (i);
    }
  hot (1000000);
  if (argc > 5)
    never_run (argc);
  return 0;
}
