/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep report` of one results folder, as text and as JSON (and its points tables as the
 * closing summary `lockstep run`, `resume` and `demo` print): the run (id, plan, status,
 * versions), agents with clock offset and RTT, targets with their identities, errors, then per
 * phase the points (IOPS, MB/s, mean / p99 / p99.99 latency, and read and write p99 apart under
 * a point that did both; for suites the last round of each point), the headline figures of its
 * latency-vs-IOPS curves ("IOPS at p99 < 1 ms", from lst_figures_headlines, the same numbers in
 * text and JSON), the steady-state verdicts, and the IOPS matrix; and what became of the plots.
 */
#include "lst_report_sections.h"
#include "lst_report_show.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_report_curves.h"
#include "lst_figures.h"
#include "lst_report_text.h"
#include "lst_steady.h"
#include "lst_util.h"

#define S_ROWS_MAX 64  /* points printed per phase (HIR has thousands); --json has all */
#define S_AGENT_ROWS 8 /* show per-agent rows under points up to this many points */

static const char *s_or(const char *s)
{
	return s ? s : "?";
}

/* A borrowed value for json_object_set (which takes its own reference), null when absent. */
static json_t *s_jor(json_t *v)
{
	return v ? v : json_null();
}

/* --- the points shown ------------------------------------------------------------------------ */

/* Whether the points ran in rounds; *several: they come from more than one test. */
static bool s_has_rounds(const lst_report *r, const size_t *idx, size_t n, bool *several)
{
	bool rounds = false;

	*several = false;
	for (size_t k = 0; k < n; k++) {
		const struct lst_rpt_point *p = &r->points[idx[k]];

		rounds |= p->round > 0;
		*several |= strcmp(p->test, r->points[idx[0]].test) != 0;
	}
	return rounds;
}

/* One line of text saying what a steady-state verdict is. */
static void s_verdict(const struct lst_rpt_test *t, char *buf, size_t size)
{
	char avg[32], dp[32], sp[32];
	const char *unit = lst_report_unit(t->tracked);

	lst_report_fmt(t->average, "%.6g", avg, sizeof(avg));
	lst_report_fmt(t->data_pct, "%.2f%%", dp, sizeof(dp));
	lst_report_fmt(t->slope_pct, "%.2f%%", sp, sizeof(sp));
	lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last, t->stop,
			  t->capacity_multiple, buf, size);
	if (!t->required)
		snprintf(buf + strlen(buf), size - strlen(buf),
			 " (steady state reported, not required)");
	snprintf(
		buf + strlen(buf), size - strlen(buf),
		": average %s%s%s, data excursion %s (limit %g%%), slope excursion %s (limit %g%%)",
		avg, *unit ? " " : "", unit, dp, t->data_limit, sp, t->slope_limit);
}

/* --- balance -------------------------------------------------------------------------------- */

/* Point p's balance over its agents (paths false) or paths: a new array of *n items, or NULL. */
static struct lst_balance_item *s_balance(const lst_report *r, const struct lst_rpt_point *p,
					  bool paths, size_t *n)
{
	struct lst_balance_item *b;

	*n = lst_figures_balance(r, p, paths, NULL, 0);
	if (!*n)
		return NULL;
	b = lst_calloc(*n, sizeof(*b));
	lst_figures_balance(r, p, paths, b, *n);
	return b;
}

/*
 * "    balance: a 49.6% / b 50.4% of I/Os, p99 2.31 / 2.25 ms" under point p, and the same line
 * for its paths ("path balance"), each when there are 2+ of them. p99 in ms when one is 1 ms
 * or more, else in us.
 */
static void s_print_balance(const lst_report *r, const struct lst_rpt_point *p)
{
	for (int paths = 0; paths < 2; paths++) {
		size_t n;
		struct lst_balance_item *b = s_balance(r, p, paths, &n);
		double top = 0;
		bool ms;

		if (!b)
			continue;
		printf("    %sbalance:", paths ? "path " : "");
		for (size_t k = 0; k < n; k++) {
			printf("%s %s %.1f%%", k ? " /" : "", b[k].who, b[k].share_pct);
			if (isfinite(b[k].p99_us))
				top = LST_MAX(top, b[k].p99_us);
		}
		ms = top >= 1000;
		printf(" of I/Os, p99");
		for (size_t k = 0; k < n; k++) {
			char v[32];

			printf("%s %s", k ? " /" : "",
			       lst_report_fmt(b[k].p99_us / (ms ? 1000 : 1), ms ? "%.2f" : "%.1f",
					      v, sizeof(v)));
		}
		printf(" %s\n", ms ? "ms" : "us");
		free(b);
	}
}

/* The same as "balance" (agents) and "path_balance" of the point's JSON pj, when it has them. */
static void s_balance_json(const lst_report *r, const struct lst_rpt_point *p, json_t *pj)
{
	for (int paths = 0; paths < 2; paths++) {
		size_t n;
		struct lst_balance_item *b = s_balance(r, p, paths, &n);
		json_t *a = json_array();

		for (size_t k = 0; k < n; k++)
			json_array_append_new(
				a, json_pack("{s:s, s:o, s:o, s:o}", "who", b[k].who, "share_pct",
					     lst_report_json_num(b[k].share_pct), "iops",
					     lst_report_json_num(b[k].iops), "p99_us",
					     lst_report_json_num(b[k].p99_us)));
		if (n)
			json_object_set_new(pj, paths ? "path_balance" : "balance", a);
		else
			json_decref(a);
		free(b);
	}
}

/* --- text ------------------------------------------------------------------------------------ */

/* One row of a points table; round < 0 leaves the ROUND column out, 0 leaves it blank. */
static void s_print_point(FILE *f, const struct lst_rpt_point *p, const char *label, long round,
			  int width)
{
	char iops[32], mbps[32], mean[32], p99[32], p9999[32], rnd[24] = "";
	char cell[LST_REPORT_LABEL_MAX + 1];

	fprintf(f, "  %-*s", width, lst_report_cell(label, width, cell, sizeof(cell)));
	if (round > 0)
		snprintf(rnd, sizeof(rnd), "%ld", round);
	if (round >= 0)
		fprintf(f, " %10s", rnd);
	fprintf(f, " %10s %9s %9s %10s %10s%s%s\n",
		lst_report_fmt(p->iops[0] + p->iops[1], "%.0f", iops, sizeof(iops)),
		lst_report_fmt(p->mbps[0] + p->mbps[1], "%.1f", mbps, sizeof(mbps)),
		lst_report_fmt(p->lat_mean, "%.1f", mean, sizeof(mean)),
		lst_report_fmt(p->lat_p99, "%.1f", p99, sizeof(p99)),
		lst_report_fmt(p->lat_p99_99, "%.1f", p9999, sizeof(p9999)),
		p->partial ? "  partial" : "", p->errors > 0 ? "  I/O errors" : "");
}

/* --- headline figures of the latency-vs-IOPS curves (lst_report_headline.c) ------------------ */

/* "IOPS at p99 < 1 ms: ..." per curve of the phase, under its points. */
static void s_print_headlines(const lst_report *r, const struct lst_rpt_phase *ph)
{
	const char *from;
	double limit = lst_headline_limit(r, ph->name, &from);
	struct lst_headline *hl;
	size_t n = lst_figures_headlines(r, ph->name, limit, &hl);
	char text[1024], lim[32];
	bool latency = false;

	for (size_t i = 0; i < n; i++)
		latency |= !hl[i].bandwidth;
	if (n && !latency)
		printf("  headline figures (large blocks: the highest MB/s):\n");
	else if (n)
		printf("  headline figures (limit %s, %s; the highest IOPS with the percentile "
		       "under it):\n",
		       lst_headline_limit_text(limit, lim, sizeof(lim)),
		       !strcmp(from, "option") ? "given with --limit"
		       : !strcmp(from, "plan") ? "the plan's curve limit"
					       : "the default");
	for (size_t i = 0; i < n; i++)
		printf("    %s%s%s\n", hl[i].curve, *hl[i].curve ? ": " : "",
		       lst_headline_text(&hl[i], text, sizeof(text)));
	free(hl);
}

static json_t *s_headline_stat_json(const struct lst_headline *h, int s)
{
	json_t *o = json_object(), *between = json_array();

	json_object_set_new(o, "iops", lst_report_json_num(h->iops[s]));
	json_object_set_new(o, "interpolated", json_boolean(h->interpolated[s]));
	json_object_set_new(o, "all_under", json_boolean(h->all_under[s]));
	if (h->interpolated[s]) {
		json_array_append_new(between, json_string(h->below[s]));
		json_array_append_new(between, json_string(h->above[s]));
	} else if (!isnan(h->iops[s])) {
		json_array_append_new(between, json_string(h->below[s]));
	}
	json_object_set_new(o, "points", between);
	return o;
}

/* The phase's "headlines" into pj: a curve each, its figures per percentile (none: absent). */
static void s_headlines_json(const lst_report *r, const struct lst_rpt_phase *ph, json_t *pj)
{
	const char *from;
	double limit = lst_headline_limit(r, ph->name, &from);
	struct lst_headline *hl;
	size_t n = lst_figures_headlines(r, ph->name, limit, &hl);
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "curve", json_string(hl[i].curve));
		json_object_set_new(o, "limit_us", json_real(hl[i].limit_us));
		json_object_set_new(o, "limit_from", json_string(from));
		json_object_set_new(o, "npoints", json_integer((json_int_t)hl[i].npoints));
		if (hl[i].bandwidth) { /* large blocks: MB/s, no latency figure */
			json_object_set_new(o, "mbps",
					    json_pack("{s:o, s:s, s:o}", "mbps",
						      lst_report_json_num(hl[i].mbps), "point",
						      hl[i].mbps_at, "p99_us",
						      lst_report_json_num(hl[i].mbps_p99_us)));
			json_array_append_new(a, o);
			continue;
		}
		for (int s = 0; s < LST_HL_N; s++)
			json_object_set_new(o, lst_headline_stat_names[s],
					    s_headline_stat_json(&hl[i], s));
		json_array_append_new(a, o);
	}
	free(hl);
	if (n)
		json_object_set(pj, "headlines", a);
	json_decref(a);
}

/*
 * Under a point that did reads and writes, what each cost: "read p99 812.4 us, write p99
 * 1503.2 us" (summary.csv's read_lat_p99_us and write_lat_p99_us; folders that predate them, and
 * points of one direction, get no such line).
 */
static void s_print_dirs(FILE *f, const struct lst_rpt_point *p)
{
	if (!(p->iops[0] > 0 && p->iops[1] > 0 && isfinite(p->lat_p99_dir[0]) &&
	      isfinite(p->lat_p99_dir[1])))
		return;
	fprintf(f, "    read p99 %.1f us, write p99 %.1f us\n", p->lat_p99_dir[0],
		p->lat_p99_dir[1]);
}

/* Why t's rounds ended when the verdict does not say it already (a capacity or byte limit,
 * an interrupted run): "stopped: 4.0x capacity written (1.0 GiB)" into buf, else false. */
static bool s_stopped(const struct lst_rpt_test *t, char *buf, size_t size)
{
	return *lst_stop_after_phrase(t->stop, t->rounds, t->bytes_written, t->capacity_multiple,
				      buf, size);
}

/* Each point of test t averaged over its window: the one value of a suite's point. */
static void s_print_window(FILE *f, const struct lst_rpt_test *t)
{
	int width = 5;

	if (!t->nwindow)
		return;
	for (size_t k = 0; k < t->nwindow; k++)
		width = LST_MAX(width, (int)strlen(t->win[k].label));
	fprintf(f, "      %-*s %10s %9s %9s %10s %10s   (window average, round%s %ld", width,
		"POINT", "IOPS", "MB/s", "MEAN us", "P99 us", "P99.99 us",
		t->window_last > t->window_first ? "s" : "", t->window_first);
	if (t->window_last > t->window_first)
		fprintf(f, "-%ld", t->window_last);
	fprintf(f, ")\n");
	for (size_t k = 0; k < t->nwindow; k++) {
		const struct lst_rpt_window *w = &t->win[k];
		char iops[32], mbps[32], mean[32], p99[32], p9999[32];

		if (k == S_ROWS_MAX) {
			fprintf(f,
				"      ... %zu more points (all of them: summary.json, or --json)\n",
				t->nwindow - k);
			break;
		}
		fprintf(f, "      %-*s %10s %9s %9s %10s %10s\n", width, w->label,
			lst_report_fmt(w->iops, "%.0f", iops, sizeof(iops)),
			lst_report_fmt(w->mbps, "%.1f", mbps, sizeof(mbps)),
			lst_report_fmt(w->lat_mean, "%.1f", mean, sizeof(mean)),
			lst_report_fmt(w->lat_p99, "%.1f", p99, sizeof(p99)),
			lst_report_fmt(w->lat_p99_99, "%.1f", p9999, sizeof(p9999)));
	}
}

/* What the phase's purge or bounded write did. */
static void s_print_works(FILE *f, const lst_report *r, const struct lst_rpt_phase *ph)
{
	for (size_t i = 0; i < r->nworks; i++) {
		const struct lst_rpt_work *w = &r->works[i];
		char text[256];

		if (!strcmp(w->phase, ph->name))
			fprintf(f, "  %s: %s\n", w->test,
				lst_report_work_text(w, text, sizeof(text)));
	}
}

/*
 * The rows under point p (agent rows, when agents; target and path rows, when parts), each label
 * in a column of width, to f; with f NULL, nothing is printed and the widest label is returned
 * (so a table measures its rows with the code that prints them).
 */
static int s_print_parts(FILE *f, const lst_report *r, const struct lst_rpt_point *p, bool agents,
			 bool parts, long round, int width)
{
	char label[600];
	int widest = 0;

	for (size_t i = 0; agents && i < r->npoints; i++) {
		const struct lst_rpt_point *q = &r->points[i];

		if (q->point != p->point || strcmp(q->phase, p->phase) || !strcmp(q->agent, "all"))
			continue;
		snprintf(label, sizeof(label), "  agent %s", q->agent);
		widest = LST_MAX(widest, (int)strlen(label));
		if (f)
			s_print_point(f, q, label, round, width);
	}
	for (size_t i = 0; parts && i < r->nparts; i++) {
		const struct lst_rpt_point *q = &r->parts[i];

		if (q->point != p->point || strcmp(q->phase, p->phase))
			continue;
		if (!strcmp(q->scope, "target"))
			snprintf(label, sizeof(label), "  target %s", q->target);
		else
			snprintf(label, sizeof(label), "  path %s:%s", q->agent, q->path);
		widest = LST_MAX(widest, (int)strlen(label));
		if (f)
			s_print_point(f, q, label, round, width);
	}
	return widest;
}

/*
 * The points table of a phase (its shown points idx[n] of rows_all rows) to f: its title line,
 * then a row per point with the read and write p99 of a mix, its agents' rows (several agents)
 * and its targets' and paths' (up to S_AGENT_ROWS points). The label column is as wide as its
 * widest label, up to LST_REPORT_LABEL_MAX (a longer one is cut, and ends in "..."). report:
 * `lockstep report`'s table (f is standard output), with each point's balance and failover lines.
 */
static void s_print_points(FILE *f, const lst_report *r, const struct lst_rpt_phase *ph,
			   const size_t *idx, size_t n, size_t rows_all, bool report)
{
	bool several, rounds = s_has_rounds(r, idx, n, &several);
	bool agents = r->nagents > 1 && n <= S_AGENT_ROWS, parts = n <= S_AGENT_ROWS;
	char label[256];
	int width = 5;

	for (size_t k = 0; k < n && k < S_ROWS_MAX; k++) {
		const struct lst_rpt_point *p = &r->points[idx[k]];

		width = LST_MAX(width, (int)strlen(lst_report_point_text(p, several, label,
									 sizeof(label))));
		width = LST_MAX(width, s_print_parts(NULL, r, p, agents, parts, 0, 0));
	}
	width = LST_MIN(width, LST_REPORT_LABEL_MAX);
	fprintf(f, "\nphase %s", ph->name);
	if (*ph->suite)
		fprintf(f, " (%s)", ph->suite);
	fprintf(f, ": %zu point%s", n, n == 1 ? "" : "s");
	if (rows_all > n)
		fprintf(f, " at %s last round (%zu rows in summary.csv)", n == 1 ? "its" : "their",
			rows_all);
	if (ph->partial)
		fprintf(f, ", partial (an agent was lost)");
	fprintf(f, "\n");
	s_print_works(f, r, ph);
	if (lst_report_purged(r, ph->name))
		n = 0; /* a purge does no I/O: its row would be zeros */
	if (n) {
		fprintf(f, "  %-*s", width, several ? "TEST / POINT" : "POINT");
		if (rounds) /* the figures are the last round's; the window's are under steady state */
			fprintf(f, " %10s", "LAST ROUND");
		fprintf(f, " %10s %9s %9s %10s %10s\n", "IOPS", "MB/s", "MEAN us", "P99 us",
			"P99.99 us");
	}
	for (size_t k = 0; k < n; k++) {
		const struct lst_rpt_point *p = &r->points[idx[k]];

		if (k == S_ROWS_MAX) {
			fprintf(f, "  ... %zu more points (all of them: summary.csv, or --json)\n",
				n - k);
			break;
		}
		lst_report_point_text(p, several, label, sizeof(label));
		s_print_point(f, p, label, rounds ? p->round : -1, width);
		s_print_dirs(f, p);
		s_print_parts(f, r, p, agents, parts, rounds ? 0 : -1, width);
		if (report) {
			struct lst_report_view view = { r, ph->name, idx, n, p };

			s_print_balance(r, p);
			lst_report_sections_text(f, LST_SLOT_POINT, &view);
		}
	}
}

static void s_print_phase(const lst_report *r, const struct lst_rpt_phase *ph, size_t *idx)
{
	size_t rows_all, n = lst_report_shown(r, ph->name, idx, &rows_all);
	struct lst_report_view view = { r, ph->name, idx, n, NULL };
	size_t ntests = 0;

	s_print_points(stdout, r, ph, idx, n, rows_all, true);
	lst_report_sections_text(stdout, LST_SLOT_POINTS, &view);
	lst_report_sections_text(stdout, LST_SLOT_PHASE, &view);
	s_print_headlines(r, ph);
	lst_report_sections_text(stdout, LST_SLOT_SCALING, &view);
	for (size_t i = 0; i < r->ntests; i++) {
		const struct lst_rpt_test *t = &r->tests[i];
		char v[512];

		if (strcmp(t->phase, ph->name))
			continue;
		if (!ntests++)
			printf("  steady state:\n");
		s_verdict(t, v, sizeof(v));
		printf("    %s%s%s%s%s: %s\n", *t->test ? "test " : "", t->test,
		       *t->tracked ? (*t->test ? " (" : "") : "", t->tracked,
		       *t->tracked && *t->test ? ")" : "", v);
		if (s_stopped(t, v, sizeof(v)))
			printf("      %s\n", v);
		s_print_window(stdout, t);
	}
}

/* What a matrix's cells are: the window of its phase's verdict, else its own columns. */
static const char *s_matrix_window(const lst_report *r, const struct lst_rpt_matrix *m, char *buf,
				   size_t size)
{
	const struct lst_rpt_test *t = *m->phase ? lst_report_test(r, m->phase, NULL) : NULL;

	if (t || m->steady < 0)
		return lst_report_window_text(t, buf, size);
	snprintf(buf, size, "window average of rounds %ld-%ld; %s", m->window_first, m->window_last,
		 m->steady ? "steady" : "NOT steady");
	return buf;
}

static void s_print_matrix(const lst_report *r, const struct lst_rpt_matrix *m)
{
	char win[256];

	printf("\nIOPS matrix, phase %s (%s; rows block size, columns read/write %%)\n",
	       *m->phase ? m->phase : "?", m->file);
	printf("  each cell: %s\n", s_matrix_window(r, m, win, sizeof(win)));
	printf("  %-9s", "BS");
	for (size_t k = 0; k < m->nmix; k++)
		printf(" %9s", m->mix[k]);
	printf("\n");
	for (size_t i = 0; i < m->nbs; i++) {
		char bs[32], v[32];

		printf("  %-9s", lst_report_bs(m->bs[i], bs, sizeof(bs)));
		for (size_t k = 0; k < m->nmix; k++)
			printf(" %9s",
			       lst_report_fmt(m->iops[i * m->nmix + k], "%.0f", v, sizeof(v)));
		printf("\n");
	}
}

/* The run: id, folder, plan, status, coordinator and versions. */
static void s_print_head(const lst_report *r)
{
	json_t *versions = json_object_get(r->run, "versions");
	const char *key;
	json_t *v;
	bool first = true;

	printf("run          %s\n", r->run_id);
	printf("folder       %s\n", r->dir);
	printf("plan         %s%s%s%s\n", *r->plan_name ? r->plan_name : "?",
	       *r->plan_file ? " (" : "", r->plan_file, *r->plan_file ? ")" : "");
	printf("status       %s%s%s%s%s\n", *r->status ? r->status : "running or stopped",
	       *r->started ? ", started " : "", r->started, *r->finished ? ", finished " : "",
	       r->finished);
	printf("coordinator  %s", *r->coordinator ? r->coordinator : "?");
	json_object_foreach (versions, key, v) {
		char *text = json_dumps(v, JSON_ENCODE_ANY);

		printf("%s %s %s", first ? ";" : ",", key,
		       json_is_string(v) ? json_string_value(v)
		       : text		 ? text
					 : "?");
		free(text);
		first = false;
	}
}

/* The agents, their name and host columns as wide as the widest (agent names are free text). */
static void s_print_agents(const lst_report *r)
{
	int wname = 12, whost = 20;

	for (size_t i = 0; i < r->nagents; i++) {
		wname = LST_MAX(wname, (int)strlen(r->agents[i].name));
		whost = LST_MAX(whost, (int)strlen(r->agents[i].host));
	}
	printf("\n\nagents\n  %-*s %-*s %-9s %5s %16s %10s  %s\n", wname, "NAME", whost, "HOST",
	       "VERSION", "CORES", "CLOCK_OFFSET_US", "RTT_US", "ADDRESS");
	for (size_t i = 0; i < r->nagents; i++) {
		const struct lst_rpt_agent *a = &r->agents[i];
		char off[32], rtt[32], cores[16];

		printf("  %-*s %-*s %-9s %5s %16s %10s  %s%s%s%s\n", wname, a->name, whost,
		       *a->host ? a->host : "-", *a->version ? a->version : "-",
		       a->cores >= 0 ? (snprintf(cores, sizeof(cores), "%ld", a->cores), cores)
				     : "-",
		       lst_report_fmt(a->clock_offset_us, "%+.3f", off, sizeof(off)),
		       lst_report_fmt(a->rtt_us, "%.1f", rtt, sizeof(rtt)), a->address,
		       a->lost ? "  LOST" : "", a->lost && *a->lost_why ? ": " : "",
		       a->lost ? a->lost_why : "");
	}
}

/* The identities run.json gives for a target's paths: model, serial, ... (path). */
static void s_print_identities(json_t *ids)
{
	static const char *const keys[] = { "model", "serial", "firmware", "wwn", "vendor" };
	json_t *p;
	size_t k;

	json_array_foreach (ids, k, p) {
		bool any = false;

		for (size_t j = 0; j < LST_ARRAY_SIZE(keys); j++) {
			const char *s = json_string_value(json_object_get(p, keys[j]));

			if (!s || !*s)
				continue;
			printf("%s%s %s", any ? ", " : "    ", keys[j], s);
			if (!any)
				any = true;
		}
		if (any)
			printf(" (%s)\n", s_or(json_string_value(json_object_get(p, "path"))));
	}
}

static void s_print_targets(const lst_report *r)
{
	json_t *targets = json_object_get(r->run, "targets"), *t;
	size_t i;

	printf("\ntargets\n");
	json_array_foreach (targets, i, t) {
		json_t *paths = json_object_get(t, "paths"), *p;
		const char *share = json_string_value(json_object_get(t, "share"));
		json_t *size = json_object_get(t, "size");
		char sz[32];
		size_t k;

		printf("  %s (%s%s%s):", s_or(json_string_value(json_object_get(t, "name"))),
		       share ? share : "?", json_is_integer(size) ? ", " : "",
		       json_is_integer(size)
			       ? lst_fmt_size((uint64_t)json_integer_value(size), sz, sizeof(sz))
			       : "");
		json_array_foreach (paths, k, p)
			printf("%s %s %s", k ? "," : "",
			       s_or(json_string_value(json_object_get(p, "agent"))),
			       s_or(json_string_value(json_object_get(p, "path"))));
		printf("\n");
		s_print_identities(json_object_get(t, "identities"));
	}
}

static void s_print_errors(const lst_report *r)
{
	json_t *errors = json_object_get(r->run, "errors"), *e;
	size_t i;

	if (!json_array_size(errors))
		return;
	printf("\nerrors (%zu)\n", json_array_size(errors));
	json_array_foreach (errors, i, e) {
		char *text = json_is_string(e) ? NULL : json_dumps(e, JSON_COMPACT);

		printf("  - %s\n", json_is_string(e) ? json_string_value(e) : text);
		free(text);
	}
}

static void s_print_run(const lst_report *r)
{
	s_print_head(r);
	s_print_agents(r);
	s_print_targets(r);
	s_print_errors(r);
}

void lst_report_print_plots(const char *outdir, const struct lst_plot_list *l, int rc,
			    const lst_err *err)
{
	size_t drawn = 0;

	for (size_t i = 0; i < l->n; i++)
		drawn += l->drawn[i];
	printf("\nplots: %zu drawn in %s", drawn, outdir);
	if (rc == -ENOENT)
		printf(" (skipped: gnuplot not found; %zu scripts written)", l->n);
	else if (rc && l->n > drawn)
		printf(" (%zu failed: %s)", l->n - drawn, err->msg);
	else if (rc)
		printf(" (%s)", err->msg);
	printf("\n");
	for (size_t i = 0; i < l->n; i++)
		printf("  %s.%s\n", l->names[i], l->drawn[i] ? "svg .png .gp" : "gp");
}

/* --- JSON ------------------------------------------------------------------------------------ */

static json_t *s_point_json(const struct lst_rpt_point *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "point", json_integer(p->point));
	json_object_set_new(o, "label", json_string(p->label));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "agent", json_string(p->agent));
	json_object_set_new(o, "test", lst_report_json_str(p->test));
	json_object_set_new(o, "round", p->round ? json_integer(p->round) : json_null());
	json_object_set_new(o, "t_s", lst_report_json_num(p->t_s));
	json_object_set_new(o, "duration_s", lst_report_json_num(p->duration_s));
	json_object_set_new(o, "iops", lst_report_json_num(p->iops[0] + p->iops[1]));
	json_object_set_new(o, "read_iops", lst_report_json_num(p->iops[0]));
	json_object_set_new(o, "write_iops", lst_report_json_num(p->iops[1]));
	json_object_set_new(o, "mbps", lst_report_json_num(p->mbps[0] + p->mbps[1]));
	json_object_set_new(o, "lat_mean_us", lst_report_json_num(p->lat_mean));
	json_object_set_new(o, "lat_p50_us", lst_report_json_num(p->lat_p50));
	json_object_set_new(o, "lat_p99_us", lst_report_json_num(p->lat_p99));
	json_object_set_new(o, "lat_p99_9_us", lst_report_json_num(p->lat_p99_9));
	json_object_set_new(o, "lat_p99_99_us", lst_report_json_num(p->lat_p99_99));
	json_object_set_new(o, "lat_max_us", lst_report_json_num(p->lat_max));
	json_object_set_new(o, "errors", lst_report_json_num(p->errors));
	json_object_set_new(o, "partial", json_boolean(p->partial));
	return o;
}

/* Each point of t averaged over its window (the figures a suite's point has). */
static json_t *s_window_json(const struct lst_rpt_test *t)
{
	json_t *a = json_array();

	for (size_t k = 0; k < t->nwindow; k++) {
		const struct lst_rpt_window *w = &t->win[k];

		json_array_append_new(a,
				      json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "label", w->label,
						"iops", lst_report_json_num(w->iops), "mbps",
						lst_report_json_num(w->mbps), "lat_mean_us",
						lst_report_json_num(w->lat_mean), "lat_p99_us",
						lst_report_json_num(w->lat_p99), "lat_p99_99_us",
						lst_report_json_num(w->lat_p99_99)));
	}
	return a;
}

static json_t *s_test_json(const struct lst_rpt_test *t)
{
	json_t *o = json_object();
	char v[512];

	s_verdict(t, v, sizeof(v));
	json_object_set_new(o, "test", json_string(t->test));
	json_object_set_new(o, "suite", lst_report_json_str(t->suite));
	json_object_set_new(o, "tracked", lst_report_json_str(t->tracked));
	json_object_set_new(o, "steady", json_boolean(t->steady));
	json_object_set_new(o, "steady_required", json_boolean(t->required));
	json_object_set_new(o, "max_rounds_hit", json_boolean(t->max_rounds_hit));
	json_object_set_new(o, "rounds", json_integer(t->rounds));
	json_object_set_new(o, "window", json_integer(t->window));
	json_object_set_new(o, "window_first",
			    t->window_first ? json_integer(t->window_first) : json_null());
	json_object_set_new(o, "window_last",
			    t->window_last ? json_integer(t->window_last) : json_null());
	json_object_set_new(o, "average", lst_report_json_num(t->average));
	json_object_set_new(o, "min", lst_report_json_num(t->min));
	json_object_set_new(o, "max", lst_report_json_num(t->max));
	json_object_set_new(o, "data_excursion_pct", lst_report_json_num(t->data_pct));
	json_object_set_new(o, "data_excursion_limit_pct", lst_report_json_num(t->data_limit));
	json_object_set_new(o, "slope_excursion_pct", lst_report_json_num(t->slope_pct));
	json_object_set_new(o, "slope_excursion_limit_pct", lst_report_json_num(t->slope_limit));
	json_object_set_new(o, "slope", lst_report_json_num(t->slope));
	json_object_set_new(o, "verdict", json_string(v));
	json_object_set_new(
		o, "verdict_text",
		json_string(lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last,
					      t->stop, t->capacity_multiple, v, sizeof(v))));
	json_object_set_new(o, "stop_reason",
			    t->stop >= 0 ? json_string(lst_stop_names[t->stop]) : json_null());
	json_object_set_new(o, "stop",
			    lst_report_json_str(lst_stop_text(t->stop, t->rounds, t->bytes_written,
							      t->capacity_multiple, v, sizeof(v))));
	json_object_set_new(o, "bytes_written", lst_report_json_num(t->bytes_written));
	json_object_set_new(o, "capacity_multiple", lst_report_json_num(t->capacity_multiple));
	json_object_set_new(o, "window_points", s_window_json(t));
	return o;
}

/* What a purge or a bounded write did, as "work" of its phase. */
static json_t *s_work_json(const struct lst_rpt_work *w)
{
	char text[256];

	return json_pack(
		"{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "test", w->test, "did", w->did,
		"stop_reason", w->stop >= 0 ? json_string(lst_stop_names[w->stop]) : json_null(),
		"bytes", lst_report_json_num(w->bytes), "capacity_multiple",
		lst_report_json_num(w->capacity_multiple), "seconds",
		lst_report_json_num(w->seconds), "mbps", lst_report_json_num(w->mbps), "suite",
		lst_report_json_str(w->suite), "text", lst_report_work_text(w, text, sizeof(text)));
}

static json_t *s_matrix_json(const lst_report *r, const struct lst_rpt_matrix *m)
{
	json_t *o = json_object(), *mixes = json_array(), *rows = json_array();
	const struct lst_rpt_test *t = *m->phase ? lst_report_test(r, m->phase, NULL) : NULL;
	char win[256];

	for (size_t k = 0; k < m->nmix; k++)
		json_array_append_new(mixes, json_string(m->mix[k]));
	for (size_t i = 0; i < m->nbs; i++) {
		json_t *v = json_array();

		for (size_t k = 0; k < m->nmix; k++)
			json_array_append_new(v, lst_report_json_num(m->iops[i * m->nmix + k]));
		json_array_append_new(rows, json_pack("{s:f, s:o}", "bs", m->bs[i], "iops", v));
	}
	json_object_set_new(o, "phase", lst_report_json_str(m->phase));
	json_object_set_new(o, "file", json_string(m->file));
	json_object_set_new(o, "mixes", mixes);
	json_object_set_new(o, "rows", rows);
	/* what the cells are: the verdict's window, else the file's own columns */
	json_object_set_new(o, "steady",
			    t		     ? json_boolean(t->steady)
			    : m->steady >= 0 ? json_boolean(m->steady)
					     : json_null());
	json_object_set_new(o, "window_first", json_integer(t ? t->window_first : m->window_first));
	json_object_set_new(o, "window_last", json_integer(t ? t->window_last : m->window_last));
	json_object_set_new(o, "verdict", json_string(s_matrix_window(r, m, win, sizeof(win))));
	return o;
}

json_t *lst_report_plots_json(const char *outdir, const struct lst_plot_list *l, int rc,
			      const lst_err *err, bool asked)
{
	json_t *o = json_object(), *drawn = json_array(), *scripts = json_array();

	for (size_t i = 0; l && i < l->n; i++)
		json_array_append_new(l->drawn[i] ? drawn : scripts, json_string(l->names[i]));
	json_object_set_new(o, "dir", outdir ? json_string(outdir) : json_null());
	json_object_set_new(o, "drawn", drawn);
	json_object_set_new(o, "scripts_only", scripts);
	json_object_set_new(o, "problem",
			    !asked ? json_string("--no-plots")
			    : rc   ? json_string(err->msg)
				   : json_null());
	return o;
}

/* A point's rows per target and per path, as "targets" and "paths" of pj (none: absent). */
static void s_parts_json(const lst_report *r, const struct lst_rpt_point *pt, json_t *pj)
{
	json_t *targets = json_array(), *paths = json_array();

	for (size_t j = 0; j < r->nparts; j++) {
		const struct lst_rpt_point *q = &r->parts[j];
		json_t *o;

		if (q->point != pt->point || strcmp(q->phase, pt->phase))
			continue;
		o = s_point_json(q);
		json_object_set_new(o, "target", json_string(q->target));
		if (!strcmp(q->scope, "path"))
			json_object_set_new(o, "path", json_string(q->path));
		json_array_append_new(strcmp(q->scope, "path") ? targets : paths, o);
	}
	if (json_array_size(targets))
		json_object_set(pj, "targets", targets);
	if (json_array_size(paths))
		json_object_set(pj, "paths", paths);
	json_decref(targets);
	json_decref(paths);
}

/*
 * The report's JSON is written as it is made, a value at a time, in the very bytes json_dumps
 * prints for the whole document (JSON_INDENT(2), 12 digits): built whole, a run of 1,500 points
 * held tens of MB of JSON objects at its end, while one point's is a few kB.
 */
#define S_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

struct s_jw {
	FILE *f;
	int depth;
	bool some[16]; /* the container open at each depth has an item already */
	int rc;
};

/* Where the next item of the open container starts: its separator, indent and key. */
static void s_jw_item(struct s_jw *w, const char *key)
{
	fputs(w->some[w->depth] ? ",\n" : "\n", w->f);
	w->some[w->depth] = true;
	fprintf(w->f, "%*s", w->depth * 2, "");
	if (key) {
		json_t *k = json_string(key);
		char *text = json_dumps(k, JSON_ENCODE_ANY);

		fprintf(w->f, "%s: ", text ? text : "\"\"");
		w->rc = text ? w->rc : -ENOMEM;
		free(text);
		json_decref(k);
	}
}

/* v (taken) as the next item, its lines indented as deep as the item. */
static void s_jw_value(struct s_jw *w, const char *key, json_t *v)
{
	char *text = json_dumps(v, S_JSON_FLAGS | JSON_ENCODE_ANY), *s, *nl;

	json_decref(v);
	s_jw_item(w, key);
	if (!text) {
		w->rc = -ENOMEM;
		return;
	}
	for (s = text; (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(w->f, "%.*s\n%*s", (int)(nl - s), s, w->depth * 2, "");
	fputs(s, w->f);
	free(text);
}

/* Every member of o (taken), in its order, as items of the open object. */
static void s_jw_members(struct s_jw *w, json_t *o)
{
	const char *key;
	json_t *v;

	json_object_foreach (o, key, v)
		s_jw_value(w, key, json_incref(v));
	json_decref(o);
}

/* A container (c: '{' or '[') opened as the next item; at depth 0, the document. */
static void s_jw_open(struct s_jw *w, const char *key, char c)
{
	if (w->depth)
		s_jw_item(w, key);
	LST_ASSERT(w->depth + 1 < (int)LST_ARRAY_SIZE(w->some));
	fputc(c, w->f);
	w->some[++w->depth] = false;
}

static void s_jw_close(struct s_jw *w, char c)
{
	if (w->some[w->depth--])
		fprintf(w->f, "\n%*s", w->depth * 2, "");
	fputc(c, w->f);
}

/* What the report says of the run before its phases. */
static json_t *s_run_json(const lst_report *r)
{
	json_t *o = json_object(), *agents = json_array();

	json_object_set_new(o, "dir", json_string(r->dir));
	json_object_set_new(o, "run_id", json_string(r->run_id));
	json_object_set_new(o, "plan_name", lst_report_json_str(r->plan_name));
	json_object_set_new(o, "plan_file", lst_report_json_str(r->plan_file));
	json_object_set_new(o, "status", lst_report_json_str(r->status));
	json_object_set_new(o, "started", lst_report_json_str(r->started));
	json_object_set_new(o, "finished", lst_report_json_str(r->finished));
	json_object_set_new(o, "coordinator", lst_report_json_str(r->coordinator));
	json_object_set(o, "versions", s_jor(json_object_get(r->run, "versions")));
	for (size_t i = 0; i < r->nagents; i++) {
		const struct lst_rpt_agent *a = &r->agents[i];

		json_array_append_new(
			agents,
			json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "name", a->name,
				  "address", lst_report_json_str(a->address), "host",
				  lst_report_json_str(a->host), "version",
				  lst_report_json_str(a->version), "cores",
				  a->cores >= 0 ? json_integer(a->cores) : json_null(),
				  "clock_offset_us", lst_report_json_num(a->clock_offset_us),
				  "rtt_us", lst_report_json_num(a->rtt_us), "lost", a->lost,
				  "lost_why", lst_report_json_str(a->lost_why)));
	}
	json_object_set_new(o, "agents", agents);
	json_object_set(o, "targets", s_jor(json_object_get(r->run, "targets")));
	json_object_set(o, "errors", s_jor(json_object_get(r->run, "errors")));
	return o;
}

/* A shown point with its agents' rows, its parts and its sections. */
static json_t *s_shown_json(const lst_report *r, const struct lst_rpt_point *pt,
			    struct lst_report_view *view)
{
	json_t *pj = s_point_json(pt), *per = json_array();

	for (size_t j = 0; j < r->npoints; j++) {
		const struct lst_rpt_point *q = &r->points[j];

		if (q->point == pt->point && !strcmp(q->phase, pt->phase) &&
		    strcmp(q->agent, "all"))
			json_array_append_new(per, s_point_json(q));
	}
	json_object_set_new(pj, "agents", per);
	s_parts_json(r, pt, pj);
	s_balance_json(r, pt, pj);
	view->point = pt;
	lst_report_sections_json(pj, LST_SLOT_POINT, view);
	return pj;
}

/* A phase, a point at a time. */
static void s_phase_write(struct s_jw *w, const lst_report *r, const struct lst_rpt_phase *ph,
			  size_t *idx)
{
	json_t *p = json_object(), *tests = json_array(), *works = json_array();
	size_t rows_all, n = lst_report_shown(r, ph->name, idx, &rows_all);
	struct lst_report_view view = { r, ph->name, idx, n, NULL };

	json_object_set_new(p, "phase", json_string(ph->name));
	json_object_set_new(p, "suite", lst_report_json_str(ph->suite));
	json_object_set_new(p, "partial", json_boolean(ph->partial));
	json_object_set_new(p, "rows", json_integer((json_int_t)rows_all));
	s_jw_open(w, NULL, '{');
	s_jw_members(w, p);
	s_jw_open(w, "points", '[');
	for (size_t k = 0; k < n; k++)
		s_jw_value(w, NULL, s_shown_json(r, &r->points[idx[k]], &view));
	s_jw_close(w, ']');
	p = json_object();
	s_headlines_json(r, ph, p);
	for (size_t k = 0; k < r->ntests; k++)
		if (!strcmp(r->tests[k].phase, ph->name))
			json_array_append_new(tests, s_test_json(&r->tests[k]));
	json_object_set_new(p, "tests", tests);
	for (size_t k = 0; k < r->nworks; k++)
		if (!strcmp(r->works[k].phase, ph->name))
			json_array_append_new(works, s_work_json(&r->works[k]));
	json_object_set_new(p, "work", works);
	view.point = NULL;
	lst_report_sections_json(p, LST_SLOT_PHASE, &view);
	s_jw_members(w, p);
	s_jw_close(w, '}');
}

int lst_report_json_write(FILE *f, const lst_report *r, json_t *tail)
{
	size_t *idx = lst_calloc(r->npoints + 1, sizeof(*idx));
	struct s_jw w = { .f = f };
	json_t *mx = json_array();

	s_jw_open(&w, NULL, '{');
	s_jw_members(&w, s_run_json(r));
	s_jw_open(&w, "phases", '[');
	for (size_t i = 0; i < r->nphases; i++)
		s_phase_write(&w, r, &r->phases[i], idx);
	s_jw_close(&w, ']');
	for (size_t i = 0; i < r->nmatrices; i++)
		json_array_append_new(mx, s_matrix_json(r, &r->matrices[i]));
	s_jw_value(&w, "matrices", mx);
	s_jw_members(&w, json_incref(tail));
	s_jw_close(&w, '}');
	fputc('\n', f);
	free(idx);
	return w.rc ? w.rc : ferror(f) ? -EIO : 0;
}

void lst_report_print(const lst_report *r)
{
	size_t *idx = lst_calloc(r->npoints + 1, sizeof(*idx));

	s_print_run(r);
	for (size_t i = 0; i < r->nphases; i++)
		s_print_phase(r, &r->phases[i], idx);
	for (size_t i = 0; i < r->nmatrices; i++)
		s_print_matrix(r, &r->matrices[i]);
	free(idx);
}

void lst_report_verdict(const struct lst_rpt_test *t, char *buf, size_t size)
{
	s_verdict(t, buf, size);
}

/* A suite phase's closing rows: its title, what its purge or bounded write did, and for each
 * test with a verdict the verdict in the words every output uses, why its rounds ended and its
 * points averaged over the window (the one figure of a suite's point; rounds.csv has every
 * round). False, printing nothing, for a phase without such a test. */
static bool s_print_verdicts(FILE *f, const lst_report *r, const struct lst_rpt_phase *ph)
{
	bool any = false;

	for (size_t i = 0; i < r->ntests; i++) {
		const struct lst_rpt_test *t = &r->tests[i];
		char v[512];

		if (strcmp(t->phase, ph->name) || !t->nwindow)
			continue;
		if (!any) {
			fprintf(f, "\nphase %s%s%s%s%s\n", ph->name, *ph->suite ? " (" : "",
				ph->suite, *ph->suite ? ")" : "",
				ph->partial ? ", partial (an agent was lost)" : "");
			s_print_works(f, r, ph);
		}
		any = true;
		fprintf(f, "  %s: %s\n", t->test, lst_report_window_text(t, v, sizeof(v)));
		if (s_stopped(t, v, sizeof(v)))
			fprintf(f, "    %s\n", v);
		s_print_window(f, t);
	}
	return any;
}

void lst_report_print_summary(FILE *f, const lst_report *r)
{
	size_t *idx = lst_calloc(r->npoints + 1, sizeof(*idx));

	for (size_t i = 0; i < r->nphases; i++) {
		size_t rows_all, n = lst_report_shown(r, r->phases[i].name, idx, &rows_all);
		struct lst_report_view view = { r, r->phases[i].name, idx, n, NULL };

		if (!n)
			continue;
		if (s_print_verdicts(f, r, &r->phases[i]))
			continue; /* a suite's points are its window averages, not a row per round */
		s_print_points(f, r, &r->phases[i], idx, n, rows_all, false);
		lst_report_sections_text(f, LST_SLOT_SCALING, &view);
	}
	free(idx);
}
