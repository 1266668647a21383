/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one HTML escaper of the reports: every page (lst_report_html.c) and every feature's HTML
 * section (events, integrity, failover, ports) writes text through it, so a name or a hook's
 * output with '<', '&' or '"' reads the same everywhere and can never open a tag; and the table
 * cells they share, so a number reads the same in every table of the page.
 */
#ifndef LST_HTML_H
#define LST_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Write s to f with &, <, > and " escaped (for text and for attribute values in double
 * quotes). s may be NULL (nothing is written). */
void lst_html_esc(FILE *f, const char *s);

/* v printed with the printf format fmt (one double), its integer part grouped by thin spaces
 * ("183&#8201;402.5"), or "&ndash;" when v is not finite, into buf (HTML, not to be escaped
 * again). Returns buf. */
const char *lst_html_num(double v, const char *fmt, char *buf, size_t size);

/* A number cell of column col (a data-col attribute): <td class="n" data-col="col">v</td>,
 * v as lst_html_num writes it. */
void lst_html_td(FILE *f, const char *col, double v, const char *fmt);

/* A text cell, s escaped, or an en dash when s is NULL or empty. */
void lst_html_td_text(FILE *f, const char *s);

/* The SVG text s (from "<svg") written inline into a page: its namespace declarations dropped
 * (HTML gives them) and every id, and reference to one, prefixed by pre, so that two plots of
 * one page never share an id. */
void lst_html_svg(FILE *f, const char *s, const char *pre);

#endif
