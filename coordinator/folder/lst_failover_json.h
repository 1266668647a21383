/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A point's failover window and throughput dips (lst_failover.h) as summary.json gives them.
 */
#ifndef LST_FAILOVER_JSON_H
#define LST_FAILOVER_JSON_H

#include <jansson.h>

#include "lst_failover.h"

/* summary.json's `failover`: the failover window as {start_t_s, end_t_s, duration_s,
 * intervals, below_pct, baseline_iops, ios, lat: {...} (absent when no I/O completed),
 * oldest_inflight_us, evidence: {errors, error_classes, timeouts, stalled_us, events}} (each
 * kind of evidence present only when found), or JSON null. New reference. */
json_t *lst_failover_json(const struct lst_failover *f);

/* summary.json's `dips`: every window without evidence, each as a failover window without
 * `evidence`, in time order (an empty array without any). New reference. */
json_t *lst_failover_dips_json(const struct lst_failover *f);

#endif
