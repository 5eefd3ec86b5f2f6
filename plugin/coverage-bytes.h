/* coverage-bytes.h: the byte arrays of the coverage modes and the
   stores into them (coverage-bytes.cc).  */

#ifndef LATEPGO_COVERAGE_BYTES_H
#define LATEPGO_COVERAGE_BYTES_H

extern tree lp_coverage_bytes_var (tree, int);
extern gimple *lp_coverage_byte_store (tree, tree, int);

#endif /* LATEPGO_COVERAGE_BYTES_H */
