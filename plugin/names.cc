/* names.cc: which functions are instrumented, and their profile names.

   Profile names follow LLVM's IR PGO (doc/data-path.md section 2):
   a function with external, weak or COMDAT linkage is named by its
   assembler name; a static function by "<file>:<assembler name>", so
   that static functions of the same name in different files never
   share a record.  <file> is the main input file as given on the
   command line, rewritten by -fplugin-arg-latepgo-prefix-map=OLD=NEW
   and by GCC's own -fprofile-prefix-map/-ffile-prefix-map; an absolute
   name that is still absolute after that is made relative to the
   current directory.  So the same sources built by the same build
   system in another directory (as distribution builds do) give the
   same names.  The current directory is the compile's as GCC's debug
   info has it (get_src_pwd): for preprocessed input that carries a
   '# 0 "DIR//"' marker (latepgo.cc turns the marker on), DIR, where
   the source was preprocessed; so a distcc helper compiling in a
   directory of its own gives the names a local build gives.  */

#include "gcc-common.h"
#include "names.h"
#include "gcc-flags.h"
#include "arguments.h"
#include "toplev.h"
#include "../format/md5.h"

/* MD5LOW64: the first 8 bytes of the MD5 digest read as a
   little-endian number.  LLVM's NameRef, hash-table key and probe
   GUID; format/md5.c computes it for the tools too.  */

unsigned HOST_WIDE_INT
lp_md5_low64 (const void *data, size_t len)
{
  return lp_md5low64 (data, len);
}

/* Return FILE made relative to DIR (both absolute), e.g.
   "/src/z/a.c" from "/src/z/build" is "../a.c" and from "/src/z" is
   "a.c".  Reads nothing past the end of DIR: getpwd's string is
   followed by whatever the environment holds, and a name must not
   depend on that.  Caller frees.  */

static char *
relative_to (const char *file, const char *dir)
{
  size_t dir_len = strlen (dir);
  size_t common = 0, i;

  /* Longest common prefix ending at a '/', or at the end of DIR when
     FILE continues there with a '/'.  */
  for (i = 0; file[i] && dir[i] && file[i] == dir[i]; i++)
    if (file[i] == '/')
      common = i + 1;
  if (i == dir_len && file[i] == '/')
    common = i + 1;

  /* One "../" per directory of DIR below the common prefix.  */
  const char *rest = dir + MIN (common, dir_len);
  int ups = 0;
  for (const char *p = rest; *p; p++)
    if (*p != '/' && (p == rest || p[-1] == '/'))
      ups++;

  obstack ob;
  gcc_obstack_init (&ob);
  for (int k = 0; k < ups; k++)
    obstack_grow (&ob, "../", 3);
  obstack_grow0 (&ob, file + common, strlen (file + common));
  char *res = xstrdup ((char *) obstack_finish (&ob));
  obstack_free (&ob, NULL);
  return res;
}

/* The <file> part of static functions' names; computed once.  */

const char *
lp_static_name_prefix (void)
{
  static char *prefix;
  if (prefix)
    return prefix;

  const char *name = main_input_filename ? main_input_filename : "<unknown>";
  char *mapped = NULL;

  /* Our own maps first: the first OLD that prefixes NAME wins.  */
  for (unsigned i = 0; i + 1 < latepgo_opts.prefix_map.length (); i += 2)
    {
      const char *old_p = latepgo_opts.prefix_map[i];
      size_t len = strlen (old_p);
      if (strncmp (name, old_p, len) == 0)
	{
	  const char *rest = name + len;
	  /* "OLD=" removes OLD: what follows is relative to it.  */
	  if (!*latepgo_opts.prefix_map[i + 1])
	    while (IS_DIR_SEPARATOR (*rest))
	      rest++;
	  mapped = concat (latepgo_opts.prefix_map[i + 1], rest, NULL);
	  break;
	}
    }
  if (!mapped)
    mapped = xstrdup (remap_profile_filename (name));

  if (IS_ABSOLUTE_PATH (mapped))
    {
      const char *pwd = get_src_pwd ();
      if (pwd && IS_ABSOLUTE_PATH (pwd))
	{
	  char *rel = relative_to (mapped, pwd);
	  free (mapped);
	  mapped = rel;
	}
    }
  prefix = mapped;
  return prefix;
}

/* The symbol FNDECL's code is emitted under.  A function declared
   with asm ("label") has the assembler name "*label": the '*' only
   tells GCC's output routines not to add the user label prefix, and
   is no part of the symbol.  LLVM drops its own marker for such names
   ('\1') the same way when it forms the profile name
   (GlobalValue::getGlobalIdentifier).  */

const char *
lp_symbol_name (tree fndecl)
{
  const char *asm_name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fndecl));
  return asm_name[0] == '*' ? asm_name + 1 : asm_name;
}

/* The profile name of FNDECL.  Caller frees.  */

char *
lp_profile_name (tree fndecl)
{
  const char *asm_name = lp_symbol_name (fndecl);

  if (TREE_PUBLIC (fndecl) || DECL_EXTERNAL (fndecl))
    return xstrdup (asm_name);
  return concat (lp_static_name_prefix (), ":", asm_name, NULL);
}

/* Whether NODE's function is left alone, following
   tree-profile.cc:tree_profiling plus what cannot carry code.  */

bool
lp_skip_function_p (cgraph_node *node)
{
  tree decl = node->decl;

  if (node->thunk || node->alias || !gimple_has_body_p (decl))
    return true;
  if (!DECL_STRUCT_FUNCTION (decl) || !DECL_STRUCT_FUNCTION (decl)->cfg)
    return true;
  /* Compiler-made helpers.  */
  if (DECL_SOURCE_LOCATION (decl) == BUILTINS_LOCATION)
    return true;
  /* -fprofile-exclude-files, -fprofile-filter-files.  */
  if (!lp_file_profiled_p (LOCATION_FILE (DECL_SOURCE_LOCATION (decl))))
    return true;
  if (lookup_attribute ("no_profile_instrument_function",
			DECL_ATTRIBUTES (decl))
      || lookup_attribute ("naked", DECL_ATTRIBUTES (decl)))
    return true;
  /* ifunc resolvers run inside the dynamic linker, before the runtime
     and possibly before relocations of our records.  */
  const char *asm_name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  size_t len = strlen (asm_name);
  if (len > 9 && strcmp (asm_name + len - 9, ".resolver") == 0)
    return true;
  return false;
}
