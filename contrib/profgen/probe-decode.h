/* probe-decode.h: the pseudo probes of a linked binary, decoded from
   .pseudo_probe_desc and .pseudo_probe in LLVM 14's encoding
   (format/probe-format.h, doc/probes.md sections 3 and 4).

   The probes form a forest of inline contexts: a top-level node per
   function GUID (the records of one GUID, e.g. the hot and cold parts
   of a split function, are merged) and below it a node per inlined
   callee, keyed by (call-site probe index in the caller, callee GUID),
   merged the same way.  */

#ifndef LATEPGO_PROBE_DECODE_H
#define LATEPGO_PROBE_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "elf-read.h"
#include "probe-format.h"

/* No node (the parent of a top-level node, an empty child list).  */
#define PROBE_NO_NODE UINT32_MAX

/* A function descriptor from .pseudo_probe_desc.  */
struct probe_desc
{
  uint64_t guid;
  uint64_t hash;		/* The CFG checksum.  */
  char *name;
};

/* A function at one inline context.  */
struct probe_node
{
  uint64_t guid;
  uint32_t call_index;		/* Call-site probe in the parent, 0 at top.  */
  uint32_t parent;		/* Node index or PROBE_NO_NODE.  */
  uint32_t first_child, next_sibling;
};

struct probe
{
  uint64_t addr;
  uint32_t index;
  uint32_t node;		/* The inline context it belongs to.  */
  unsigned char type, attr;
};

struct probe_set
{
  struct probe_desc *descs;	/* Sorted by GUID, one per GUID.  */
  size_t num_descs;
  struct probe_node *nodes;	/* Top-level nodes have parent NO_NODE.  */
  size_t num_nodes;
  struct probe *probes;		/* In section order.  */
  size_t num_probes;
};

/* Decode the probe sections of ELF into SET.  Exit with a message
   naming the binary, the section and the offset when a section is
   missing, truncated or corrupt.  */
void probe_decode (const struct elf_file *elf, struct probe_set *set);

/* The descriptor of GUID, or NULL.  */
const struct probe_desc *probe_find_desc (const struct probe_set *set,
					  uint64_t guid);

/* "Block", "IndirectCall" or "DirectCall", as llvm-profgen prints
   them.  */
const char *probe_type_name (unsigned type);

/* Print every probe of SET to F, one line each, in section order
   (the format is documented in latepgo-profgen.c).  */
void probe_print (FILE *f, const struct probe_set *set);

#endif /* LATEPGO_PROBE_DECODE_H */
