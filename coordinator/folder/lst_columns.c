/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results folder's column tables (see lst_columns.h). A column's place in its table is its
 * place in the file; the enums of lst_columns.h index the same tables, which the static
 * asserts below keep in step.
 */
#include "lst_columns.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_report_rows.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_COL(n, type)                                                                             \
	{                                                                                          \
		n, LST_COL_##type, LST_READ_NO, false, 0                                           \
	}
#define S_READ(n, type, read, st, field)                                                           \
	{                                                                                          \
		n, LST_COL_##type, LST_READ_##read, false, offsetof(st, field)                     \
	}
/* Optional text: "" when the file lacks the column (older folders). */
#define S_TEXT(n, type, st, field)                                                                 \
	{                                                                                          \
		n, LST_COL_##type, LST_READ_TEXT, true, offsetof(st, field)                        \
	}
#define S_OPT(n, type, st, field)                                                                  \
	{                                                                                          \
		n, LST_COL_##type, LST_READ_NUM, true, offsetof(st, field)                         \
	}

/* The per-direction block (lst_columns.h): written, not read, unless a table says otherwise. */
#define S_DIR_LAT(dir)                                                                             \
	S_COL(dir "_lat_mean_us", F3E), S_COL(dir "_lat_p50_us", F3E),                             \
		S_COL(dir "_lat_p99_us", F3E), S_COL(dir "_lat_p99_9_us", F3E),                    \
		S_COL(dir "_lat_p99_99_us", F3E), S_COL(dir "_lat_p99_999_us", F3E),               \
		S_COL(dir "_lat_max_us", F3E)

/* The health block (lst_columns.h): written, not read. */
#define S_ERRORS                                                                                   \
	S_COL("errors_eio", UINT), S_COL("errors_enospc", UINT), S_COL("errors_etimedout", UINT),  \
		S_COL("errors_ebade", UINT), S_COL("errors_other", UINT), S_COL("timeouts", UINT)

/* The per-direction block with its p99 read into the reader's lat_p99_dir[2] (optional: older
 * folders lack it), for the plots' read and write latency lines. */
#define S_DIR_LAT_P99(dir, i, st)                                                                  \
	S_COL(dir "_lat_mean_us", F3E), S_COL(dir "_lat_p50_us", F3E),                             \
		S_OPT(dir "_lat_p99_us", F3E, st, lat_p99_dir[i]),                                 \
		S_COL(dir "_lat_p99_9_us", F3E), S_COL(dir "_lat_p99_99_us", F3E),                 \
		S_COL(dir "_lat_p99_999_us", F3E), S_COL(dir "_lat_max_us", F3E)

/* The verify block (lst_columns.h) of timeseries.csv: written, not read (summary.csv's is). */
#define S_VERIFY                                                                                   \
	S_COL("verify_ok", UINT), S_COL("verify_pending", UINT), S_COL("verify_unwritten", UINT),  \
		S_COL("verify_bad", UINT)

static const struct lst_column s_ts[] = {
	S_READ("phase", WORD, NAME, struct lst_rpt_ts, phase),
	S_READ("point", UINT, LONG, struct lst_rpt_ts, point),
	S_READ("interval", INT, LONG, struct lst_rpt_ts, interval),
	S_READ("t_s", F6, NUM, struct lst_rpt_ts, t_s),
	S_READ("agent", WORD, NAME, struct lst_rpt_ts, agent),
	S_READ("read_iops", F3, NUM, struct lst_rpt_ts, iops[0]),
	S_READ("write_iops", F3, NUM, struct lst_rpt_ts, iops[1]),
	S_READ("read_mbps", F3, NUM, struct lst_rpt_ts, mbps[0]),
	S_READ("write_mbps", F3, NUM, struct lst_rpt_ts, mbps[1]),
	S_READ("lat_mean_us", F3, NUM, struct lst_rpt_ts, lat_mean),
	S_COL("lat_p50_us", F3),
	S_READ("lat_p99_us", F3, NUM, struct lst_rpt_ts, lat_p99),
	S_COL("lat_p99_9_us", F3),
	S_COL("lat_p99_99_us", F3),
	S_COL("lat_max_us", F3),
	S_TEXT("scope", WORD, struct lst_rpt_ts, scope),
	S_TEXT("target", WORD, struct lst_rpt_ts, target),
	S_TEXT("path", QUOTED, struct lst_rpt_ts, path),
	S_DIR_LAT_P99("read", 0, struct lst_rpt_ts),
	S_DIR_LAT_P99("write", 1, struct lst_rpt_ts),
	S_ERRORS,
	S_COL("inflight", UINT),
	S_COL("oldest_inflight_us", F3),
	S_VERIFY,
	S_COL("trim_iops", F3),
	S_COL("trim_mbps", F3),
};

static const struct lst_column s_sum[] = {
	S_READ("phase", WORD, NAME, struct lst_rpt_point, phase),
	S_READ("point", UINT, LONG, struct lst_rpt_point, point),
	S_READ("label", QUOTED, TEXT, struct lst_rpt_point, label),
	S_READ("agent", WORD, NAME, struct lst_rpt_point, agent),
	S_READ("t_s", F6, NUM, struct lst_rpt_point, t_s),
	S_READ("duration_s", F6, NUM, struct lst_rpt_point, duration_s),
	S_READ("read_iops", F3, NUM, struct lst_rpt_point, iops[0]),
	S_READ("write_iops", F3, NUM, struct lst_rpt_point, iops[1]),
	S_READ("read_mbps", F3, NUM, struct lst_rpt_point, mbps[0]),
	S_READ("write_mbps", F3, NUM, struct lst_rpt_point, mbps[1]),
	S_READ("lat_mean_us", F3, NUM, struct lst_rpt_point, lat_mean),
	S_READ("lat_p50_us", F3, NUM, struct lst_rpt_point, lat_p50),
	S_READ("lat_p99_us", F3, NUM, struct lst_rpt_point, lat_p99),
	S_READ("lat_p99_9_us", F3, NUM, struct lst_rpt_point, lat_p99_9),
	S_READ("lat_p99_99_us", F3, NUM, struct lst_rpt_point, lat_p99_99),
	S_READ("lat_max_us", F3, NUM, struct lst_rpt_point, lat_max),
	S_COL("read_ios", UINT),
	S_COL("write_ios", UINT),
	S_COL("read_bytes", UINT),
	S_COL("write_bytes", UINT),
	S_READ("errors", UINT, NUM, struct lst_rpt_point, errors),
	S_COL("test", QUOTED), /* the reader takes test and round from summary.json */
	S_COL("round", UINT),
	S_TEXT("scope", WORD, struct lst_rpt_point, scope),
	S_TEXT("target", WORD, struct lst_rpt_point, target),
	S_TEXT("path", QUOTED, struct lst_rpt_point, path),
	S_OPT("read_lat_mean_us", F3E, struct lst_rpt_point, lat_mean_dir[0]),
	S_COL("read_lat_p50_us", F3E),
	S_OPT("read_lat_p99_us", F3E, struct lst_rpt_point, lat_p99_dir[0]),
	S_COL("read_lat_p99_9_us", F3E),
	S_COL("read_lat_p99_99_us", F3E),
	S_COL("read_lat_p99_999_us", F3E),
	S_COL("read_lat_max_us", F3E),
	S_OPT("write_lat_mean_us", F3E, struct lst_rpt_point, lat_mean_dir[1]),
	S_COL("write_lat_p50_us", F3E),
	S_OPT("write_lat_p99_us", F3E, struct lst_rpt_point, lat_p99_dir[1]),
	S_COL("write_lat_p99_9_us", F3E),
	S_COL("write_lat_p99_99_us", F3E),
	S_COL("write_lat_p99_999_us", F3E),
	S_COL("write_lat_max_us", F3E),
	S_COL("read_lat_count", UINT),
	S_COL("write_lat_count", UINT),
	S_ERRORS,
	S_COL("oldest_inflight_us", F3),
	S_OPT("verify_ok", UINT, struct lst_rpt_point, verify[0]),
	S_OPT("verify_pending", UINT, struct lst_rpt_point, verify[1]),
	S_OPT("verify_unwritten", UINT, struct lst_rpt_point, verify[2]),
	S_OPT("verify_bad", UINT, struct lst_rpt_point, verify[3]),
	S_COL("trim_iops", F3),
	S_COL("trim_mbps", F3),
	S_COL("rw", WORD),
	S_COL("bs", INTE),
	S_COL("iodepth", INTE),
	S_COL("jobs", INTE),
	S_COL("rwmixread", INTE),
	S_COL("lat_min_us", F3),
	S_COL("lat_p90_us", F3),
	S_COL("lat_p95_us", F3),
	S_COL("lat_p99_999_us", F3),
};

static const struct lst_column s_clock[] = {
	S_COL("agent", WORD), S_COL("t1", INT), S_COL("t2", INT),
	S_COL("t3", INT),     S_COL("t4", INT),
};

static const struct lst_column s_rounds[] = {
	S_READ("phase", WORD, NAME, struct lst_rpt_round, phase),
	S_READ("test", QUOTED, TEXT, struct lst_rpt_round, test),
	S_READ("round", UINT, LONG, struct lst_rpt_round, round),
	S_READ("t_s", F6, NUM, struct lst_rpt_round, t_s),
	S_READ("value", F6, NUM, struct lst_rpt_round, value),
	S_READ("tracked", WORD, TEXT, struct lst_rpt_round, tracked),
	S_READ("iops", F3, NUM, struct lst_rpt_round, iops),
	S_READ("mbps", F3, NUM, struct lst_rpt_round, mbps),
	S_READ("lat_mean_us", F3, NUM, struct lst_rpt_round, lat_mean),
	S_OPT("lat_max_us", F3, struct lst_rpt_round, lat_max),
	S_OPT("bytes_written", UINT, struct lst_rpt_round, bytes_written),
	S_COL("suite", WORD),
};

static const struct lst_column s_curves[] = {
	S_READ("phase", WORD, NAME, struct lst_rpt_curve, phase),
	S_READ("point", UINT, LONG, struct lst_rpt_curve, point),
	S_READ("jobs", INT, NUM, struct lst_rpt_curve, jobs),
	S_READ("iodepth", INT, NUM, struct lst_rpt_curve, iodepth),
	S_READ("bs", INT, NUM, struct lst_rpt_curve, bs),
	S_READ("rwmixread", INT, NUM, struct lst_rpt_curve, rwmixread),
	S_READ("iops", F3, NUM, struct lst_rpt_curve, iops),
	S_READ("mbps", F3, NUM, struct lst_rpt_curve, mbps),
	S_READ("lat_mean_us", F3, NUM, struct lst_rpt_curve, lat_mean),
	S_READ("lat_p99_us", F3, NUM, struct lst_rpt_curve, lat_p99),
	S_READ("lat_p99_9_us", F3, NUM, struct lst_rpt_curve, lat_p99_9),
	S_READ("lat_p99_99_us", F3, NUM, struct lst_rpt_curve, lat_p99_99),
	S_OPT("rate_iops", INT, struct lst_rpt_curve, rate_iops),
	S_OPT("target_pct", G, struct lst_rpt_curve, target_pct),
	S_TEXT("scope", WORD, struct lst_rpt_curve, scope),
	S_TEXT("agent", WORD, struct lst_rpt_curve, agent),
	S_TEXT("target", WORD, struct lst_rpt_curve, target),
	S_TEXT("path", QUOTED, struct lst_rpt_curve, path),
	S_DIR_LAT_P99("read", 0, struct lst_rpt_curve),
	S_DIR_LAT_P99("write", 1, struct lst_rpt_curve),
};

static const struct lst_column s_dev[] = {
	S_COL("phase", WORD),	      S_COL("point", UINT),	  S_COL("label", QUOTED),
	S_COL("agent", WORD),	      S_COL("target", WORD),	  S_COL("path", QUOTED),
	S_COL("device", WORD),	      S_COL("interval", INT),	  S_COL("t_s", F6),
	S_COL("reads", UINT),	      S_COL("read_merges", UINT), S_COL("read_sectors", UINT),
	S_COL("read_ms", UINT),	      S_COL("writes", UINT),	  S_COL("write_merges", UINT),
	S_COL("write_sectors", UINT), S_COL("write_ms", UINT),	  S_COL("in_flight", UINT),
	S_COL("io_ms", UINT),	      S_COL("queue_ms", UINT),
};

static const struct lst_column s_ev[] = {
	S_COL("phase", WORD),	   S_COL("point", INT),	     S_COL("label", QUOTED),
	S_COL("kind", WORD),	   S_COL("agent", WORD),     S_COL("hook", WORD),
	S_COL("t_requested", F3E), S_COL("t_start", F3E),    S_COL("t_end", F3E),
	S_COL("late_ms", F3E),	   S_COL("duration_s", F3E), S_COL("requested_ns", INT),
	S_COL("start_ns", INT),	   S_COL("end_ns", INT),     S_COL("status", INT),
	S_COL("result", WORD),	   S_COL("on_error", WORD),  S_COL("text", QUOTED),
	S_COL("output", QUOTED),
};

static const struct lst_column s_tm[] = {
	S_COL("phase", WORD),	  S_COL("point", INT),	  S_COL("agent", WORD),
	S_COL("collector", WORD), S_COL("field", QUOTED), S_COL("before", WORD),
	S_COL("after", WORD),	  S_COL("delta", WORD),
};

static const struct lst_column s_int[] = {
	S_COL("phase", WORD),	       S_COL("point", INT),
	S_COL("target", WORD),	       S_COL("agent", WORD),
	S_COL("path", QUOTED),	       S_COL("offset", UINT),
	S_COL("kind", WORD),	       S_COL("expected_gen", UINT),
	S_COL("expected_agent", WORD), S_COL("expected_path", QUOTED),
	S_COL("expected_t_s", F3E),    S_COL("found", WORD),
	S_COL("found_gen", UINT),      S_COL("found_agent", WORD),
	S_COL("found_path", QUOTED),   S_COL("found_lba", UINT),
	S_COL("found_t_s", F3E),
};

static const struct lst_column s_tail[] = {
	S_COL("phase", WORD),
	S_COL("point", INT),
	S_COL("label", QUOTED),
	S_COL("threshold", WORD),
	S_COL("threshold_us", F3),
	S_COL("by", WORD),
	S_COL("who", QUOTED),
	S_COL("interval", INTE),
	S_COL("ios", F3),
	S_COL("share_pct", F3),
	S_COL("hot_intervals", QUOTED),
	S_COL("hot_pct", F3E),
	S_COL("also_on", QUOTED),
	S_COL("verdict", WORD),
};

_Static_assert(LST_ARRAY_SIZE(s_ts) == LST_TS_N, "timeseries.csv: table and enum differ");
_Static_assert(LST_ARRAY_SIZE(s_sum) == LST_SUM_N, "summary.csv: table and enum differ");
_Static_assert(LST_ARRAY_SIZE(s_clock) == LST_CLOCK_N, "clock.csv: table and enum differ");
_Static_assert(LST_ARRAY_SIZE(s_rounds) == LST_ROUNDS_N, "rounds.csv: table and enum differ");
_Static_assert(LST_ARRAY_SIZE(s_curves) == LST_CURVES_N, "curves.csv: table and enum differ");
_Static_assert(LST_ARRAY_SIZE(s_dev) == LST_DEV_N, "devstats.csv: table and enum differ");

const struct lst_col_table lst_timeseries_table = { "timeseries.csv", s_ts, LST_TS_N, false };
const struct lst_col_table lst_summary_table = { "summary.csv", s_sum, LST_SUM_N, true };
const struct lst_col_table lst_clock_table = { "clock.csv", s_clock, LST_CLOCK_N, false };
const struct lst_col_table lst_rounds_table = { "rounds.csv", s_rounds, LST_ROUNDS_N, false };
const struct lst_col_table lst_curves_table = { "curves.csv", s_curves, LST_CURVES_N, false };
const struct lst_col_table lst_devstats_table = { "devstats.csv", s_dev, LST_DEV_N, false };
_Static_assert(LST_ARRAY_SIZE(s_ev) == LST_EV_N, "events.csv: table and enum differ");
_Static_assert(LST_ARRAY_SIZE(s_tm) == LST_TM_N, "telemetry.csv: table and enum differ");
const struct lst_col_table lst_events_table = { "events.csv", s_ev, LST_EV_N, false };
const struct lst_col_table lst_telemetry_table = { "telemetry.csv", s_tm, LST_TM_N, false };
_Static_assert(LST_ARRAY_SIZE(s_int) == LST_INT_N, "integrity.csv: table and enum differ");
const struct lst_col_table lst_integrity_table = { "integrity.csv", s_int, LST_INT_N, false };
_Static_assert(LST_ARRAY_SIZE(s_tail) == LST_TC_N, "tail.csv: table and enum differ");
const struct lst_col_table lst_tail_table = { "tail.csv", s_tail, LST_TC_N, false };

void lst_columns_header(FILE *f, const struct lst_col_table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, "%s%s", i ? "," : "", t->cols[i].name);
	fputc('\n', f);
}

/* v's decimal digits, ending just before end; returns where they begin. */
static char *s_digits(char *end, unsigned long long v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* fprintf(f, "%llu", v) without printf: rows are written per sample. */
static void s_uint(FILE *f, unsigned long long v)
{
	char buf[24], *p = s_digits(buf + sizeof(buf), v);

	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

static void s_sint(FILE *f, long long v)
{
	if (v < 0)
		fputc('-', f);
	s_uint(f, v < 0 ? -(unsigned long long)v : (unsigned long long)v);
}

/*
 * fprintf(f, "%.*f", decimals, d), byte for byte, without printf where its digits are certain:
 * printf rounds the exact value d x 10^decimals to the nearest integer (a tie to even); the
 * double product x is within x / 2^53 of it, so unless x lies that close to a half, x rounds
 * the same way. Near a half, and for negative, huge or non-finite d, printf itself writes it.
 */
static void s_fixed(FILE *f, double d, int decimals, unsigned long long scale)
{
	double x = d * (double)scale, whole, frac;
	unsigned long long r;
	char buf[48], *end = buf + sizeof(buf), *p;

	if (!(d >= 0) || signbit(d) || !(x < 0x1p52)) {
		fprintf(f, "%.*f", decimals, d);
		return;
	}
	whole = floor(x);
	frac = x - whole; /* exact */
	if (fabs(frac - 0.5) <= x * 0x1p-51) {
		fprintf(f, "%.*f", decimals, d);
		return;
	}
	r = (unsigned long long)whole + (frac > 0.5);
	p = s_digits(end, r % scale);
	while (end - p < decimals)
		*--p = '0';
	*--p = '.';
	p = s_digits(p, r / scale);
	fwrite(p, 1, (size_t)(end - p), f);
}

static void s_cell(FILE *f, enum lst_col_type type, const union lst_cell *c)
{
	switch (type) {
	case LST_COL_WORD:
		fputs(c->s, f);
		break;
	case LST_COL_QUOTED:
		lst_csv_quoted(f, c->s);
		break;
	case LST_COL_INT:
		s_sint(f, c->i);
		break;
	case LST_COL_INTE:
		if (c->i >= 0)
			s_uint(f, (unsigned long long)c->i);
		break;
	case LST_COL_UINT:
		s_uint(f, c->u);
		break;
	case LST_COL_F3:
		s_fixed(f, c->d, 3, 1000);
		break;
	case LST_COL_F3E:
		if (!isnan(c->d))
			s_fixed(f, c->d, 3, 1000);
		break;
	case LST_COL_F6:
		s_fixed(f, c->d, 6, 1000000);
		break;
	case LST_COL_G:
		fprintf(f, "%g", c->d);
		break;
	}
}

void lst_columns_write_n(FILE *f, const struct lst_col_table *t, const union lst_cell *cells,
			 size_t n)
{
	LST_ASSERT(n <= t->ncols);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		s_cell(f, t->cols[i].type, &cells[i]);
	}
	fputc('\n', f);
}

void lst_columns_write(FILE *f, const struct lst_col_table *t, const union lst_cell *cells)
{
	lst_columns_write_n(f, t, cells, t->ncols);
}

int lst_columns_count(const struct lst_col_table *t, const char *line, size_t *n, lst_err *err)
{
	const char *p = line;
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		size_t len = strlen(t->cols[i].name);

		/* strchr finds the NUL too: a name at the very end of the text */
		if (strncmp(p, t->cols[i].name, len) || !strchr(",\n", p[len]))
			break;
		p += len;
		if (*p != ',') {
			*n = i + 1;
			return 0;
		}
		p++;
	}
	if (i == t->ncols)
		return lst_err_set(
			err, -EINVAL,
			"%s: has more columns than the %zu of this lockstep: a file of a "
			"newer version",
			t->file, t->ncols);
	return lst_err_set(err, -EINVAL,
			   "%s: column %zu of its header is not '%s': a file of another version, "
			   "or not lockstep's",
			   t->file, i + 1, t->cols[i].name);
}
