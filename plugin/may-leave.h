/* may-leave.h: statements that may leave a function (may-leave.cc).  */

#ifndef LATEPGO_MAY_LEAVE_H
#define LATEPGO_MAY_LEAVE_H

extern void lp_may_leave_begin (void);
extern void lp_may_leave_end (void);
extern bool lp_stmt_may_leave_p (gimple *);
extern bool lp_function_may_leave_p (void);

#endif /* LATEPGO_MAY_LEAVE_H */
