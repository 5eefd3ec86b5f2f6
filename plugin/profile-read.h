/* profile-read.h: the indexed profile (profile-read.cc).  */

#ifndef LATEPGO_PROFILE_READ_H
#define LATEPGO_PROFILE_READ_H

/* One record of a profile: a function's counters for one checksum.  */
struct lp_profile_record
{
  unsigned HOST_WIDE_INT hash;
  unsigned n_counters;
  const void *counters;		/* Little-endian u64s inside the file.  */
  const void *values;		/* Its value data, checked (format/).  */
  size_t values_size;
};

/* One value of a value site: an indirect call's target (the MD5 of its
   profile name) and how often it was called.  */
struct lp_value_count
{
  unsigned HOST_WIDE_INT value;
  gcov_type count;
};

/* What the profile's summary says about the whole program.  */
struct lp_profile_summary
{
  unsigned HOST_WIDE_INT max_function_count;
  unsigned HOST_WIDE_INT max_block_count;
  /* The smallest of the largest counts that make up 99% of the sum of
     all counts (the summary's 990000 entry, LLVM's hot count): a call
     counted at least this often is hot.  0 when the profile says
     nothing.  */
  unsigned HOST_WIDE_INT hot_count;
};

extern lp_profile_summary lp_summary;
/* The variant bits of the profile's header (doc/indexed-format.md).  */
extern unsigned HOST_WIDE_INT lp_profile_variant;

extern bool lp_profile_load (const char *);
extern const vec<lp_profile_record> *lp_profile_lookup (const char *);
extern const char *lp_profile_name_of_hash (unsigned HOST_WIDE_INT);
extern const vec<const char *> *lp_profile_static_files (const char *);
extern gcov_type lp_profile_counter (const lp_profile_record *, unsigned);
extern gcov_type lp_profile_first_run (const lp_profile_record *);
extern unsigned lp_profile_icall_targets (const lp_profile_record *,
					  unsigned, lp_value_count *,
					  unsigned, gcov_type *);
extern void lp_profile_memop_sizes (const lp_profile_record *, unsigned,
				    gcov_type *);

#endif /* LATEPGO_PROFILE_READ_H */
