/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep steady`: the SNIA steady-state verdict on a column of per-round values.
 *
 * Engineers already have per-round numbers (fio JSON through jq, a spreadsheet column, a
 * results folder of an earlier run); this command reads them, one per line or as CSV, and prints
 * the verdict the way a lab report states it: the rounds, the window, the average, both
 * excursions against their limits, the fitted slope, and the round at which a run fed the same
 * values one by one would have stopped. --json prints the same as one object for scripts.
 *
 * Input rules: blank lines and lines starting with '#' are skipped; a first data line that is not
 * numeric is a header; fields are separated by ',' (with "quoted" fields), else ';', else tabs,
 * else runs of spaces; the value is field --column N, or the last numeric field. Any other line
 * that yields no number is an error naming FILE:LINE, and nothing is judged.
 */
#include <errno.h>
#include <stddef.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_err.h"
#include "lst_log.h"
#include "lst_report.h"
#include "lst_report_text.h"
#include "lst_steady_read.h"
#include "lst_util.h"

#define S_WINDOW_MAX 100000
#define S_COLUMN_MAX 100000
#define S_PCT_MAX 1000.0

struct s_args {
	struct lst_cli_flags c; /* first, as every command's */
	int64_t window;
	double data_pct, slope_pct;
	int64_t column; /* 1-based; 0 = the last numeric field */
	int64_t json;
	const char *path; /* NULL or "-" = stdin */
};

/* A percentage flag: "20", "20%", "12.5" (a double). */
static int s_parse_pct(void *val, const char *s, lst_err *err)
{
	char tmp[64];
	size_t len = strlen(s);

	if (len >= sizeof(tmp))
		return lst_err_set(err, -EINVAL, "'%s' is not a percentage", s);
	memcpy(tmp, s, len + 1);
	if (len && tmp[len - 1] == '%')
		tmp[len - 1] = '\0';
	return lst_parse_double(tmp, 0, S_PCT_MAX, val, err);
}

static const char *s_format_pct(const void *val, char *buf, size_t size)
{
	snprintf(buf, size, "%g", *(const double *)val);
	return buf;
}

static const struct lst_opt_ops s_pct_ops = {
	.size = sizeof(double),
	.parse = s_parse_pct,
	.format = s_format_pct,
	.range = "0 .. 1000 percent",
};

#define S_ARG(field) offsetof(struct s_args, field)

/* a default as its flag's text: the spec's, from lst_steady.h */
#define S_TEXT(x) S_TEXT_(x)
#define S_TEXT_(x) #x

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "window",
		   .type = LST_OPT_INT,
		   .offset = S_ARG(window),
		   .def = S_TEXT(LST_STEADY_WINDOW),
		   .min = 2,
		   .max = S_WINDOW_MAX,
		   .help = "rounds in the measurement window; the published reviews used 4" },
	  .arg = "N" },
	{ .opt = { .name = "data-excursion",
		   .ops = &s_pct_ops,
		   .offset = S_ARG(data_pct),
		   .def = S_TEXT(LST_STEADY_DATA_PCT),
		   .help = "limit on max - min, % of the average" },
	  .arg = "PCT" },
	{ .opt = { .name = "slope-excursion",
		   .ops = &s_pct_ops,
		   .offset = S_ARG(slope_pct),
		   .def = S_TEXT(LST_STEADY_SLOPE_PCT),
		   .help = "limit on the fitted line's change across the window, % of the average" },
	  .arg = "PCT" },
	{ .opt = { .name = "column",
		   .type = LST_OPT_INT,
		   .offset = S_ARG(column),
		   .min = 1,
		   .max = S_COLUMN_MAX,
		   .help = "use field N of each line, counting from 1 (default: the last number on "
			   "the line)" },
	  .arg = "N" },
	{ .opt = { .name = "json",
		   .type = LST_OPT_BOOL,
		   .offset = S_ARG(json),
		   .help = "print the verdict as one JSON object" } },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, NULL };

const struct lst_flag_cmd lst_cmd_steady_flags = {
	.name = "lockstep steady",
	.operands = "[FILE|-]",
	.operand = LST_FLAG_FILE,
	.groups = s_groups,
	.about = "Apply the SNIA PTS steady-state test to per-round values read from FILE or\n"
		 "from standard input ('-' or no FILE). Over the measurement window (the last\n"
		 "N rounds) the tracked variable is steady when both\n"
		 "  data excursion:  max - min <= 20% of the window average, and\n"
		 "  slope excursion: the least-squares line through (round, value) changes\n"
		 "                   by <= 10% of the average across the window:\n"
		 "                   |slope| x (N - 1) <= 0.10 x average.\n"
		 "Values exactly on a limit pass. Fewer rounds than the window: not steady.\n"
		 "\n"
		 "Input: one value per line, or CSV (also ';', tab or space separated),\n"
		 "using the last number on each line or field --column N. A first line that\n"
		 "is not numeric is a header and is skipped; blank lines and lines starting\n"
		 "with # are skipped; any other line without a number is an error\n"
		 "(FILE:LINE).\n"
		 "\n"
		 "The report gives the rounds read, the window, average, min and max, both\n"
		 "excursions against their limits, the fitted slope per round, the verdict\n"
		 "on the last window, and the round at which a run receiving these values\n"
		 "one by one would have reached steady state and stopped.\n",
	.more = "Exit status: 0 steady, 1 not steady (or too few rounds), 2 bad usage or\n"
		"bad input.\n"
		"\n"
		"Examples:\n"
		"  # one fio JSON output per round: judge 4 KiB random-write IOPS over a\n"
		"  # 4-round window (ls -v sorts round10.json after round9.json)\n"
		"  jq '.jobs[0].write.iops' $(ls -v round*.json) | lockstep steady --window 4\n"
		"\n"
		"  # a CSV with the header round,iops,lat_us: judge IOPS, for a script\n"
		"  lockstep steady --column 2 --json wsat.csv\n",
};

/* Parse flags into a. Returns 0, 1 when --help was printed, or -EINVAL (message printed). */
static int s_parse_args(int argc, char **argv, struct s_args *a)
{
	int first, rc;

	memset(a, 0, sizeof(*a));
	if ((rc = lst_cli_parse(&lst_cmd_steady_flags, argc, argv, a, &first)) >= 0)
		return rc ? -EINVAL : 1;
	if (argc - first > 1) {
		lst_log_error("steady: one input at most, got '%s' and '%s'", argv[first],
			      argv[first + 1]);
		return -EINVAL;
	}
	if (first < argc)
		a->path = argv[first];
	return 0;
}

static json_t *s_json_round(long round)
{
	return round > 0 ? json_integer(round) : json_null();
}

static void s_print_json(const struct s_args *a, const struct lst_steady_series *s,
			 const struct lst_steady *st, long first_steady, const char *why)
{
	json_t *o = json_object(), *win = json_array();
	char *text;

	for (size_t i = st->first; s->n && i <= st->last; i++)
		json_array_append_new(win, json_real(s->v[i]));
	json_object_set_new(o, "source", json_string(a->path ? a->path : "-"));
	json_object_set_new(o, "column", a->column ? json_integer(a->column) : json_null());
	json_object_set_new(o, "column_name",
			    s->column_name ? json_string(s->column_name) : json_null());
	json_object_set_new(o, "rounds", json_integer((json_int_t)s->n));
	json_object_set_new(o, "window", json_integer((json_int_t)st->window));
	json_object_set_new(o, "enough", json_boolean(st->enough));
	json_object_set_new(o, "window_first_round", s_json_round(s->n ? (long)st->first + 1 : 0));
	json_object_set_new(o, "window_last_round", s_json_round(s->n ? (long)st->last + 1 : 0));
	json_object_set_new(o, "window_values", win);
	json_object_set_new(o, "average", lst_report_json_num(st->average));
	json_object_set_new(o, "min", lst_report_json_num(st->min));
	json_object_set_new(o, "max", lst_report_json_num(st->max));
	json_object_set_new(o, "data_excursion_pct", lst_report_json_num(st->data_excursion_pct));
	json_object_set_new(o, "data_excursion_limit_pct", json_real(st->max_data_pct));
	json_object_set_new(o, "data_ok", json_boolean(st->data_ok));
	json_object_set_new(o, "slope_per_round", lst_report_json_num(st->slope));
	json_object_set_new(o, "intercept", lst_report_json_num(st->intercept));
	json_object_set_new(o, "slope_excursion_pct", lst_report_json_num(st->slope_excursion_pct));
	json_object_set_new(o, "slope_excursion_limit_pct", json_real(st->max_slope_pct));
	json_object_set_new(o, "slope_ok", json_boolean(st->slope_ok));
	json_object_set_new(o, "steady", json_boolean(st->reached));
	json_object_set_new(o, "reached_at_round", s_json_round(st->reached ? (long)s->n : 0));
	json_object_set_new(o, "first_steady_round", s_json_round(first_steady + 1));
	json_object_set_new(o, "reason", json_string(why));
	text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	printf("%s\n", text);
	free(text);
	json_decref(o);
}

/* A percentage for the report; "n/a" when relative to a zero average. */
static const char *s_pct(double pct, char *buf, size_t size)
{
	if (isfinite(pct))
		snprintf(buf, size, "%.2f%%", pct);
	else
		snprintf(buf, size, "n/a");
	return buf;
}

static void s_print_text(const struct s_args *a, const struct lst_steady_series *s,
			 const struct lst_steady *st, long first_steady, const char *why)
{
	char pct[32];

	printf("rounds read:      %zu from %s", s->n,
	       a->path && strcmp(a->path, "-") ? a->path : "standard input");
	if (a->column)
		printf(", column %ld%s%s%s", a->column, s->column_name ? " (" : "",
		       s->column_name ? s->column_name : "", s->column_name ? ")" : "");
	printf("\n");
	if (s->n) {
		printf("window:           rounds %zu..%zu (%zu rounds%s)\n", st->first + 1,
		       st->last + 1, st->last - st->first + 1,
		       st->enough ? "" : ", fewer than the window");
		printf("average:          %.10g\n", st->average);
		printf("min, max:         %.10g, %.10g\n", st->min, st->max);
		printf("data excursion:   %s (limit %g%%) %s\n",
		       s_pct(st->data_excursion_pct, pct, sizeof(pct)), st->max_data_pct,
		       st->data_ok ? "ok" : "over");
		printf("slope excursion:  %s (limit %g%%) %s\n",
		       s_pct(st->slope_excursion_pct, pct, sizeof(pct)), st->max_slope_pct,
		       st->slope_ok ? "ok" : "over");
		printf("fitted slope:     %+.6g per round (line %.10g at round %zu, %.10g at round "
		       "%zu)\n",
		       st->slope, st->intercept, st->first + 1,
		       st->intercept + st->slope * (double)(st->last - st->first), st->last + 1);
	} else {
		printf("window:           %zu rounds, none read\n", st->window);
	}
	if (first_steady >= 0)
		printf("one by one:       steady state first reached at round %ld (a run stops "
		       "there)\n",
		       first_steady + 1);
	else
		printf("one by one:       no window of %zu rounds was steady\n", st->window);
	if (st->reached)
		printf("verdict:          steady state reached at round %zu (%s)\n", s->n, why);
	else
		printf("verdict:          not steady: %s\n", why);
}

int lst_cmd_steady(int argc, char **argv)
{
	struct lst_steady_series s = { 0 };
	struct lst_steady st;
	struct s_args a;
	char why[256];
	long first;
	lst_err err;
	FILE *f;
	int rc;

	rc = s_parse_args(argc, argv, &a);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (!a.path || !strcmp(a.path, "-")) {
		f = stdin;
	} else {
		f = fopen(a.path, "re");
		if (!f) {
			lst_err_sys(&err, -errno, "open(\"%s\") failed", a.path);
			lst_log_error("steady: %s", err.msg);
			return 2;
		}
	}
	rc = lst_steady_read(f, f == stdin ? "<stdin>" : a.path, a.column, &s, &err);
	if (f != stdin)
		fclose(f);
	if (rc) {
		lst_log_error("steady: %s", err.msg);
		goto free_series;
	}

	lst_steady_eval(s.v, s.n, (size_t)a.window, a.data_pct, a.slope_pct, &st);
	first = lst_steady_first(s.v, s.n, (size_t)a.window, a.data_pct, a.slope_pct);
	lst_steady_explain(&st, why, sizeof(why));
	if (a.json)
		s_print_json(&a, &s, &st, first, why);
	else
		s_print_text(&a, &s, &st, first, why);
	if (fflush(stdout)) {
		lst_log_error("steady: writing the report failed");
		rc = -EIO;
	}
free_series:
	lst_steady_series_free(&s);
	return rc ? 2 : st.reached ? 0 : 1;
}
