/* read-file.h: a profile file read whole (read-file.cc).  */

#ifndef LATEPGO_READ_FILE_H
#define LATEPGO_READ_FILE_H

unsigned char *lp_read_file (const char *path, const char *kind,
			     size_t *size);

#endif
