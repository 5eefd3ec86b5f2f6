/* serve-handle.c: the callee of serve.c, built without the plugin; it
   ends the program at the last request.  */

#include <stdlib.h>

int last_request;

int
handle (int req)
{
  if (req == last_request)
    exit (0);
  return req & 1;
}
