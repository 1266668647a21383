/*
 * `lockstep inventory`, the agents' side: reach a list of agents without a plan (as `lockstep
 * agents` does), ask each for every page of its block devices (INVENTORY), and hand back what
 * each said as JSON. Grouping the devices by drive and printing are the command's (they need no
 * connection).
 */
#ifndef LST_INVENTORY_H
#define LST_INVENTORY_H

#include <jansson.h>
#include <stddef.h>

#include "lst_coord.h"

/*
 * Ask agents[n] for their devices; sec gives key_file and insecure as for a run (may be NULL).
 * *out gets a new JSON array (the caller decrefs it), one object per agent in order:
 * {"agent", "address", "host", "devices": [device...]} or {"agent", "address", "error"}; a device
 * object has the keys of PROTOCOL.md 6.16 (in_use and allow_write as booleans). Returns 0 when
 * every agent answered, 1 otherwise, 2 when the keys do not allow trying (*out is NULL then).
 */
int lst_inventory_collect(const struct lst_coord_agent *agents, size_t n,
			  const struct lst_coord_opts *sec, json_t **out);

#endif
