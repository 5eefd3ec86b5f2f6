/* vect-guard.cc: keep GCC 12's loop vectorizer from dividing by zero
   on a profile's counts.

   When vect_do_peeling (tree-vect-loop-manip.cc) adds an epilogue loop
   behind a vectorized loop, it scales every block of the epilogue back
   up by its own count over that count times 0.9:

     bb->count = bb->count.apply_scale (bb->count,
                                        bb->count.apply_probability
                                          (prob_vector));

   profile_count::apply_scale returns early for a precise zero and for a
   numerator equal to the denominator, and divides otherwise.  A count
   of 0 whose quality is AFDO or ADJUSTED is neither: times the guessed
   probability 0.9 it becomes a GUESSED 0, a different count, and the
   division by its value 0 stops the compiler with SIGFPE ("internal
   compiler error: Floating point exception" in pass vect).  Such
   zeros are ordinary in a profiled build: sample-use gives a block
   without samples that may still have run an AFDO zero (annotate.cc,
   as GCC's own auto-profile.cc does), and GCC's inliner and loop
   transforms turn small counts of either quality into AFDO or
   ADJUSTED zeros when they scale a body down (an instrumented count
   of 3 in a callee entered 1000 times, inlined at a call site run 100
   times).  So a profile of any kind can crash the vectorizer, and
   fixing the counts where latepgo writes them would not reach the
   zeros GCC makes later.  GCC 13 scales the epilogue another way.

   This pass runs just before the vectorizer and makes every such zero
   in a loop a GUESSED zero (profile_count::guessed), for which
   apply_scale returns early.  It changes nothing else GCC decides:
   none of the three is profile_count::zero (), the precise zero that
   means never executed (predict.cc:probably_never_executed), and all
   three count 0 for hotness and are not reliable_p ().  */

#include "gcc-common.h"
#include "vect-guard.h"
#include "dump.h"

namespace {

/* Whether COUNT is a zero that GCC 12's vect_do_peeling would divide
   by: its value 0, a quality above GUESSED, not the precise zero.  */

bool
vect_divides_by_zero_p (profile_count count)
{
  if (!count.initialized_p () || count == profile_count::zero ())
    return false;
  if (count.quality () != AFDO && count.quality () != ADJUSTED)
    return false;
  return count.apply_probability (profile_probability::guessed_always ()
				  .apply_scale (9, 10)).to_gcov_type () == 0;
}

unsigned int
guard_loop_counts (function *fun)
{
  basic_block bb;
  unsigned n = 0;
  FOR_EACH_BB_FN (bb, fun)
    if (bb_loop_depth (bb) > 0 && vect_divides_by_zero_p (bb->count))
      {
	bb->count = bb->count.guessed ();
	n++;
      }
  if (n && lp_dump_stream ())
    fprintf (lp_dump_stream (), "vect-guard %s zeros=%u\n",
	     function_name (fun), n);
  return 0;
}

const pass_data pass_data_vect_guard =
{
  GIMPLE_PASS,			/* type */
  "latepgo-vect-guard",		/* name */
  OPTGROUP_NONE,		/* optinfo_flags */
  TV_NONE,			/* tv_id */
  PROP_cfg,			/* properties_required */
  0,				/* properties_provided */
  0,				/* properties_destroyed */
  0,				/* todo_flags_start */
  0,				/* todo_flags_finish */
};

class pass_vect_guard : public gimple_opt_pass
{
public:
  pass_vect_guard (gcc::context *ctxt)
    : gimple_opt_pass (pass_data_vect_guard, ctxt)
  {}

  /* Only functions with a profile: without one no count has the
     qualities this pass looks for.  The pass is cheap, so it does not
     try to tell which loops the vectorizer will take.  */
  bool gate (function *fun) final override
  {
    return profile_status_for_fn (fun) == PROFILE_READ;
  }

  unsigned int execute (function *fun) final override
  {
    return guard_loop_counts (fun);
  }
};

} // anon namespace

void
lp_vect_guard_register (const char *name)
{
  static struct register_pass_info info;
  info.pass = new pass_vect_guard (g);
  info.reference_pass_name = "vect";
  info.ref_pass_instance_number = 1;
  info.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
