/* prof-vdata.c: the value-profile data of a raw profile: the targets
   of the module's indirect calls and the sizes of its memops
   (prof-values.c keeps them per site) encoded as LLVM's ValueProfData
   blocks after the names (doc/raw-format.md section 8), merged with
   what a profile file already holds; and the links of the memop
   sites' value nodes, made at start-up (lp_memop_link).

   No address is written.  A reader maps a target to the record whose
   FunctionPointer it equals, and only that; so a record with an
   address gets its NameRef as FunctionPointer (prof-writer.c), and a
   target the NameRef of the record whose function is at its address,
   or 0 (what readers make of an address no record has: a function
   that is not instrumented).  The profile is then the same in every
   run of a position-independent program, and profiles of different
   runs merge (prof-merge.c compares the records byte for byte).

   The counts are taken from the nodes as they are written (and the
   nodes set back to zero), so a second write from the same process
   writes only what was counted since the first, like the counters.

   No malloc (the exit path): memory from lp_alloc, sorting by heap
   sort.  */

#include "prof-internal.h"

/* One (site, value, count) of the module, site in the module-wide
   numbering of the image: per written record its indirect-call sites,
   then its memop sites, as the record's list heads.  */
struct triple
{
  uint64_t site, value, count;
};

/* Site then value, increasing.  */
static int
by_value (const struct triple *a, const struct triple *b)
{
  if (a->site != b->site)
    return a->site < b->site ? -1 : 1;
  return a->value < b->value ? -1 : a->value > b->value;
}

/* Site increasing, then count decreasing, then value increasing (the
   order latepgo-profdata writes a site's values in).  */
static int
by_count (const struct triple *a, const struct triple *b)
{
  if (a->site != b->site)
    return a->site < b->site ? -1 : 1;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return a->value < b->value ? -1 : a->value > b->value;
}

typedef int (*triple_cmp) (const struct triple *, const struct triple *);

static void
sift_down (struct triple *t, size_t root, size_t n, triple_cmp cmp)
{
  for (;;)
    {
      size_t child = 2 * root + 1;
      if (child >= n)
	return;
      if (child + 1 < n && cmp (&t[child], &t[child + 1]) < 0)
	child++;
      if (cmp (&t[root], &t[child]) >= 0)
	return;
      struct triple tmp = t[root];
      t[root] = t[child];
      t[child] = tmp;
      root = child;
    }
}

static void
heap_sort (struct triple *t, size_t n, triple_cmp cmp)
{
  for (size_t i = n / 2; i-- > 0; )
    sift_down (t, i, n, cmp);
  for (size_t end = n; end-- > 1; )
    {
      struct triple tmp = t[0];
      t[0] = t[end];
      t[end] = tmp;
      sift_down (t, 0, end, cmp);
    }
}

/* Whether the block of nodes at N is a table block (latepgo-abi.h):
   its first u64 holds the distance from it to TABLES, the module's
   __latepgo_memop_tables.  */

static int
memop_table_block_p (const struct latepgo_value_node *n, const char *tables)
{
  return n->value == (unsigned long long) (tables - (const char *) n);
}

/* Link the value nodes of the module's memop sites (latepgo-abi.h):
   LATEPGO_SEC_VMOP is a sequence of blocks of LATEPGO_MEMOP_BUCKETS
   nodes, each function's table block and then its sites, each node of
   a site holding its range's value; each site's nodes become one
   list, in range order, as the writers read lists (ours, and
   compiler-rt's when its runtime writes the module).  Run at start-up,
   before anything writes; counting needs no links.  A site whose
   values are not the ranges' (not an object of this latepgo) ends the
   walk, with a warning, rather than be linked wrong.  TABLES is
   __latepgo_memop_tables (prof-core.c, which calls this), to which
   table blocks refer.  */

void
lp_memop_link (const char *tables)
{
  struct latepgo_value_node *end;
  struct latepgo_value_node *n = lp_memop_nodes (&end);
  for (; n && end - n >= LATEPGO_MEMOP_BUCKETS; n += LATEPGO_MEMOP_BUCKETS)
    {
      if (memop_table_block_p (n, tables))
	continue;
      for (unsigned b = 0; b < LATEPGO_MEMOP_BUCKETS; b++)
	if (n[b].value != latepgo_memop_bucket_min (b))
	  {
	    lp_warning ("memop value nodes of an unknown layout; memop sizes "
			"from there on are not written");
	    return;
	  }
      for (unsigned b = 0; b + 1 < LATEPGO_MEMOP_BUCKETS; b++)
	n[b].next = &n[b + 1];
    }
}

/* The number of value sites (indirect calls, then memops) of record R
   whose value lists it points to (its Values field), or 0.  */

uint64_t
lp_record_value_sites (const struct latepgo_data_record *r)
{
  return r->values ? (uint64_t) r->num_value_sites[LP_VK_INDIRECT_CALL]
		     + r->num_value_sites[LP_VK_MEMOP] : 0;
}

/* Whether written record R has value sites, so a block.  */

static int
has_sites (const struct latepgo_data_record *r)
{
  return r->num_value_sites[LP_VK_INDIRECT_CALL]
	 || r->num_value_sites[LP_VK_MEMOP];
}

/* The first site of kind KIND among record R's value sites.  */

static uint64_t
kind_first_site (const struct latepgo_data_record *r, uint32_t kind)
{
  return kind == LP_VK_MEMOP ? r->num_value_sites[LP_VK_INDIRECT_CALL] : 0;
}

static uint32_t
rd32 (const unsigned char *p)
{
  uint32_t v;
  memcpy (&v, p, 4);
  return v;
}

/* Bytes of one kind with N sites holding V values in a block.  */

static uint64_t
kind_size (uint64_t n, uint64_t v)
{
  return 8 + n + lp_pad8 (8 + n) + 16 * v;
}

/* The NameRef of the function at address ADDR in FNS, the table of
   SIZE slots function_addresses made, or 0.  */

static uint64_t
name_at (const struct triple *fns, size_t size, uint64_t addr)
{
  if (!addr)
    return 0;
  for (size_t h = lp_mix64 (addr) & (size - 1); fns[h].site;
       h = (h + 1) & (size - 1))
    if (fns[h].site == addr)
      return fns[h].value;
  return 0;
}

/* The (address, NameRef) pairs of the records of SECS that have an
   address, as an open-addressing table keyed by address (SITE, VALUE)
   of *SIZE slots, a power of two at least twice their number, lp_alloc'd
   (*ALLOC bytes); of records that share an address, the smaller
   NameRef.  NULL when memory ran out.  A table, not a sorted array: a
   write of SQLite's training binary spent 0.47M instructions sorting
   its 2,158 addresses, every time it wrote.  */

static struct triple *
function_addresses (const struct lp_sections *secs, size_t *size,
		    size_t *alloc)
{
  size_t n = 0;
  for (const struct latepgo_data_record *r = secs->data_begin;
       r && r < secs->data_end; r++)
    n += r->function_ptr != 0;
  size_t slots = 16;
  while (slots < 2 * n)
    slots *= 2;
  *alloc = slots * sizeof (struct triple);
  struct triple *fns = lp_alloc (*alloc);
  if (!fns)
    return NULL;
  for (const struct latepgo_data_record *r = secs->data_begin;
       r && r < secs->data_end; r++)
    if (r->function_ptr)
      {
	size_t h = lp_mix64 (r->function_ptr) & (slots - 1);
	while (fns[h].site && fns[h].site != r->function_ptr)
	  h = (h + 1) & (slots - 1);
	if (!fns[h].site || r->name_ref < fns[h].value)
	  {
	    fns[h].site = r->function_ptr;
	    fns[h].value = r->name_ref;
	  }
      }
  *size = slots;
  return fns;
}

/* Add the values of the value-data blocks OLD (OLD_SIZE bytes, those
   of a profile with IMG's records) to T at *NT (room for them all:
   OLD_SIZE / 16).  Blocks or kinds that do not describe IMG's sites
   are skipped.  */

static void
take_old (const struct lp_image *img, const unsigned char *old,
	  size_t old_size, struct triple *t, size_t *nt)
{
  const struct latepgo_data_record *recs
    = (const struct latepgo_data_record *) (img->buf + img->data_off);
  size_t pos = 0;
  for (uint64_t i = 0; i < img->num_records; i++)
    {
      if (!has_sites (&recs[i]))
	continue;
      if (old_size - pos < 8)
	return;
      uint32_t total = rd32 (old + pos), kinds = rd32 (old + pos + 4);
      if (total < 8 || total % 8 || total > old_size - pos)
	return;
      const unsigned char *b = old + pos, *end = b + total;
      const unsigned char *k = b + 8;
      pos += total;
      for (uint32_t j = 0; j < kinds && end - k >= 8; j++)
	{
	  uint32_t kind = rd32 (k), n = rd32 (k + 4);
	  if ((uint64_t) n > (uint64_t) (end - k) - 8)
	    break;
	  const unsigned char *counts = k + 8;
	  const unsigned char *pair = k + 8 + n + lp_pad8 (8 + n);
	  uint64_t nv = 0;
	  for (uint32_t s = 0; s < n; s++)
	    nv += counts[s];
	  if (pair > end || (uint64_t) (end - pair) / 16 < nv)
	    break;
	  k = pair + 16 * nv;
	  if (kind >= LP_NUM_VALUE_KINDS
	      || n != recs[i].num_value_sites[kind])
	    continue;
	  uint64_t first = img->site_base[i] + kind_first_site (&recs[i], kind);
	  for (uint32_t s = 0; s < n; s++)
	    for (unsigned c = 0; c < counts[s]; c++, pair += 16)
	      {
		memcpy (&t[*nt].value, pair, 8);
		memcpy (&t[*nt].count, pair + 8, 8);
		t[*nt].site = first + s;
		(*nt)++;
	      }
	}
    }
}

/* Encode IMG's value data into IMG->vdata: the values counted since
   the last write, taken from the nodes, plus the OLD_SIZE bytes of
   value data OLD of the profile it is merged into (or none).  Return 0,
   or -1 after reporting that memory ran out (the profile then has no
   value data and its records no value sites).  */

int
lp_vdata_build (struct lp_image *img, const unsigned char *old,
		size_t old_size)
{
  struct latepgo_data_record *recs
    = (struct latepgo_data_record *) (img->buf + img->data_off);
  size_t max = old_size / 16;
  for (size_t i = 0; i < img->num_vsrc; i++)
    for (uint64_t s = 0; s < lp_record_value_sites (img->vsrc[i].rec); s++)
      {
	struct latepgo_value_node *const *heads
	  = (struct latepgo_value_node *const *) (uintptr_t)
	    img->vsrc[i].rec->values;
	for (const struct latepgo_value_node *n
	       = __atomic_load_n (&heads[s], __ATOMIC_ACQUIRE);
	     n; n = __atomic_load_n (&n->next, __ATOMIC_ACQUIRE))
	  max++;
      }

  struct lp_sections secs;
  struct triple *fns;
  size_t fns_alloc;
  lp_get_sections (&secs);
  size_t fns_slots;
  fns = function_addresses (&secs, &fns_slots, &fns_alloc);
  if (!fns)
    goto nomem;
  size_t t_alloc = (max ? max : 1) * sizeof (struct triple);
  struct triple *t = lp_alloc (t_alloc);
  if (!t)
    {
      lp_free (fns, fns_alloc);
      goto nomem;
    }
  size_t nt = 0;
  for (size_t i = 0; i < img->num_vsrc; i++)
    {
      const struct latepgo_data_record *r = img->vsrc[i].rec;
      uint64_t out = img->vsrc[i].out;
      if (r->num_value_sites[LP_VK_INDIRECT_CALL]
	  != recs[out].num_value_sites[LP_VK_INDIRECT_CALL]
	  || r->num_value_sites[LP_VK_MEMOP]
	     != recs[out].num_value_sites[LP_VK_MEMOP])
	continue;
      struct latepgo_value_node **heads
	= (struct latepgo_value_node **) (uintptr_t) r->values;
      uint64_t memop_first = kind_first_site (r, LP_VK_MEMOP);
      for (uint64_t s = 0; s < lp_record_value_sites (r); s++)
	for (struct latepgo_value_node *n
	       = __atomic_load_n (&heads[s], __ATOMIC_ACQUIRE);
	     n && nt < max; n = __atomic_load_n (&n->next, __ATOMIC_ACQUIRE))
	  {
	    uint64_t c = __atomic_exchange_n (&n->count, 0, __ATOMIC_RELAXED);
	    if (!c)
	      continue;
	    t[nt].site = img->site_base[out] + s;
	    /* A target is named, a memop's range value kept.  */
	    t[nt].value = (s < memop_first ? name_at (fns, fns_slots, n->value)
			   : n->value);
	    t[nt].count = c;
	    nt++;
	  }
    }
  lp_free (fns, fns_alloc);
  if (old)
    take_old (img, old, old_size, t, &nt);

  /* Add up equal values of a site, then order each site by count and
     keep what a raw profile can hold (255 values a site).  */
  heap_sort (t, nt, by_value);
  size_t m = 0;
  for (size_t i = 0; i < nt; i++)
    if (m && t[m - 1].site == t[i].site && t[m - 1].value == t[i].value)
      t[m - 1].count = (t[m - 1].count + t[i].count < t[m - 1].count
			? UINT64_MAX : t[m - 1].count + t[i].count);
    else if (t[i].count)
      t[m++] = t[i];
  heap_sort (t, m, by_count);

  /* A block per record with sites: its header, then each kind.  */
  size_t size = 0;
  for (uint64_t i = 0; i < img->num_records; i++)
    {
      size += has_sites (&recs[i]) ? 8 : 0;
      for (uint32_t kind = 0; kind < LP_NUM_VALUE_KINDS; kind++)
	if (recs[i].num_value_sites[kind])
	  size += kind_size (recs[i].num_value_sites[kind], 0);
    }
  size += 16 * m;
  img->vdata_alloc = size ? size : 1;
  img->vdata = lp_alloc (img->vdata_alloc);
  if (!img->vdata)
    {
      lp_free (t, t_alloc);
      goto nomem;
    }

  size_t at = 0, ti = 0;
  for (uint64_t i = 0; i < img->num_records; i++)
    {
      if (!has_sites (&recs[i]))
	continue;
      unsigned char *b = img->vdata + at;
      uint32_t total = 8, kinds = 0;
      for (uint32_t kind = 0; kind < LP_NUM_VALUE_KINDS; kind++)
	{
	  uint64_t n = recs[i].num_value_sites[kind];
	  if (!n)
	    continue;
	  unsigned char *k = b + total;
	  unsigned char *counts = k + 8;
	  unsigned char *pair = k + 8 + n + lp_pad8 (8 + n);
	  uint64_t first = img->site_base[i] + kind_first_site (&recs[i], kind);
	  uint64_t nv = 0;
	  for (uint64_t s = 0; s < n; s++)
	    {
	      uint64_t site = first + s;
	      while (ti < m && t[ti].site < site)
		ti++;
	      unsigned kept = 0;
	      for (; ti < m && t[ti].site == site; ti++)
		if (kept < 255)
		  {
		    memcpy (pair + 16 * nv, &t[ti].value, 8);
		    memcpy (pair + 16 * nv + 8, &t[ti].count, 8);
		    kept++;
		    nv++;
		  }
	      counts[s] = (unsigned char) kept;
	    }
	  uint32_t sites = (uint32_t) n;
	  memcpy (k, &kind, 4);
	  memcpy (k + 4, &sites, 4);
	  total += (uint32_t) kind_size (n, nv);
	  kinds++;
	}
      memcpy (b, &total, 4);
      memcpy (b + 4, &kinds, 4);
      at += total;
    }
  img->vdata_size = at;
  lp_free (t, t_alloc);
  return 0;

 nomem:
  lp_error ("cannot allocate memory for the value profiles (indirect-call "
	    "targets, memop sizes); the profile has none");
  for (uint64_t i = 0; i < img->num_records; i++)
    recs[i].num_value_sites[LP_VK_INDIRECT_CALL]
      = recs[i].num_value_sites[LP_VK_MEMOP] = 0;
  img->vdata_size = 0;
  return -1;
}

/* Zero the counts of the values of this module's value sites
   (lp_reset_counters): the lists stay, so each site keeps its
   values.  */

void
lp_vdata_reset (void)
{
  struct lp_sections secs;
  lp_get_sections (&secs);
  for (const struct latepgo_data_record *r = secs.data_begin;
       r && r < secs.data_end; r++)
    {
      struct latepgo_value_node **heads
	= (struct latepgo_value_node **) (uintptr_t) r->values;
      for (uint64_t s = 0; s < lp_record_value_sites (r); s++)
	for (struct latepgo_value_node *n
	       = __atomic_load_n (&heads[s], __ATOMIC_ACQUIRE);
	     n; n = __atomic_load_n (&n->next, __ATOMIC_ACQUIRE))
	  __atomic_store_n (&n->count, 0, __ATOMIC_RELAXED);
    }
}

/* The length of the value data of the profile at OFFSET of FD whose
   header is HDR, at VD_OFF of FD with AVAIL bytes from there to the end
   of the file: one block per record with value sites, each starting
   with its size.  UINT64_MAX if the records or blocks cannot be read
   or do not fit.  */

uint64_t
lp_vdata_length (int fd, uint64_t offset, const uint64_t *hdr,
		 uint64_t vd_off, uint64_t avail)
{
  uint64_t rec_off = offset + LP_HEADER_SIZE + hdr[LP_H_IDS_SIZE];
  uint64_t len = 0;
  for (uint64_t i = 0; i < hdr[LP_H_DATA_SIZE]; i++)
    {
      struct latepgo_data_record r;
      if (lp_pread_all (fd, &r, sizeof r, rec_off + i * sizeof r) != 0)
	return UINT64_MAX;
      if (!has_sites (&r))
	continue;
      uint32_t total;
      if (avail - len < 8
	  || lp_pread_all (fd, &total, 4, vd_off + len) != 0)
	return UINT64_MAX;
      if (total < 8 || total % 8 || total > avail - len)
	return UINT64_MAX;
      len += total;
    }
  return len;
}
