/* preinline.h: the pre-inliner of latepgo-profgen --csprof, as
   llvm-profgen 14's (CSPreInliner.cpp), on by default with --csprof
   from branch stacks (--preinline, --no-preinline).  From IP samples
   it is off by default: its thresholds are llvm-profgen's, made for
   counts of executions, and IP samples give estimates (100 x samples
   per instruction) on which the hot threshold falls on the hot calls
   themselves (contexts.exp's program: hot count 617, its two hot calls
   617 and 617, neither inlined); sample-use then picks hot contexts
   itself (plugin/sample-inline.cc).

   From the context profile and the binary's code sizes it decides,
   top-down over the profiled call graph, which contexts of a function
   should be inlined, and folds the others into the function's base
   (context-less) profile:

   - thresholds from the profile summary of the contexts merged per
     function (SampleProfileSummaryBuilder's context-less summary): a
     call count is hot above the smallest of the largest line counts
     that make up 99% of the total, cold below the one for 99.9999%;
   - functions in top-down order: Tarjan's strongly connected
     components of the call graph of the context trie (each context's
     function calling the functions of its child contexts), callees
     first, then reversed; llvm-profgen sorts the members of a cycle
     by the hotness of its calls (scc_member_iterator), here they stay
     in Tarjan's order;
   - per function: its base profile is made by moving every context of
     it that was not inlined under the root, merged with the base when
     there is one, with its subtree (SampleContextTracker's
     promoteMergeContextSamplesTree); its children are the candidates,
     with the larger of the call site's target count and the callee's
     entry count, and the callee's size in that context; hottest
     first (then smaller, then larger GUID), a candidate is inlined when
     it is hot and smaller than 1500 bytes (llvm-profgen's
     --sample-profile-hot-inline-threshold; cold ones never:
     --sample-profile-cold-inline-threshold=0), and its children become
     candidates; until the function has grown to 12 times its size
     (at least 100 bytes, at most 10000);
   - an inlined context gets LLVM's ContextShouldBeInlined attribute
     (!Attributes: 2, with 1 when the binary inlined it too); the
     output has the base profiles and the inlined contexts.

   Sizes: each probe region's bytes count for the inline context of its
   first probe, and every inline context of the binary's probes is
   known, at 0 bytes when none of its probes owns code.  A context's
   size is that of the longest suffix of it that some code has, else
   that of any context ending with its function.  llvm-profgen takes
   each instruction's inline context from the DWARF line table instead,
   so sizes can differ where the two disagree.  */

#ifndef LATEPGO_PREINLINE_H
#define LATEPGO_PREINLINE_H

#include <stdio.h>

#include "cs-profile.h"

/* Run the pre-inliner over the NUM profiles *FUNCS of CS (compacted in
   place); print llvm-profgen's --debug-only=cs-preinliner lines to
   DEBUG when not NULL.  Returns the number of profiles left.  */
size_t cs_preinline (const struct cs_profile *cs, struct cs_func **funcs,
		     size_t num, FILE *debug);

#endif /* LATEPGO_PREINLINE_H */
