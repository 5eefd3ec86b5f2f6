/* renamed-unit.h: a file renamed since training (renamed-unit.cc).  */

#ifndef LATEPGO_RENAMED_UNIT_H
#define LATEPGO_RENAMED_UNIT_H

extern void lp_renamed_unit_detect (void);
extern void lp_renamed_unit_end (void);
extern char *lp_old_profile_name (tree, const char *);
extern char *lp_known_profile_name (cgraph_node *);

#endif /* LATEPGO_RENAMED_UNIT_H */
