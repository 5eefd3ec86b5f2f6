/* probe-format.h: the byte layout of LLVM 14's pseudo probe sections
   (doc/probes.md sections 3 and 4), one definition for the plugin,
   which writes them as assembly, and latepgo-profgen, which decodes
   them.

   .pseudo_probe_desc: per function {u64 GUID, u64 CFG checksum,
   ULEB128 name length, name bytes}.

   .pseudo_probe: per function FUNCTION = {u64 GUID, ULEB128 number of
   probes, ULEB128 number of inlinees, the probes, then per inlinee
   {ULEB128 call-site probe index, FUNCTION}}; per probe {ULEB128
   index, the kind byte, then the address: a u64 when the kind byte
   lacks PROBE_KIND_ADDR_DELTA, else an SLEB128 delta from the
   previous probe's address}.  The LEB128 readers are in leb128.h.  */

#ifndef LATEPGO_PROBE_FORMAT_H
#define LATEPGO_PROBE_FORMAT_H

#include "leb128.h"

/* Probe types.  */
enum { PROBE_BLOCK = 0, PROBE_INDIRECT_CALL = 1, PROBE_DIRECT_CALL = 2 };

/* Attribute bit of a probe that owns no instruction (LLVM 14's
   "Dangling"): it has an address but its count is unknown rather
   than 0.  */
#define PROBE_ATTR_DANGLING 0x2

/* The kind byte: type in bits 0-3, attributes in bits 4-6, and bit 7
   set when the address is a delta.  */
#define PROBE_KIND_TYPE_MASK   0xf
#define PROBE_KIND_ATTR_SHIFT  4
#define PROBE_KIND_ATTR_MASK   0x7
#define PROBE_KIND_ADDR_DELTA  0x80

/* The kind byte of a probe of TYPE with attributes ATTR, its address a
   delta if DELTA.  */
static inline unsigned
probe_kind_encode (unsigned type, unsigned attr, int delta)
{
  return type | attr << PROBE_KIND_ATTR_SHIFT
	 | (delta ? PROBE_KIND_ADDR_DELTA : 0);
}

static inline unsigned
probe_kind_type (unsigned kind)
{
  return kind & PROBE_KIND_TYPE_MASK;
}

static inline unsigned
probe_kind_attr (unsigned kind)
{
  return (kind >> PROBE_KIND_ATTR_SHIFT) & PROBE_KIND_ATTR_MASK;
}

static inline int
probe_kind_delta (unsigned kind)
{
  return (kind & PROBE_KIND_ADDR_DELTA) != 0;
}

#endif /* LATEPGO_PROBE_FORMAT_H */
