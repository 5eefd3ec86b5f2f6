/* sample-read-ahead.c: merge --sample's inputs read on worker threads
   (sample-read-ahead.h).  Reading (parsing the text, or decoding the
   extensible binary) is most of a merge's work and each input's is
   its own; the merge itself stays on one thread, in the inputs'
   order, so that the first input's checksum and attributes win as
   without threads.  At most WINDOW inputs are read and not yet
   merged, which bounds the memory.  */

#include "sample-read-ahead.h"
#include "tool-util.h"

#include <pthread.h>
#include <stdlib.h>

struct slot
{
  struct sp_profile prof;
  char err[512];
  int status, ready;
};

struct sp_read_ahead
{
  const char *const *paths;
  const uint64_t *weights;
  size_t num, next, released, window;
  struct slot *slots;		/* Input I in SLOTS[I % WINDOW].  */
  pthread_t *threads;
  int num_threads;
  pthread_mutex_t mu;
  pthread_cond_t room;		/* A slot was released.  */
  pthread_cond_t ready;		/* An input was read.  */
};

static void *
worker (void *arg)
{
  struct sp_read_ahead *ra = arg;
  pthread_mutex_lock (&ra->mu);
  for (;;)
    {
      while (ra->next < ra->num && ra->next >= ra->released + ra->window)
	pthread_cond_wait (&ra->room, &ra->mu);
      if (ra->next >= ra->num)
	break;
      size_t i = ra->next++;
      struct slot *s = &ra->slots[i % ra->window];
      pthread_mutex_unlock (&ra->mu);
      sp_profile_init_arena (&s->prof);
      s->status = sp_read_file (&s->prof, ra->paths[i], ra->weights[i],
				s->err, sizeof s->err);
      pthread_mutex_lock (&ra->mu);
      s->ready = 1;
      pthread_cond_signal (&ra->ready);
    }
  pthread_mutex_unlock (&ra->mu);
  return NULL;
}

struct sp_read_ahead *
sp_read_ahead_start (const char *const *paths, const uint64_t *weights,
		     size_t num, int threads)
{
  struct sp_read_ahead *ra = xcalloc (1, sizeof *ra);
  ra->paths = paths;
  ra->weights = weights;
  ra->num = num;
  if (threads < 1)
    threads = 1;
  ra->window = 2 * (size_t) threads + 2;
  ra->slots = xcalloc (ra->window, sizeof *ra->slots);
  ra->threads = xcalloc (threads, sizeof *ra->threads);
  pthread_mutex_init (&ra->mu, NULL);
  pthread_cond_init (&ra->room, NULL);
  pthread_cond_init (&ra->ready, NULL);
  for (int t = 0; t < threads; t++)
    if (pthread_create (&ra->threads[t], NULL, worker, ra) == 0)
      ra->num_threads++;
  if (ra->num_threads == 0)
    lp_fatal (NULL, "cannot start a thread to read the inputs");
  return ra;
}

int
sp_read_ahead_get (struct sp_read_ahead *ra, size_t i,
		   struct sp_profile **prof, const char **err)
{
  struct slot *s = &ra->slots[i % ra->window];
  pthread_mutex_lock (&ra->mu);
  while (!s->ready)
    pthread_cond_wait (&ra->ready, &ra->mu);
  pthread_mutex_unlock (&ra->mu);
  *prof = &s->prof;
  *err = s->err;
  return s->status;
}

void
sp_read_ahead_release (struct sp_read_ahead *ra, size_t i)
{
  struct slot *s = &ra->slots[i % ra->window];
  sp_profile_free (&s->prof);
  pthread_mutex_lock (&ra->mu);
  s->ready = 0;
  ra->released++;
  pthread_cond_broadcast (&ra->room);
  pthread_mutex_unlock (&ra->mu);
}

void
sp_read_ahead_finish (struct sp_read_ahead *ra)
{
  for (int t = 0; t < ra->num_threads; t++)
    pthread_join (ra->threads[t], NULL);
  pthread_mutex_destroy (&ra->mu);
  pthread_cond_destroy (&ra->room);
  pthread_cond_destroy (&ra->ready);
  free (ra->threads);
  free (ra->slots);
  free (ra);
}
