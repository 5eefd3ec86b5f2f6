/* pin-counts.c: known edge counts for the pinned profiles (pin.exp).
   main calls classify 10 times (i = 0..9); classify takes its "odd"
   branch 5 times and its "even" branch 5 times, and sum_to loops
   i times for each odd i (1 + 3 + 5 + 7 + 9 = 25 iterations).  The
   static function gives the profile a "FILE:NAME" name.  */

__attribute__ ((noinline)) static int
sum_to (int n)
{
  int s = 0;
  for (int k = 0; k < n; k++)
    s += k;
  return s;
}

__attribute__ ((noinline)) int
classify (int i)
{
  if (i & 1)
    return sum_to (i);
  return -i;
}

int
main (void)
{
  int total = 0;
  for (int i = 0; i < 10; i++)
    total += classify (i);
  /* 0+1+3+6+10 ... : sum_to(1)=0, (3)=3, (5)=10, (7)=21, (9)=36 -> 70;
     the evens give -(0+2+4+6+8) = -20.  */
  return total == 50 ? 0 : 1;
}
