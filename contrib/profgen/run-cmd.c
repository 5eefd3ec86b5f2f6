/* run-cmd.c: spawn a helper program with its output on a pipe
   (run-cmd.h).  posix_spawnp rather than popen: no shell, so file
   names are passed as they are, and an exec failure (program not
   installed) comes back as an error code instead of a shell's
   "not found" on standard error.  */

#define _GNU_SOURCE
#include "run-cmd.h"
#include "tool-util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int
run_start (struct run_cmd *cmd, char *const argv[])
{
  int fds[2];
  posix_spawn_file_actions_t fa;

  memset (cmd, 0, sizeof *cmd);
  cmd->err = tmpfile ();
  if (!cmd->err)
    lp_fatal (NULL, "cannot create a temporary file: %s", strerror (errno));
  if (pipe2 (fds, O_CLOEXEC) != 0)
    lp_fatal (NULL, "cannot create a pipe: %s", strerror (errno));
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2 (&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2 (&fa, fileno (cmd->err), 2);
  int rc = posix_spawnp (&cmd->pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy (&fa);
  close (fds[1]);
  if (rc != 0)
    {
      close (fds[0]);
      fclose (cmd->err);
      cmd->err = NULL;
      errno = rc;
      return -1;
    }
  cmd->out = fdopen (fds[0], "r");
  if (!cmd->out)
    lp_fatal (NULL, "fdopen: %s", strerror (errno));
  return 0;
}

int
run_finish (struct run_cmd *cmd, char **err)
{
  char buf[4096];
  int status;

  while (fread (buf, 1, sizeof buf, cmd->out) > 0)
    ;
  fclose (cmd->out);
  while (waitpid (cmd->pid, &status, 0) < 0)
    if (errno != EINTR)
      lp_fatal (NULL, "waitpid: %s", strerror (errno));

  if (err)
    {
      size_t len = 0, cap = 256;
      size_t n;
      char *text = xmalloc (cap);
      rewind (cmd->err);
      while ((n = fread (text + len, 1, cap - len - 1, cmd->err)) > 0)
	{
	  len += n;
	  if (cap - len < 2)
	    text = xrealloc (text, cap *= 2);
	}
      while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
	len--;
      text[len] = 0;
      *err = text;
    }
  fclose (cmd->err);

  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return WEXITSTATUS (status);
}
