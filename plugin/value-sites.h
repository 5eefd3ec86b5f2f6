/* value-sites.h: the statements whose values are profiled, and their
   part of a function's checksum (value-sites.cc).  */

#ifndef LATEPGO_VALUE_SITES_H
#define LATEPGO_VALUE_SITES_H

/* A statement whose values are profiled (values.cc): the size of a
   memop or the target of an indirect call.  Neither has counters: the
   runtime keeps its values in value nodes, written as LLVM's value
   data of kind LP_VK_MEMOP or LP_VK_INDIRECT_CALL, INDEX numbering the
   function's sites of that kind.  */
struct lp_value_site
{
  gimple *stmt;
  bool icall;
  int index;
  /* A memop site that is a memcmp or bcmp, whose sizes older latepgo
     did not profile: left out of the checksum of their profiles
     (values.cc).  */
  bool cmp;
};

extern bool lp_memop_site_p (gimple *, int *);
extern bool lp_icall_site_p (gimple *);
extern void lp_find_value_sites (vec<lp_value_site> *, int *, int *, int *);
extern void lp_checksum_value_sites (const vec<lp_value_site> &, int,
				     vec<unsigned char> *, bool, bool);

#endif /* LATEPGO_VALUE_SITES_H */
