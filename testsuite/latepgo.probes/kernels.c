/* The program of probes.exp: a loop GCC vectorizes at -O3, a function
   GCC inlines late (called once), a call that stays a call, a switch,
   and a function GCC clones (scale_sum, its constant argument
   propagated) with a callee inlined late into the clone.  Prints a
   checksum.  */
#include <stdio.h>

#define N 1024
float a[N], b[N];
volatile int sink;

__attribute__ ((noinline)) float
dot (void)
{
  float s = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * b[i];
  return s;
}

__attribute__ ((noinline)) void
saxpy (float k)
{
  for (int i = 0; i < N; i++)
    a[i] = k * b[i] + a[i];
}

static int
classify_all (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    switch (i % 5)
      {
      case 0: s += 3; break;
      case 1: s -= sink; break;
      case 3: s ^= i; break;
      default: s++;
      }
  return s;
}

static int
sum_once (const float *v, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += (int) v[i] * (i & 3) + ((int) v[i] >> 2);
  return s;
}

__attribute__ ((noinline)) static int
scale_sum (const float *v, int n, int k)
{
  return k * sum_once (v, n);
}

int
main (int argc, char **argv)
{
  for (int i = 0; i < N; i++)
    {
      a[i] = i * 0.5f;
      b[i] = (N - i) * 0.25f;
    }
  saxpy (2.0f);
  int c = classify_all (argc * 1000);
  c += scale_sum (b, argc * 64, 3);
  printf ("%d %d\n", (int) dot (), c);
  return 0;
}
