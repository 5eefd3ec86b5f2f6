/* The program of the plugin.exp test of a dlopen'd shared library built
   with update=atomic (per-thread counters): four threads call lib_work
   1000 times each, a fifth 100 times and is still alive when the
   library is closed (which writes its profile), and exits after that:
   the library's thread-exit handler must be gone by then.  Argument:
   the library's path.  */

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static int (*lib_work) (int);
static sem_t counted, go_on;

static void *
worker (void *arg)
{
  long n = (long) arg;
  for (int i = 0; i < n; i++)
    lib_work (i);
  if (n == 100)
    {
      sem_post (&counted);
      sem_wait (&go_on);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  void *h = dlopen (argv[1], RTLD_NOW);
  if (!h || !(lib_work = (int (*) (int)) dlsym (h, "lib_work")))
    {
      fprintf (stderr, "%s\n", dlerror ());
      return 2;
    }
  pthread_t t[4], lingering;
  sem_init (&counted, 0, 0);
  sem_init (&go_on, 0, 0);
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker, (void *) 1000L);
  pthread_create (&lingering, NULL, worker, (void *) 100L);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  sem_wait (&counted);
  dlclose (h);
  sem_post (&go_on);
  pthread_join (lingering, NULL);
  puts ("done");
  return 0;
}
