/* prof-platform-linux.c: what the runtime needs to know about the
   module it is linked into (its profile sections, its build ID, whether
   compiler-rt's runtime is linked too) and a few Linux facilities
   (parent-death signal, host name, start-up entropy).

   The sections are found through the __start_<sec>/__stop_<sec>
   symbols GNU ld and lld define for every output section whose name is
   a C identifier.  The references are hidden, so each module sees its
   own sections, and weak, so a module without instrumented code (the
   runtime was pulled in only by an API call) links and sees empty
   sections.  */

#include "prof-internal.h"

#include <link.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define SECTION_SYMBOLS(SEC)						\
  extern char __start_##SEC[] LP_WEAK_HIDDEN;				\
  extern char __stop_##SEC[] LP_WEAK_HIDDEN;

SECTION_SYMBOLS (__llvm_prf_data)
SECTION_SYMBOLS (__llvm_prf_cnts)
SECTION_SYMBOLS (__llvm_prf_names)
SECTION_SYMBOLS (__latepgo_prf_fname)
SECTION_SYMBOLS (__latepgo_prf_reloc)
SECTION_SYMBOLS (__latepgo_prf_lean)
SECTION_SYMBOLS (__latepgo_prf_cov)
SECTION_SYMBOLS (__latepgo_prf_vnds)
SECTION_SYMBOLS (__latepgo_prf_vmop)

/* Defined by compiler-rt's InstrProfilingRuntime.cpp (hidden), which
   every clang-instrumented object pulls in.  A weak reference does not
   pull it out of an archive, it only tells whether it is there.  */
extern int __llvm_profile_runtime LP_WEAK_HIDDEN;

/* The value nodes between the section bounds BEGIN and END (NULL
   when the section is absent): the first, and the end in *NODES_END;
   NULL if none.  */

static struct latepgo_value_node *
nodes_between (char *begin, char *end, struct latepgo_value_node **nodes_end)
{
  if (!begin || !end)
    begin = end = NULL;
  *nodes_end = (struct latepgo_value_node *) end;
  return (struct latepgo_value_node *) begin;
}

/* The pool of nodes of the module's indirect-call target lists
   (LATEPGO_SEC_VNODES), as nodes_between.  */

struct latepgo_value_node *
lp_value_nodes (struct latepgo_value_node **end)
{
  return nodes_between (__start___latepgo_prf_vnds,
			__stop___latepgo_prf_vnds, end);
}

/* The value nodes of the module's memop sites (LATEPGO_SEC_VMOP), as
   nodes_between.  */

struct latepgo_value_node *
lp_memop_nodes (struct latepgo_value_node **end)
{
  return nodes_between (__start___latepgo_prf_vmop,
			__stop___latepgo_prf_vmop, end);
}

/* Fill SECS with the bounds of this module's profile sections.  Absent
   sections come back empty.  */

void
lp_get_sections (struct lp_sections *secs)
{
  secs->data_begin = (const struct latepgo_data_record *) __start___llvm_prf_data;
  secs->data_end = (const struct latepgo_data_record *) __stop___llvm_prf_data;
  secs->cnts_begin = (uint64_t *) __start___llvm_prf_cnts;
  secs->cnts_end = (uint64_t *) __stop___llvm_prf_cnts;
  secs->names_begin = __start___llvm_prf_names;
  secs->names_end = __stop___llvm_prf_names;
  if (!secs->data_begin || !secs->data_end)
    secs->data_begin = secs->data_end = NULL;
  if (!secs->cnts_begin || !secs->cnts_end)
    secs->cnts_begin = secs->cnts_end = NULL;
  if (!secs->names_begin || !secs->names_end)
    secs->names_begin = secs->names_end = NULL;
  secs->reloc_begin = (const uint64_t *) __start___latepgo_prf_reloc;
  secs->reloc_end = (const uint64_t *) __stop___latepgo_prf_reloc;
  if (!secs->reloc_begin || !secs->reloc_end)
    secs->reloc_begin = secs->reloc_end = NULL;
  secs->lean_begin = (const uint64_t *) __start___latepgo_prf_lean;
  secs->lean_end = (const uint64_t *) __stop___latepgo_prf_lean;
  if (!secs->lean_begin || !secs->lean_end)
    secs->lean_begin = secs->lean_end = NULL;
  secs->cov_begin = (const uint64_t *) __start___latepgo_prf_cov;
  secs->cov_end = (const uint64_t *) __stop___latepgo_prf_cov;
  if (!secs->cov_begin || !secs->cov_end)
    secs->cov_begin = secs->cov_end = NULL;
}

/* Return the first non-empty NUL-terminated string in the module's
   __latepgo_prf_fname section (the plugin's generate=PATH), or NULL.
   Every object file contributes its own copy; they are normally the
   same path.  */

const char *
lp_build_time_filename (void)
{
  const char *p = __start___latepgo_prf_fname;
  const char *end = __stop___latepgo_prf_fname;
  if (!p || !end)
    return NULL;
  while (p < end)
    {
      if (!*p)
	{
	  p++;
	  continue;
	}
      const char *s = p;
      while (p < end && *p)
	p++;
      return p < end ? s : NULL;
    }
  return NULL;
}

/* Return nonzero when compiler-rt's profile runtime is linked into this
   module: it then writes the same sections itself.  */

int
lp_compiler_rt_present (void)
{
  return &__llvm_profile_runtime != NULL;
}

/* The payload of the module's NT_GNU_BUILD_ID note, found once at
   start-up.  Longer IDs than this are not written.  */
#define MAX_ID_SIZE 64
static unsigned char binary_id[MAX_ID_SIZE];
static size_t binary_id_size;

/* If INFO is the module containing the runtime's own code, copy its
   build ID to binary_id and return 1 (which stops dl_iterate_phdr).  */

static int
find_id_callback (struct dl_phdr_info *info, size_t size LP_UNUSED,
		  void *data LP_UNUSED)
{
  uintptr_t self = (uintptr_t) &lp_find_binary_id;
  int mine = 0;

  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && self >= start && self < start + ph->p_memsz)
	mine = 1;
    }
  if (!mine)
    return 0;

  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
	continue;
      const unsigned char *p
	= (const unsigned char *) (info->dlpi_addr + ph->p_vaddr);
      const unsigned char *end = p + ph->p_memsz;
      size_t align = ph->p_align > 4 ? ph->p_align : 4;
      while (p + sizeof (ElfW (Nhdr)) <= end)
	{
	  const ElfW (Nhdr) *nh = (const ElfW (Nhdr) *) p;
	  const unsigned char *name = p + sizeof *nh;
	  const unsigned char *desc
	    = name + ((nh->n_namesz + align - 1) & ~(align - 1));
	  const unsigned char *next
	    = desc + ((nh->n_descsz + align - 1) & ~(align - 1));
	  if (desc > end || desc + nh->n_descsz > end)
	    break;
	  if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4
	      && memcmp (name, "GNU", 4) == 0
	      && nh->n_descsz > 0 && nh->n_descsz <= MAX_ID_SIZE)
	    {
	      memcpy (binary_id, desc, nh->n_descsz);
	      binary_id_size = nh->n_descsz;
	      return 1;
	    }
	  p = next;
	}
    }
  return 1;
}

/* Look up and remember the module's build ID.  Called from the
   constructor: dl_iterate_phdr takes the loader's lock, which the exit
   and exec paths must not.  */

void
lp_find_binary_id (void)
{
  binary_id_size = 0;
  dl_iterate_phdr (find_id_callback, NULL);
}

/* Set *ID to the module's build ID and return its size, 0 if it has
   none (linked with --build-id=none).  */

size_t
lp_binary_id (const unsigned char **id)
{
  *id = binary_id;
  return binary_id_size;
}

/* A child that asked to be killed with its parent
   (PR_SET_PDEATHSIG SIGKILL) must not die halfway through writing a
   profile.  Suspend that for the write; return 1 if it was set.  */

int
lp_suspend_pdeathsig (void)
{
  int sig = 0;
  if (prctl (PR_GET_PDEATHSIG, &sig) == 0 && sig == SIGKILL)
    {
      prctl (PR_SET_PDEATHSIG, 0);
      return 1;
    }
  return 0;
}

/* Undo lp_suspend_pdeathsig when WAS_SET.  */

void
lp_restore_pdeathsig (int was_set)
{
  if (was_set)
    prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* Copy the host name (uname's nodename, async-signal-safe) to BUF of
   SIZE bytes.  Return 0, or -1.  */

int
lp_hostname (char *buf, size_t size)
{
  struct utsname u;
  if (size == 0 || uname (&u) != 0)
    return -1;
  size_t n = strnlen (u.nodename, sizeof u.nodename);
  if (n >= size)
    n = size - 1;
  memcpy (buf, u.nodename, n);
  buf[n] = 0;
  return 0;
}

/* Return 64 bits that differ between process trees: the kernel's
   AT_RANDOM bytes, the time, the pid and the stack address.  */

uint64_t
lp_entropy (void)
{
  uint64_t h = LP_HASH_INIT;
  const void *r = (const void *) getauxval (AT_RANDOM);
  if (r)
    h = lp_hash_bytes (h, r, 16);
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  h = lp_hash_bytes (h, &ts, sizeof ts);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  h = lp_hash_bytes (h, &ts, sizeof ts);
  pid_t pid = getpid ();
  h = lp_hash_bytes (h, &pid, sizeof pid);
  uintptr_t sp = (uintptr_t) &ts;
  h = lp_hash_bytes (h, &sp, sizeof sp);
  return lp_mix64 (h);
}
