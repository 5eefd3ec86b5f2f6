/* leave-ext.c: the callee of leave.c, built without the plugin; it
   ends the program when asked to (STOP).  */

#include <stdlib.h>

int stop_at = -1;

int
ext_step (int i)
{
  if (i == stop_at)
    exit (0);
  return i & 3;
}
