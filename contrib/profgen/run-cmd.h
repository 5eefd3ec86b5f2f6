/* run-cmd.h: run a helper program (perf, objdump) without a shell and
   read its standard output through a pipe; its standard error is kept
   in a temporary file for the error message.  */

#ifndef LATEPGO_RUN_CMD_H
#define LATEPGO_RUN_CMD_H

#include <stdio.h>
#include <sys/types.h>

struct run_cmd
{
  pid_t pid;
  FILE *out;			/* The program's standard output.  */
  FILE *err;			/* Its standard error, read back at the end.  */
};

/* Start ARGV[0], looked up in PATH, with ARGV, standard input from
   /dev/null.  Return 0, or -1 with errno set when it cannot be started
   (ENOENT: not installed).  */
int run_start (struct run_cmd *cmd, char *const argv[]);

/* Read the rest of the output, wait for the program and return its
   exit status (128+N when killed by signal N).  If ERR is not NULL,
   store in it the program's standard error (malloc'd, without a final
   newline).  */
int run_finish (struct run_cmd *cmd, char **err);

#endif /* LATEPGO_RUN_CMD_H */
