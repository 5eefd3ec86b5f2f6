/* cs-func.c: the lines of an output profile of --csprof (cs-profile.h),
   shared by the profile generator and the pre-inliner.  */

#include <string.h>

#include "cs-profile.h"
#include "tool-util.h"

void
cs_add_body (struct cs_func *f, uint32_t index, uint64_t count)
{
  for (size_t i = 0; i < f->num_bodies; i++)
    if (f->bodies[i].index == index)
      {
	f->bodies[i].count = lp_sat_add (f->bodies[i].count, count);
	return;
      }
  f->bodies = lp_grow (f->bodies, &f->cap_bodies, f->num_bodies,
		       sizeof *f->bodies, 8);
  f->bodies[f->num_bodies].index = index;
  f->bodies[f->num_bodies].count = count;
  f->num_bodies++;
}

void
cs_add_target (struct cs_func *f, uint32_t index, const char *name,
	       uint64_t count)
{
  for (size_t i = 0; i < f->num_targets; i++)
    if (f->targets[i].index == index && strcmp (f->targets[i].name, name) == 0)
      {
	f->targets[i].count = lp_sat_add (f->targets[i].count, count);
	return;
      }
  f->targets = lp_grow (f->targets, &f->cap_targets, f->num_targets,
			sizeof *f->targets, 4);
  f->targets[f->num_targets].index = index;
  f->targets[f->num_targets].name = name;
  f->targets[f->num_targets].count = count;
  f->num_targets++;
}
