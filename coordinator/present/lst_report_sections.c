/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The features' sections of a phase (lst_report_sections.h), each with its slot in the text, the
 * JSON and the HTML, in the order the outputs show them within a slot.
 */
#include "lst_report_sections.h"
#include "lst_report_tail.h"

const struct lst_report_section lst_report_sections[] = {
	{ "failover", LST_SLOT_POINT, LST_SLOT_POINT, LST_SLOT_POINTS, lst_report_failover_print,
	  lst_report_failover_json, lst_report_failover_html },
	{ "dips", LST_SLOT_POINTS, LST_SLOT_POINT, LST_SLOT_POINTS, lst_report_dips_print,
	  lst_report_dips_json, lst_report_dips_html },
	{ "events", LST_SLOT_PHASE, LST_SLOT_PHASE, LST_SLOT_PHASE, lst_report_events_print,
	  lst_report_events_json, lst_report_events_html },
	{ "integrity", LST_SLOT_PHASE, LST_SLOT_PHASE, LST_SLOT_PHASE, lst_report_integrity_print,
	  lst_report_integrity_json, lst_report_integrity_html },
	{ "tail", LST_SLOT_POINT, LST_SLOT_POINT, LST_SLOT_POINTS, lst_report_tail_print,
	  lst_report_tail_json, lst_report_tail_html },
	{ "ports", LST_SLOT_SCALING, LST_SLOT_PHASE, LST_SLOT_SCALING, lst_report_ports_print,
	  lst_report_ports_set_json, lst_report_ports_html },
	{ NULL, LST_SLOT_NONE, LST_SLOT_NONE, LST_SLOT_NONE, NULL, NULL, NULL },
};

void lst_report_sections_text(FILE *f, enum lst_report_slot at, const struct lst_report_view *v)
{
	for (const struct lst_report_section *s = lst_report_sections; s->name; s++)
		if (s->text_at == at)
			s->text(f, v);
}

void lst_report_sections_json(json_t *o, enum lst_report_slot at, const struct lst_report_view *v)
{
	for (const struct lst_report_section *s = lst_report_sections; s->name; s++)
		if (s->json_at == at)
			s->json(v, o);
}

void lst_report_sections_html(FILE *f, enum lst_report_slot at, const struct lst_report_view *v)
{
	for (const struct lst_report_section *s = lst_report_sections; s->name; s++)
		if (s->html_at == at)
			s->html(f, v);
}
