/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The features' sections of a phase (lst_report_sections.h), in the order the outputs show them.
 */
#include "lst_report_sections.h"

const struct lst_report_section lst_report_sections[] = {
	{ "events", lst_report_print_events, lst_report_events_json, lst_report_events_html },
	{ "integrity", lst_report_print_integrity, lst_report_integrity_json,
	  lst_report_integrity_html },
	{ NULL, NULL, NULL, NULL },
};
