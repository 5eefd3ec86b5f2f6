/* probe-decode.c: decoder of .pseudo_probe_desc and .pseudo_probe
   (probe-decode.h; byte layout in format/probe-format.h and
   doc/probes.md sections 3 and 4).  Every read is bounds-checked; a bad section is reported
   with the offset of the record or field that is wrong.  */

#include "probe-decode.h"
#include "index-table.h"
#include "le.h"
#include "md5.h"
#include "tool-util.h"
#include "lower-bound.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Inline nesting deeper than this is taken for corruption rather than
   recursed into (GCC's own limits stop far below).  */
#define MAX_INLINE_DEPTH 1000

/* Cursor over one section.  */
struct reader
{
  const unsigned char *p;
  size_t size, off;
  const char *bin, *sec;
};

static void __attribute__ ((noreturn, format (printf, 3, 4)))
corrupt (const struct reader *r, size_t off, const char *fmt, ...)
{
  char msg[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  lp_fatal (r->bin, "section %s: %s at offset 0x%zx", r->sec, msg, off);
}

static uint64_t
read_u64 (struct reader *r, const char *what)
{
  uint64_t v;
  if (r->size - r->off < 8)
    corrupt (r, r->off, "truncated %s", what);
  v = le_read_u64 (r->p + r->off);
  r->off += 8;
  return v;
}

static unsigned
read_u8 (struct reader *r, const char *what)
{
  if (r->off >= r->size)
    corrupt (r, r->off, "truncated %s", what);
  return r->p[r->off++];
}

/* Report a LEB128 read of WHAT at START that ended with STATUS, unless
   it succeeded.  */
static void
leb_check (const struct reader *r, size_t start, enum leb_status status,
	   const char *what)
{
  if (status == LEB_TRUNCATED)
    corrupt (r, start, "truncated %s", what);
  if (status == LEB_TOO_BIG)
    corrupt (r, start, "%s does not fit in 64 bits", what);
}

static uint64_t
read_uleb (struct reader *r, const char *what)
{
  size_t start = r->off;
  uint64_t v = 0;
  leb_check (r, start, leb_read_u (r->p, r->size, &r->off, &v), what);
  return v;
}

/* read_uleb for signed numbers: the two differ in type only.  */
static int64_t
read_sleb (struct reader *r, const char *what)
{
  size_t start = r->off;
  int64_t v = 0;
  leb_check (r, start, leb_read_s (r->p, r->size, &r->off, &v), what);
  return v;
}

static int
cmp_desc (const void *a, const void *b)
{
  const struct probe_desc *x = a, *y = b;
  return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* .pseudo_probe_desc: {u64 GUID, u64 hash, ULEB length, name}*.
   Several TUs may describe the same function; the first descriptor of
   a GUID is kept.  */
static void
decode_descs (const struct elf_file *elf, const struct elf_section *sec,
	      struct probe_set *set)
{
  struct reader r = { elf_section_data (elf, sec), sec->size, 0,
		      elf->path, sec->name };
  size_t cap = 16;

  if (!r.p)
    r.size = 0;
  set->descs = xmalloc (cap * sizeof *set->descs);
  while (r.off < r.size)
    {
      size_t start = r.off;
      struct probe_desc d;
      d.guid = read_u64 (&r, "descriptor GUID");
      d.hash = read_u64 (&r, "descriptor hash");
      uint64_t len = read_uleb (&r, "descriptor name length");
      if (len > r.size - r.off)
	corrupt (&r, start, "truncated descriptor name (%" PRIu64 " bytes)",
		 len);
      d.name = xmalloc (len + 1);
      memcpy (d.name, r.p + r.off, len);
      d.name[len] = 0;
      if (strlen (d.name) != len)
	corrupt (&r, start, "descriptor name contains a NUL byte");
      r.off += len;
      if (lp_md5low64 (d.name, len) != d.guid)
	lp_warning (elf->path, "descriptor of %s has GUID %" PRIu64
		    ", but the MD5 of the name gives %" PRIu64,
		    d.name, d.guid, lp_md5low64 (d.name, len));
      if (set->num_descs == cap)
	set->descs = xrealloc (set->descs, (cap *= 2) * sizeof *set->descs);
      set->descs[set->num_descs++] = d;
    }

  /* Stable dedup: qsort is not stable, so sort by (GUID, position).  */
  struct keyed { struct probe_desc d; size_t pos; } *k
    = xmalloc ((set->num_descs + 1) * sizeof *k);
  for (size_t i = 0; i < set->num_descs; i++)
    {
      k[i].d = set->descs[i];
      k[i].pos = i;
    }
  qsort (k, set->num_descs, sizeof *k, cmp_desc);
  size_t n = 0;
  for (size_t i = 0; i < set->num_descs; i++)
    {
      /* Among equal GUIDs keep the earliest in the section.  */
      size_t best = i;
      size_t j = i;
      while (j + 1 < set->num_descs && k[j + 1].d.guid == k[i].d.guid)
	{
	  j++;
	  if (k[j].pos < k[best].pos)
	    best = j;
	}
      for (size_t m = i; m <= j; m++)
	if (m != best)
	  {
	    if (k[m].d.hash != k[best].d.hash)
	      lp_warning (elf->path, "two descriptors of %s with different "
			  "checksums; using %" PRIu64, k[best].d.name,
			  k[best].d.hash);
	    free (k[m].d.name);
	  }
      set->descs[n++] = k[best].d;
      i = j;
    }
  set->num_descs = n;
  free (k);
}

_Static_assert (offsetof (struct probe_desc, guid) == 0,
		"lp_lower_bound_u64 finds descriptors by their first member");

const struct probe_desc *
probe_find_desc (const struct probe_set *set, uint64_t guid)
{
  size_t lo = lp_lower_bound_u64 (set->descs, set->num_descs,
				 sizeof *set->descs, guid);
  if (lo < set->num_descs && set->descs[lo].guid == guid)
    return &set->descs[lo];
  return NULL;
}

/* State of the .pseudo_probe decoder.  */
struct decoder
{
  struct reader r;
  struct probe_set *set;
  size_t nodes_cap, probes_cap;
  uint64_t prev_addr;		/* Address of the previously decoded probe.  */
  struct index_table top;	/* Top-level nodes by GUID.  */
};

/* The node for (CALL_INDEX, GUID) below PARENT, or the top-level node
   of GUID when PARENT is PROBE_NO_NODE; created if new.  */
static uint32_t
get_node (struct decoder *d, uint32_t parent, uint32_t call_index,
	  uint64_t guid)
{
  struct probe_set *set = d->set;
  size_t s = 0;

  if (parent == PROBE_NO_NODE)
    {
      for (s = index_table_start (&d->top, guid); d->top.slots[s];
	   s = index_table_next (&d->top, s))
	if (set->nodes[d->top.slots[s] - 1].guid == guid)
	  return d->top.slots[s] - 1;
    }
  else
    for (uint32_t c = set->nodes[parent].first_child; c != PROBE_NO_NODE;
	 c = set->nodes[c].next_sibling)
      if (set->nodes[c].call_index == call_index
	  && set->nodes[c].guid == guid)
	return c;

  if (set->num_nodes >= UINT32_MAX - 1)
    corrupt (&d->r, d->r.off, "too many inline contexts");
  if (set->num_nodes == d->nodes_cap)
    set->nodes = xrealloc (set->nodes,
			   (d->nodes_cap *= 2) * sizeof *set->nodes);
  uint32_t n = set->num_nodes++;
  struct probe_node *node = &set->nodes[n];
  node->guid = guid;
  node->call_index = call_index;
  node->parent = parent;
  node->first_child = PROBE_NO_NODE;
  node->next_sibling = PROBE_NO_NODE;
  if (parent != PROBE_NO_NODE)
    {
      node->next_sibling = set->nodes[parent].first_child;
      set->nodes[parent].first_child = n;
    }
  else
    index_table_add (&d->top, s, guid, n);
  return n;
}

/* Decode one FUNCTION record (and its inlinees) below PARENT at
   CALL_INDEX.  */
static void
decode_function (struct decoder *d, uint32_t parent, uint32_t call_index,
		 unsigned depth)
{
  struct reader *r = &d->r;
  size_t start = r->off;

  if (depth > MAX_INLINE_DEPTH)
    corrupt (r, start, "inline nesting deeper than %d", MAX_INLINE_DEPTH);
  uint64_t guid = read_u64 (r, "function GUID");
  uint64_t num_probes = read_uleb (r, "probe count");
  uint64_t num_inlinees = read_uleb (r, "inlinee count");
  /* A probe takes at least 3 bytes and an inlinee at least 11, so
     larger counts cannot be right; checking here keeps a corrupt count
     from looping or allocating for long.  */
  if (num_probes > (r->size - r->off) / 3
      || num_inlinees > (r->size - r->off) / 11)
    corrupt (r, start, "function record with %" PRIu64 " probes and %"
	     PRIu64 " inlinees in %zu bytes", num_probes, num_inlinees,
	     r->size - r->off);
  uint32_t node = get_node (d, parent, call_index, guid);

  for (uint64_t i = 0; i < num_probes; i++)
    {
      size_t pstart = r->off;
      uint64_t index = read_uleb (r, "probe index");
      unsigned kind = read_u8 (r, "probe kind");
      struct probe p;
      if (index == 0 || index > UINT32_MAX)
	corrupt (r, pstart, "probe index %" PRIu64, index);
      p.index = index;
      p.type = probe_kind_type (kind);
      p.attr = probe_kind_attr (kind);
      if (p.type > PROBE_DIRECT_CALL)
	corrupt (r, pstart, "unknown probe type %u", p.type);
      if (probe_kind_delta (kind))
	p.addr = d->prev_addr + (uint64_t) read_sleb (r, "probe address delta");
      else
	p.addr = read_u64 (r, "probe address");
      d->prev_addr = p.addr;
      p.node = node;
      if (d->set->num_probes == d->probes_cap)
	d->set->probes = xrealloc (d->set->probes, (d->probes_cap *= 2)
				   * sizeof *d->set->probes);
      d->set->probes[d->set->num_probes++] = p;
    }

  for (uint64_t i = 0; i < num_inlinees; i++)
    {
      size_t istart = r->off;
      /* Call site 0 is not a probe, but the plugin writes it for the
	 .part function of a split function inlined back into the
	 rest, and llvm-profgen accepts it: so do we.  */
      uint64_t site = read_uleb (r, "inlinee call-site index");
      if (site > UINT32_MAX)
	corrupt (r, istart, "inlinee call-site index %" PRIu64, site);
      decode_function (d, node, site, depth + 1);
    }
}

void
probe_decode (const struct elf_file *elf, struct probe_set *set)
{
  const struct elf_section *psec = elf_find_section (elf, ".pseudo_probe");
  const struct elf_section *dsec
    = elf_find_section (elf, ".pseudo_probe_desc");

  memset (set, 0, sizeof *set);
  if (!psec || psec->size == 0 || psec->type == SHT_NOBITS)
    lp_fatal (NULL, "%s has no pseudo probes; build it with "
	      "-fplugin-arg-latepgo-probes", elf->path);
  if (!dsec)
    lp_fatal (elf->path, "section .pseudo_probe without "
	      ".pseudo_probe_desc");
  decode_descs (elf, dsec, set);

  struct decoder d;
  memset (&d, 0, sizeof d);
  d.r.p = elf_section_data (elf, psec);
  d.r.size = psec->size;
  d.r.bin = elf->path;
  d.r.sec = psec->name;
  d.set = set;
  d.nodes_cap = 64;
  d.probes_cap = 256;
  set->nodes = xmalloc (d.nodes_cap * sizeof *set->nodes);
  set->probes = xmalloc (d.probes_cap * sizeof *set->probes);
  index_table_init (&d.top);
  while (d.r.off < d.r.size)
    decode_function (&d, PROBE_NO_NODE, 0, 0);
  index_table_free (&d.top);
}

const char *
probe_type_name (unsigned type)
{
  switch (type)
    {
    case PROBE_BLOCK: return "Block";
    case PROBE_INDIRECT_CALL: return "IndirectCall";
    case PROBE_DIRECT_CALL: return "DirectCall";
    default: return "?";
    }
}

/* Name of GUID for printing.  */
static const char *
node_name (const struct probe_set *set, uint64_t guid)
{
  const struct probe_desc *desc = probe_find_desc (set, guid);
  return desc ? desc->name : "?";
}

/* Print " @ CALLER:CALLPROBE" for each frame above NODE, outermost
   first.  */
static void
print_context (FILE *f, const struct probe_set *set, uint32_t node)
{
  const struct probe_node *n = &set->nodes[node];
  if (n->parent == PROBE_NO_NODE)
    return;
  print_context (f, set, n->parent);
  fprintf (f, " @ %s:%u", node_name (set, set->nodes[n->parent].guid),
	   n->call_index);
}

void
probe_print (FILE *f, const struct probe_set *set)
{
  for (size_t i = 0; i < set->num_probes; i++)
    {
      const struct probe *p = &set->probes[i];
      uint64_t guid = set->nodes[p->node].guid;
      fprintf (f, "%" PRIu64 " %s %u %s 0x%" PRIx64 "%s", guid,
	       node_name (set, guid), p->index, probe_type_name (p->type),
	       p->addr, (p->attr & PROBE_ATTR_DANGLING) ? " dangling" : "");
      print_context (f, set, p->node);
      fputc ('\n', f);
    }
}
