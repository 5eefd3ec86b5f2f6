/* What an object of latepgo before memop value data does at a memop
   (memop.exp: older-object-refused): it calls __latepgo_memop_profile
   with the site's 22 size counters.  */

extern void __latepgo_memop_profile (unsigned long long *, unsigned long long);

unsigned long long counters[22];

int
main (int argc, char **argv)
{
  (void) argv;
  __latepgo_memop_profile (counters, (unsigned long long) argc);
  return 0;
}
