/* sample-binary.cc: an extensible binary sample profile (LLVM's
   SPF_Ext_Binary, doc/sample-format.md) turned into the text format
   by format/'s decoder (sample-ext-read.c, sample-ext-text.c, shared
   with latepgo-profdata), so that sample-read.cc reads both encodings
   with its one text parser.  */

#include "gcc-common.h"
#include "sample-binary.h"
#include "../format/sample-ext.h"

bool
lp_sample_is_binary (const char *buf, size_t size)
{
  return lp_sx_is_ext ((const unsigned char *) buf, size);
}

char *
lp_sample_binary_to_text (const char *path, const char *buf, size_t size,
			  size_t *text_size)
{
  lp_sx_profile prof;
  lp_err err;
  if (lp_sx_decode ((const unsigned char *) buf, size, &prof, &err) < 0)
    {
      error ("latepgo: sample profile %qs: %s", path, err.msg);
      return NULL;
    }
  /* Functions are found by name: an MD5 name cannot be matched.  */
  if (prof.md5)
    {
      error ("latepgo: sample profile %qs has MD5 names, not function "
	     "names; write it without %<--use-md5%>", path);
      lp_sx_free (&prof);
      return NULL;
    }
  size_t len;
  char *text = lp_sx_to_text (&prof, &len);
  lp_sx_free (&prof);
  if (!text)
    {
      error ("latepgo: sample profile %qs: out of memory", path);
      return NULL;
    }
  char *copy = XNEWVEC (char, len + 1);
  memcpy (copy, text, len + 1);
  free (text);
  *text_size = len;
  return copy;
}
