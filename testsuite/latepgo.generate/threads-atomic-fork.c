/* update=atomic and fork: the child starts from zero, also in the
   copies of the counters of threads that exist only in the parent (one
   of them has not exited yet and still holds its counts).  Parent and
   child merge into one profile: every count exactly once.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -fplugin-arg-latepgo-update=atomic" } */
/* qemu-user 7.2 aborts in a child forked while other threads run
   (qemu_plugin_vcpu_init_hook: assertion failed).  */
/* { dg-require-native "qemu-user cannot fork a threaded process" } */

#include <pthread.h>
#include <semaphore.h>
#include <sys/wait.h>
#include <unistd.h>

/* Threads started one by one around a fork, so not through
   helpers/run-threads.h; work() carries this test's own counts.  */
volatile int sink;
static sem_t counted, go_on;

__attribute__ ((noinline)) void
work (int i)
{
  if (i % 3 == 0)
    sink = i;				/* count(1700) */
  else
    sink = -i;				/* count(3400) */
}

static void *
thread_main (void *arg)
{
  for (int i = 0; i < 1500; i++)
    work (i);				/* count(3000) */
  if (arg)
    {
      sem_post (&counted);
      sem_wait (&go_on);
    }
  return arg;
}

static void *
child_thread (void *arg)
{
  for (int i = 0; i < 1200; i++)
    work (i);				/* count(1200) */
  return arg;
}

int
main (void)
{
  pthread_t waiting, done, in_child;
  sem_init (&counted, 0, 0);
  sem_init (&go_on, 0, 0);
  pthread_create (&done, 0, thread_main, 0);
  pthread_join (done, 0);
  pthread_create (&waiting, 0, thread_main, (void *) 1);
  sem_wait (&counted);

  pid_t pid = fork ();
  if (pid == 0)
    {
      pthread_create (&in_child, 0, child_thread, 0);
      pthread_join (in_child, 0);
      for (int i = 0; i < 900; i++)
	work (i);			/* count(900) */
      return 0;
    }
  int status;
  waitpid (pid, &status, 0);
  sem_post (&go_on);
  pthread_join (waiting, 0);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 1;
}

/* { dg-final { latepgo-use-counts } } */
