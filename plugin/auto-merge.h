/* auto-merge.h: merging raw profiles on first use (auto-merge.cc).  */

#ifndef LATEPGO_AUTO_MERGE_H
#define LATEPGO_AUTO_MERGE_H

extern bool lp_auto_merge (const char *, const char *);

#endif /* LATEPGO_AUTO_MERGE_H */
