/* The program of oracle.exp's probe-cfg test: early function splitting
   (fnsplit) splits lookup into its test of k, which GCC may inline,
   and lookup.part.0, the rest; lookup runs 1000 times, the rest 667
   (k = -i for i a multiple of 3, but for i = 0).  */

static int table[256];

static int
slow_path (int k)
{
  int s = 0;
  for (int i = 0; i < 256; i++)
    s += table[i] * (k ^ i);
  table[k & 255] = s;
  return s;
}

int
lookup (int k)
{
  if (k < 0)
    return -1;
  int s = 0;
  for (int i = 0; i < 64; i++)
    s += table[(k + i) & 255] * i;
  if (s > 1000)
    s = slow_path (s) + table[k & 7];
  for (int i = 0; i < 64; i++)
    table[(s + i) & 255] ^= i;
  return s;
}

int
main (void)
{
  int t = 0;
  for (int i = 0; i < 1000; i++)
    t += lookup (i % 3 == 0 ? -i : i);
  return t == 12345;
}
