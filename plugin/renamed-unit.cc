/* renamed-unit.cc: a file renamed since training, use mode
   (doc/stale-salvage.md, "A renamed file").

   A static function's profile name is "<file>:<symbol>", <file> the
   source path relative to the compiler's working directory (names.cc).
   So a file renamed since training (a.c -> b.c, which
   -fplugin-arg-latepgo-prefix-map cannot say for a single file), or
   compiled from a build directory of another depth (../src/a.c ->
   ../../src/a.c), finds none of its static functions' records.  Once
   the renaming is detected, a static function the profile has only
   under its old name is read under that name (use.cc), and is known by
   it as an indirect call's target (values.cc): the profile names a
   call's targets by their names in training.  */

#include "gcc-common.h"
#include "renamed-unit.h"
#include "dump.h"
#include "names.h"
#include "profile-read.h"

/* The <file> part of the profile names of this unit's static functions
   in the profile, when the file was renamed since training, else
   NULL.  */
static char *renamed_from;

/* When no static function of this unit is in the profile under the
   new name, and at least two of them, more than half, are there under
   one other file name (and that file is the only one with such a
   function), this unit is taken for that file renamed; its external
   functions never depended on the file name.  Before the first
   function of the pass.  */

void
lp_renamed_unit_detect (void)
{
  const char *prefix = lp_static_name_prefix ();
  size_t plen = strlen (prefix);
  hash_map<nofree_string_hash, int> votes;
  int n_static = 0;
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      if (lp_skip_function_p (node) || TREE_PUBLIC (node->decl)
	  || DECL_EXTERNAL (node->decl))
	continue;
      char *name = lp_profile_name (node->decl);
      bool ours = strncmp (name, prefix, plen) == 0 && name[plen] == ':';
      if (ours && lp_profile_lookup (name))
	{
	  free (name);
	  return;
	}
      if (ours)
	{
	  n_static++;
	  const vec<const char *> *files
	    = lp_profile_static_files (name + plen + 1);
	  if (files && files->length () == 1)
	    votes.get_or_insert ((*files)[0])++;
	}
      free (name);
    }
  const char *best = NULL;
  int best_votes = 0;
  for (auto it = votes.begin (); it != votes.end (); ++it)
    if ((*it).second > best_votes)
      {
	best = (*it).first;
	best_votes = (*it).second;
      }
  if (best_votes >= 2 && 2 * best_votes > n_static)
    {
      renamed_from = xstrdup (best);
      if (FILE *dump = lp_dump_stream ())
	fprintf (dump, "unit renamed from %s (%d of %d static functions)\n",
		 best, best_votes, n_static);
    }
}

void
lp_renamed_unit_end (void)
{
  free (renamed_from);
  renamed_from = NULL;
}

/* The name the profile has the function DECL (profile name NAME) under
   if that is its name before its file was renamed; else NULL.  Caller
   frees.  */

char *
lp_old_profile_name (tree decl, const char *name)
{
  if (!renamed_from || TREE_PUBLIC (decl) || DECL_EXTERNAL (decl)
      || lp_profile_lookup (name))
    return NULL;
  return concat (renamed_from, ":", lp_symbol_name (decl), NULL);
}

/* The name the profile knows NODE's function by: its profile name, or
   its old one (lp_old_profile_name).  Caller frees.  */

char *
lp_known_profile_name (cgraph_node *node)
{
  char *name = lp_profile_name (node->decl);
  char *old_name = lp_old_profile_name (node->decl, name);
  if (!old_name)
    return name;
  free (name);
  return old_name;
}
