/* report.h: the report line of a use build (report.cc).  */

#ifndef LATEPGO_REPORT_H
#define LATEPGO_REPORT_H

extern void lp_report_unit (int, int, int, bool, int, int);

#endif /* LATEPGO_REPORT_H */
