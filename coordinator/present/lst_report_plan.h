/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bridge from the plan reader to the report model: the folder library (folder/) reads a
 * results folder without linking the plan parser, and takes what plan.yaml says of its phases
 * through this function, which the coordinator passes to lst_report_load() and lst_plot_all().
 * It calls lst_plan_parse, so it lives in the presentation library, which links lockstep::plan.
 */
#ifndef LST_REPORT_PLAN_H
#define LST_REPORT_PLAN_H

#include <stddef.h>

#include "lst_err.h"
#include "lst_report.h"

struct lst_plan;

/*
 * An lst_report_plan_fn: parse plan text (path names it in messages, which are dropped) and
 * return its phases' suite, sequential I/O and steady-state limits. Returns 0, or -EINVAL when
 * the plan does not parse (the report then goes without it).
 */
int lst_report_plan_read(const char *text, size_t len, const char *path,
			 struct lst_report_plan_phase **phases, size_t *n);

/*
 * The whole plan of results folder r (its plan.yaml), parsed again for what the model does not
 * keep (the phase a sample's index counts, the settings a PTS page reports): the caller's
 * (lst_plan_destroy), or NULL with err saying why it does not load.
 */
struct lst_plan *lst_report_plan_load(const lst_report *r, lst_err *err);

#endif
