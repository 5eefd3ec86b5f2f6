/* dump.cc: -fplugin-arg-latepgo-dump=FILE, a log of what was done to
   each function, for people and for the testsuite.  One line per
   function:

     function NAME blocks=V edges=E fake=F tree=T counters=C split=S checksum=0xH

   V counts ENTRY and EXIT; E counts every edge of the instrumentation
   graph including the fake ones and the virtual EXIT->ENTRY edge (F of
   them are fake, the virtual one included); T are on the spanning
   tree; C carry counters (C = E - T - ignored); S is the number of
   blocks added to hold counters (split critical edges).  Then one
   indented line per edge:

       edge SRC->DST tree|counter N|ignored [fake] [critical] cost=X
   The file is opened for appending, so several compilations can share
   it.  */

#include "gcc-common.h"
#include "dump.h"
#include "cfg-graph.h"

static FILE *dump_stream;

void
lp_dump_open (const char *path)
{
  dump_stream = fopen (path, "a");
  if (!dump_stream)
    error ("latepgo: cannot open dump file %qs: %m", path);
}

/* Log function NAME (assembler name ASM_NAME) with graph G; SPLIT
   blocks were added for counters.  */

void
lp_dump_function (const char *name, const char *asm_name, lp_graph *g,
		  int split)
{
  unsigned i;
  lp_edge *le;

  if (!dump_stream)
    return;
  fprintf (dump_stream,
	   "function %s blocks=%d edges=%u fake=%d tree=%d counters=%d "
	   "split=%d checksum=0x%" HOST_WIDE_INT_PRINT "x asm=%s values=%u "
	   "promoted=%d\n",
	   name, g->n_blocks, g->edges.length (), g->n_fake, g->n_tree,
	   g->n_counters, split, g->checksum, asm_name,
	   g->values ? g->value_sites.length () : 0, g->n_promoted);
  FOR_EACH_VEC_ELT (g->edges, i, le)
    {
      fprintf (dump_stream, "  edge %d->%d ", le->src, le->dst);
      if (le->on_tree)
	fputs ("tree", dump_stream);
      else if (le->counter >= 0)
	fprintf (dump_stream, "counter %d", le->counter);
      else
	fputs ("ignored", dump_stream);
      fprintf (dump_stream, "%s%s cost=%g\n", le->fake ? " fake" : "",
	       le->critical ? " critical" : "", le->cost);
    }
}

/* The dump file, or NULL without dump=FILE.  */

FILE *
lp_dump_stream (void)
{
  return dump_stream;
}

void
lp_dump_close (void)
{
  if (dump_stream)
    fclose (dump_stream);
  dump_stream = NULL;
}
