/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep inventory`, the agents' side: reach a list of agents without a plan (as `lockstep
 * agents` does), ask each for every page of its block devices (INVENTORY) and hand back what
 * each said as JSON (lst_inventory.c); then group the devices of all agents by drive
 * (lst_inventory_group.c, no connection needed). Printing is the command's.
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

/*
 * The devices of agents (lst_inventory_collect's array) grouped by drive: a new array (the
 * caller decrefs it) of {"key", "identity", "paths": [{"agent", "path", "node", "port",
 * "transport", "in_use", "why", "allow_write"}]} in the order first seen. key is "" for a
 * device nothing identifies (a drive of its own); identity is what a plan's `identity:` takes
 * ("loop:FILE", the WWN, "serial:S"); path is the first by-id link, else the node. Agents with
 * an error have no devices and add nothing.
 */
json_t *lst_inventory_group(json_t *agents);

#endif
