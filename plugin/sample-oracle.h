/* sample-oracle.h: write-sample=FILE, exact counts written as a sample
   profile (sample-oracle.cc).  */

#ifndef LATEPGO_SAMPLE_ORACLE_H
#define LATEPGO_SAMPLE_ORACLE_H

/* Use mode, while annotating: the value profile said the indirect call
   STMT went COUNT times to the function whose profile name has MD5
   TARGET_HASH, or the memop call STMT was given SIZE COUNT times.  */
void lp_oracle_note_icall (gimple *stmt, unsigned HOST_WIDE_INT target_hash,
			   gcov_type count);
void lp_oracle_note_size (gimple *stmt, unsigned HOST_WIDE_INT size,
			  gcov_type count);
void lp_oracle_function (cgraph_node *, const char *,
			 unsigned HOST_WIDE_INT);
bool lp_oracle_finish (void);

#endif
