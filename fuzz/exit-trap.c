/* exit-trap.c: the exit wrapper of exit-trap.h.  */

#include "exit-trap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

jmp_buf exit_trap_env;
int exit_trap_armed;

/* The stream the trapped code opened last and has not closed.  */
static FILE *open_stream;

FILE *__real_fopen (const char *path, const char *mode);
int __real_fclose (FILE *f);
FILE *__wrap_fopen (const char *path, const char *mode);
int __wrap_fclose (FILE *f);

FILE *
__wrap_fopen (const char *path, const char *mode)
{
  FILE *f = __real_fopen (path, mode);
  if (exit_trap_armed)
    open_stream = f;
  return f;
}

int
__wrap_fclose (FILE *f)
{
  if (f == open_stream)
    open_stream = NULL;
  return __real_fclose (f);
}

/* The blocks the trapped code allocated and has not freed: an open
   addressing table of pointers (linear probing).  When it is full,
   further blocks are not tracked, and leak if the code exits.  */
#define TRACK_SLOTS (1 << 16)
static void *tracked[TRACK_SLOTS];
static size_t num_tracked;

static size_t
slot_of (void *p)
{
  return ((uintptr_t) p >> 4) * 0x9e3779b97f4a7c15ULL >> 48;
}

static void
track (void *p)
{
  if (!p || !exit_trap_armed || num_tracked >= TRACK_SLOTS / 2)
    return;
  size_t i = slot_of (p);
  while (tracked[i])
    i = (i + 1) % TRACK_SLOTS;
  tracked[i] = p;
  num_tracked++;
}

/* Remove P from the table (backward-shift deletion).  */
static void
untrack (void *p)
{
  if (!p || !num_tracked)
    return;
  size_t i = slot_of (p);
  while (tracked[i] && tracked[i] != p)
    i = (i + 1) % TRACK_SLOTS;
  if (!tracked[i])
    return;
  tracked[i] = NULL;
  num_tracked--;
  for (size_t j = (i + 1) % TRACK_SLOTS; tracked[j]; j = (j + 1) % TRACK_SLOTS)
    {
      size_t home = slot_of (tracked[j]);
      /* Move J's entry to the hole I unless its home lies in (I, J].  */
      if ((j > i && (home <= i || home > j)) || (j < i && home <= i
						  && home > j))
	{
	  tracked[i] = tracked[j];
	  tracked[j] = NULL;
	  i = j;
	}
    }
}

void *__real_malloc (size_t);
void *__real_calloc (size_t, size_t);
void *__real_realloc (void *, size_t);
void __real_free (void *);
void *__wrap_malloc (size_t);
void *__wrap_calloc (size_t, size_t);
void *__wrap_realloc (void *, size_t);
void __wrap_free (void *);

void *
__wrap_malloc (size_t n)
{
  void *p = __real_malloc (n);
  track (p);
  return p;
}

void *
__wrap_calloc (size_t n, size_t size)
{
  void *p = __real_calloc (n, size);
  track (p);
  return p;
}

void *
__wrap_realloc (void *old, size_t n)
{
  void *p = __real_realloc (old, n);
  if (p)
    {
      untrack (old);
      track (p);
    }
  return p;
}

void
__wrap_free (void *p)
{
  untrack (p);
  __real_free (p);
}

void
exit_trap_forget (void)
{
  if (num_tracked)
    memset (tracked, 0, sizeof tracked);
  num_tracked = 0;
}

void
exit_trap_release (void)
{
  if (open_stream)
    __real_fclose (open_stream);
  open_stream = NULL;
  for (size_t i = 0; i < TRACK_SLOTS; i++)
    if (tracked[i])
      __real_free (tracked[i]);
  exit_trap_forget ();
}

void __real_exit (int status) __attribute__ ((noreturn));
void __wrap_exit (int status) __attribute__ ((noreturn));

void
__wrap_exit (int status)
{
  if (exit_trap_armed)
    {
      exit_trap_armed = 0;
      longjmp (exit_trap_env, 1);
    }
  __real_exit (status);
}

/* LeakSanitizer's check at exit would report the leaks too.  */
int __lsan_is_turned_off (void);

int
__lsan_is_turned_off (void)
{
  return 1;
}

void
exit_trap_no_leak_check (int *argc, char ***argv)
{
  static char flag[] = "-detect_leaks=0";
  char **v = malloc ((*argc + 2) * sizeof *v);
  memcpy (v, *argv, *argc * sizeof *v);
  v[*argc] = flag;
  v[*argc + 1] = NULL;
  *argv = v;
  ++*argc;
}
