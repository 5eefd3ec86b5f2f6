/* OpenMP outlined bodies are functions of their own; with atomic
   updates their counts are exact whatever the threads do.  */
/* { dg-do run } */
/* { dg-options "-O2 -fopenmp -fplugin-arg-latepgo-update=atomic" } */
/* { dg-run-env "OMP_NUM_THREADS=4" } */

volatile int sink;

int
main (void)
{
  long s = 0;
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < 100000; i++)
    if (i % 10 == 0)
      s += i;				/* count(10000) */
  sink = s;
  return s == 499950000 ? 0 : 1;
}

/* { dg-final { scan-latepgo-dump "^function \[^ \]*counts-openmp.c:main._omp_fn.0 " } } */
/* { dg-final { latepgo-use-counts } } */
