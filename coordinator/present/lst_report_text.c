/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The words and numbers every output of a report shares (lst_report_text.h).
 */
#include "lst_report_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_steady.h"
#include "lst_text.h"
#include "lst_util.h"

const char *lst_report_window_text(const struct lst_rpt_test *t, char *buf, size_t size)
{
	char phrase[128];
	size_t n;

	if (!t) {
		snprintf(buf, size, "window average (no steady-state verdict in this folder)");
		return buf;
	}
	n = (size_t)snprintf(buf, size, "window average");
	if (t->window_first && t->window_last > t->window_first && n < size)
		n += (size_t)snprintf(buf + n, size - n, " of rounds %ld-%ld", t->window_first,
				      t->window_last);
	else if (t->window_first && t->window_last == t->window_first && n < size)
		n += (size_t)snprintf(buf + n, size - n, " of round %ld", t->window_first);
	if (n < size)
		snprintf(buf + n, size - n, "; %s",
			 lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last,
					   t->stop, t->capacity_multiple, phrase, sizeof(phrase)));
	return buf;
}

const char *lst_report_work_text(const struct lst_rpt_work *w, char *buf, size_t size)
{
	char sz[32], dur[32], stop[128];
	size_t n;

	n = (size_t)snprintf(buf, size, "%s %s", !strcmp(w->did, "discard") ? "discarded" : "wrote",
			     isfinite(w->bytes) ? lst_fmt_size((uint64_t)w->bytes, sz, sizeof(sz))
						: "?");
	if (isfinite(w->capacity_multiple) && n < size)
		n += (size_t)snprintf(buf + n, size - n, " (%.2fx capacity)", w->capacity_multiple);
	if (isfinite(w->seconds) && n < size)
		n += (size_t)snprintf(
			buf + n, size - n, " in %s",
			lst_fmt_duration((int64_t)(w->seconds * 1e9), dur, sizeof(dur)));
	if (isfinite(w->mbps) && n < size)
		n += (size_t)snprintf(buf + n, size - n, ", %.1f MB/s", w->mbps);
	/* the figures say how much; this says which bound ended it */
	if (w->stop == LST_STOP_CAPACITY || w->stop == LST_STOP_BYTES ||
	    w->stop == LST_STOP_RUNTIME)
		snprintf(stop, sizeof(stop), "; stopped: %s",
			 w->stop == LST_STOP_CAPACITY ? "capacity limit"
			 : w->stop == LST_STOP_BYTES  ? "byte limit"
						      : "runtime over");
	else
		stop[0] = '\0';
	if (n < size)
		snprintf(buf + n, size - n, "%s", stop);
	return buf;
}

const char *lst_report_bs(double bs, char *buf, size_t size)
{
	if (!isfinite(bs) || bs < 0)
		snprintf(buf, size, "?");
	else
		lst_fmt_size((uint64_t)bs, buf, size);
	return buf;
}

const char *lst_report_mix(double rwmixread, char *buf, size_t size)
{
	if (!isfinite(rwmixread) || rwmixread < 0 || rwmixread > 100)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%g/%g", rwmixread, 100 - rwmixread);
	return buf;
}

const char *lst_report_fmt(double v, const char *fmt, char *buf, size_t size)
{
	if (isfinite(v))
		snprintf(buf, size, fmt, v);
	else
		snprintf(buf, size, "-");
	return buf;
}

json_t *lst_report_json_str(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

double lst_report_change(double a, double b)
{
	if (!isfinite(a) || !isfinite(b) || a == 0)
		return NAN;
	return (b - a) / a * 100;
}

const char *lst_report_point_text(const struct lst_rpt_point *p, bool several, char *buf,
				  size_t size)
{
	if (several && *p->name)
		snprintf(buf, size, "%s / %s", p->test, p->name);
	else if (several)
		snprintf(buf, size, "%s", p->test);
	else
		snprintf(buf, size, "%s", *p->name ? p->name : "-");
	return buf;
}

json_t *lst_report_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

double lst_report_json_real(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *lst_report_unit(const char *tracked)
{
	if (strstr(tracked, "iops"))
		return "IOPS";
	if (strstr(tracked, "mbps"))
		return "MB/s";
	if (strstr(tracked, "lat") || strstr(tracked, "_us"))
		return "us";
	return "";
}

const char *lst_report_thousands(double v, char *buf, size_t size)
{
	char digits[64];
	size_t n, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		buf[o++] = digits[i];
		if (digits[i] != '-' && (n - i - 1) % 3 == 0 && i + 1 < n)
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return buf;
}

const char *lst_report_cell(const char *s, int width, char *buf, size_t size)
{
	LST_ASSERT(width >= 3 && (size_t)width < size);
	if ((int)strlen(s) <= width)
		return s;
	snprintf(buf, size, "%.*s...", width - 3, s);
	return buf;
}

void lst_report_addf(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	if (len + 1 < size)
		vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}
