/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep agents`: reach a list of agents without a plan, shake hands, measure each clock and
 * rtt, print what every agent said about itself, and say goodbye. Built on the same
 * coordinator as a run (its connections, HELLO and clock bursts), given agents rather than a
 * plan.
 */
#ifndef LST_PROBE_H
#define LST_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lst_coord.h"

/*
 * Probe agents[n] with a lease of 10 s and 1 s intervals; sec gives key_file and insecure as
 * for a run (may be NULL). Prints a table (or JSON) to out. Returns 0 when every agent
 * answered, 1 otherwise, 2 when the keys do not allow trying.
 */
int lst_probe_agents(const struct lst_coord_agent *agents, size_t n,
		     const struct lst_coord_opts *sec, bool json, FILE *out);

#endif
