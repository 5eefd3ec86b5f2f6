/* An indirect call's first three target nodes are tested and counted
   inline (values.cc, inline_first_targets): a site whose calls go round
   three targets calls the runtime only to add each target to its list,
   three times in all, and each target keeps its exact count.  With two
   nodes inline, every call of the third target went to the runtime.
   The runtime's helper is wrapped by the linker to count its calls.  */
/* { dg-do run } */
/* { dg-options "-O2 -Wl,--wrap=__latepgo_icall_target" } */

struct latepgo_value_node;
void __real___latepgo_icall_target (void *, struct latepgo_value_node **);

static int helper_calls;

void
__wrap___latepgo_icall_target (void *target, struct latepgo_value_node **site)
{
  helper_calls++;
  __real___latepgo_icall_target (target, site);
}

typedef int (*fn_t) (int);
__attribute__ ((noinline)) int t0 (int x) { return x + 0; }
__attribute__ ((noinline)) int t1 (int x) { return x + 1; }
__attribute__ ((noinline)) int t2 (int x) { return x + 2; }

fn_t volatile table[3] = { t0, t1, t2 };
volatile int sink;

__attribute__ ((noinline)) void
call (int i)
{
  sink += table[i] (i);
}

int
main (void)
{
  for (int k = 0; k < 100; k++)
    {
      call (0);
      call (1);
      call (2);
    }
  call (0);
  call (0);
  call (1);
  return helper_calls == 3 ? 0 : 1;
}

/* { dg-final { latepgo-ic-targets "call" {0:t0:102 0:t1:101 0:t2:100} } } */
