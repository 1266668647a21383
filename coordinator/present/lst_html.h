/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one HTML escaper of the reports: every page (lst_report_html.c) and every feature's HTML
 * section (events, integrity) writes text through it, so a name or a hook's output with '<', '&'
 * or '"' reads the same everywhere and can never open a tag.
 */
#ifndef LST_HTML_H
#define LST_HTML_H

#include <stdio.h>

/* Write s to f with &, <, > and " escaped (for text and for attribute values in double
 * quotes). s may be NULL (nothing is written). */
void lst_html_esc(FILE *f, const char *s);

#endif
