/* Built by clang -fprofile-generate: its object brings compiler-rt's
   profile runtime into the module, which then writes the profile,
   latepgo's records and memop value nodes included.  */

int
crt_fn (int x)
{
  return x + 1;
}
