/* The training version and its edits (salvage.exp): each EDIT_* macro
   is one kind of change to the source between training and use.  The
   counts are known: main calls score 1000 times, score's loop runs
   i times for i = 0..999.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink, stop;

__attribute__ ((noinline)) void
note (int v)
{
  sink += v;
}

__attribute__ ((noinline)) void
rare (int v)
{
  sink -= v;
}

/* Never called by the training version.  */
__attribute__ ((noinline)) void
helper (int v)
{
  sink ^= v;
}

/* Value sites of score: an indirect call whose targets are this file's
   functions, and a memcpy of a varying size.  */
typedef void (*op_fn) (int);
static op_fn ops[2] = { note, rare };
static const char text[] = "salvaged value profiles";

#ifdef EDIT_REWRITE
/* Rewritten whole: nothing left to match.  */
__attribute__ ((noinline)) int
score (int n)
{
  switch (n & 3)
    {
    case 0:
      return n * 3;
    case 1:
      return n ^ 0x55;
    default:
      return -n;
    }
}
#else
__attribute__ ((noinline)) int
score (int n)
{
  int s = 0;
#ifdef EDIT_INSERT
  /* Inserted statements: a check that never fires.  */
  if (n < 0)
    {
      rare (n);
      return -1;
    }
#endif
  for (int i = 0; i < n % 50; i++)
    {
#ifdef EDIT_NEWCALL
      /* A call to a function that never ran in training, now made
	 24500 times, and a new exit from the loop.  */
      helper (i);			/* new */
      if (stop)				/* new */
	break;				/* new */
#endif
#ifdef EDIT_REORDER
      /* The same branch with its arms swapped.  */
      if (i % 7 != 0)
	s -= 1;
      else
	{
	  s += i;
	  note (i);
	}
#else
      if (i % 7 == 0)
	{
	  s += i;
	  note (i);
	}
      else
	s -= 1;
#endif
    }
#ifdef EDIT_LOOP
  /* A new loop: the old profile cannot know how often it runs (the
     lines marked new are not compared).  */
  for (int j = 0; j < n % 3; j++)	/* new */
    s ^= j;				/* new */
#endif
#ifndef EDIT_DELCALL
  if (n % 100 == 99)
    rare (s);
#endif
  if (s > 1000000)
    rare (s);
  ops[n % 7 == 0] (n);
  char buf[16];
  memcpy (buf, text, (n & 7) + 1);
  s += buf[n & 7];
  return s;
}
#endif

int
main (void)
{
  long total = 0;
  for (int n = 0; n < 1000; n++)
    total += score (n);
  printf ("%ld\n", total);
  return 0;
}
