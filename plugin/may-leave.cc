/* may-leave.cc: which statements may end their function other than
   by returning (exit, longjmp, an exception, exec, a call that never
   returns).  Exact counts need a fake edge to EXIT after each of them
   (cfg-graph.cc).

   The rule is GCC's (tree-cfg.cc:stmt_can_terminate_bb_p), which
   -fprofile-generate uses, with three differences:
     - internal functions never leave unless they are noreturn: they
       become inline code or checks, not calls the program leaves from;
     - a call to a function of this file whose body cannot leave either
       (transitively, decided for the whole file before any function is
       changed) does not leave.  Its body must be the one that runs: an
       interposable function (a public one in a -fPIC build) could be
       replaced at run time and is treated as any external call;
     - a builtin that cannot throw must also be leaf, as promote.cc
       asks: one that can call back into this file may leave through
       that (exec and fork are not leaf; a successful exec ends the
       image once the runtime has written the counts).
   The first two end fewer blocks than GCC, the last one a few more.
   A call that loops forever is taken to return: the program is then
   ended by a signal, which writes no profile, or by a handler that
   calls exit, which loses the exactness as it loses promoted counts.

   Generate and use builds decide the same, from the same bodies at the
   same point.  */

#include "gcc-common.h"
#include "may-leave.h"

/* Functions of this file whose bodies cannot leave.  */
static hash_set<tree> *returning_fns;

/* The function of this file that a call to FNDECL runs, if its body
   is known to be the one that runs; else NULL.  */

static cgraph_node *
local_callee (tree fndecl)
{
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!node)
    return NULL;
  enum availability avail;
  node = node->ultimate_alias_target (&avail);
  if (!node || avail < AVAIL_AVAILABLE || node->thunk
      || !gimple_has_body_p (node->decl)
      || !DECL_STRUCT_FUNCTION (node->decl)
      || !DECL_STRUCT_FUNCTION (node->decl)->cfg)
    return NULL;
  return node;
}

/* Whether call STMT may leave, not counting calls to functions of this
   file with bodies: for those, set *CALLEE and return false.  */

static bool
call_may_leave_1 (gcall *stmt, cgraph_node **callee)
{
  int flags = gimple_call_flags (stmt);
  *callee = NULL;
  if (flags & (ECF_NORETURN | ECF_RETURNS_TWICE))
    return true;
  if (gimple_call_internal_p (stmt))
    return false;
  tree fndecl = gimple_call_fndecl (stmt);
  if (!fndecl)
    return true;
  if (fndecl_built_in_p (fndecl))
    return !((flags & ECF_NOTHROW) && (flags & ECF_LEAF));
  if ((flags & (ECF_CONST | ECF_PURE))
      && !(flags & ECF_LOOPING_CONST_OR_PURE))
    return false;
  *callee = local_callee (fndecl);
  return *callee == NULL;
}

/* Whether STMT of FN may leave FN other than by returning, calls to
   functions of this file aside (*CALLEE, as call_may_leave_1).  */

static bool
stmt_may_leave_1 (function *fn, gimple *stmt, cgraph_node **callee)
{
  *callee = NULL;
  if (stmt_can_throw_external (fn, stmt))
    return true;
  if (gcall *call = dyn_cast <gcall *> (stmt))
    return call_may_leave_1 (call, callee);
  if (gasm *asm_stmt = dyn_cast <gasm *> (stmt))
    return gimple_asm_volatile_p (asm_stmt) || gimple_asm_input_p (asm_stmt);
  return false;
}

/* Decide which functions of this file cannot leave: those whose
   statements cannot, calls to each other included (a fixpoint from
   "none leaves": a function leaves if it has a statement that leaves
   or calls one that leaves).  Call before changing any function.  */

void
lp_may_leave_begin (void)
{
  cgraph_node *node;
  hash_map<cgraph_node *, vec<cgraph_node *> > callers;
  hash_set<cgraph_node *> leaves;
  auto_vec<cgraph_node *> work;

  returning_fns = new hash_set<tree>;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      if (local_callee (node->decl) != node)
	continue;
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      bool leaves_itself = false;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fn)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
	     !leaves_itself && !gsi_end_p (gsi); gsi_next (&gsi))
	  {
	    cgraph_node *callee;
	    if (stmt_may_leave_1 (fn, gsi_stmt (gsi), &callee))
	      leaves_itself = true;
	    else if (callee && callee != node)
	      callers.get_or_insert (callee).safe_push (node);
	  }
      if (leaves_itself)
	{
	  leaves.add (node);
	  work.safe_push (node);
	}
    }

  /* Whoever calls a function that leaves, leaves.  */
  while (!work.is_empty ())
    {
      cgraph_node *n = work.pop ();
      if (vec<cgraph_node *> *v = callers.get (n))
	for (cgraph_node *caller : *v)
	  if (!leaves.add (caller))
	    work.safe_push (caller);
    }

  FOR_EACH_DEFINED_FUNCTION (node)
    if (local_callee (node->decl) == node && !leaves.contains (node))
      returning_fns->add (node->decl);

  for (auto it = callers.begin (); it != callers.end (); ++it)
    (*it).second.release ();
}

void
lp_may_leave_end (void)
{
  delete returning_fns;
  returning_fns = NULL;
}

/* Whether a call to CALLEE (as call_may_leave_1 gives it) may leave.  */

static bool
callee_may_leave_p (cgraph_node *callee)
{
  return callee && !(returning_fns && returning_fns->contains (callee->decl));
}

/* Whether execution may not go on after STMT of the current function:
   STMT is a call or asm that may leave it, or may throw out of it.  */

bool
lp_stmt_may_leave_p (gimple *stmt)
{
  cgraph_node *callee;
  return (stmt_may_leave_1 (cfun, stmt, &callee)
	  || callee_may_leave_p (callee));
}

/* Whether a statement of the current function may leave it: only then
   do the graphs with and without exact calls differ (cfg-graph.cc).  */

bool
lp_function_may_leave_p (void)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (!is_gimple_debug (gsi_stmt (gsi))
	  && lp_stmt_may_leave_p (gsi_stmt (gsi)))
	return true;
  return false;
}
