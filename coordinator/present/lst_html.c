/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTML escaper and the table cells every HTML section shares (lst_html.h).
 */
#include "lst_html.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "lst_assert.h"

void lst_html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

const char *lst_html_num(double v, const char *fmt, char *buf, size_t size)
{
	char raw[64];
	size_t n, lead, o = 0;
	const char *dot;

	if (!isfinite(v))
		return snprintf(buf, size, "&ndash;"), buf;
	snprintf(raw, sizeof(raw), fmt, v);
	dot = strchr(raw, '.');
	n = dot ? (size_t)(dot - raw) : strlen(raw);
	lead = raw[0] == '-' || raw[0] == '+';
	for (size_t i = 0; raw[i] && o + 8 < size; i++) {
		if (i > lead && i < n && (n - i) % 3 == 0)
			o += (size_t)snprintf(buf + o, size - o, "&#8201;");
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

void lst_html_td(FILE *f, const char *col, double v, const char *fmt)
{
	char b[128];

	fprintf(f, "<td class=\"n\" data-col=\"%s\">%s</td>", col,
		lst_html_num(v, fmt, b, sizeof(b)));
}

void lst_html_td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	lst_html_esc(f, s && *s ? s : "\xe2\x80\x93");
	fputs("</td>", f);
}

void lst_html_svg(FILE *f, const char *s, const char *pre)
{
	static const char *const drop[] = { " xmlns=\"", " xmlns:xlink=\"", " xmlns:xlink='",
					    " xmlns='" };
	static const char *const ids[] = { " id=\"", " id='", "href=\"#", "href='#", "url(#" };

	while (*s) {
		bool done = false;

		for (size_t k = 0; !done && k < LST_ARRAY_SIZE(drop); k++) {
			size_t n = strlen(drop[k]);
			const char *end;

			if (strncmp(s, drop[k], n) || !(end = strchr(s + n, drop[k][n - 1])))
				continue;
			s = end + 1;
			done = true;
		}
		for (size_t k = 0; !done && k < LST_ARRAY_SIZE(ids); k++) {
			size_t n = strlen(ids[k]);

			if (strncmp(s, ids[k], n))
				continue;
			fwrite(s, 1, n, f);
			fputs(pre, f);
			s += n;
			done = true;
		}
		if (!done)
			fputc(*s++, f);
	}
}
