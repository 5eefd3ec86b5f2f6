/* Compiled by clang -fprofile-generate for the compiler-rt test
   (crt-main.c): crt_fn is called 6 times.  */

int
crt_fn (int x)
{
  return x > 2 ? x * 3 : x + 1;
}
