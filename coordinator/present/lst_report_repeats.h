/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Repeated points in `lockstep report`: the mean and 95% Student t interval of each figure over
 * a point's repeats (lst_repeats.h), as JSON and text.
 */
#ifndef LST_REPORT_REPEATS_H
#define LST_REPORT_REPEATS_H

#include <jansson.h>

#include "lst_report.h"

/* The repeated points of r as a JSON array (new reference): per point its figures' mean and
 * interval. */
json_t *lst_repeats_json(const lst_report *r);

/* The same as text, to standard output: nothing when no point was repeated. */
void lst_repeats_print(const lst_report *r);

#endif
