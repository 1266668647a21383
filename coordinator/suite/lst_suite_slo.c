/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SLO search (see lst_suite_slo.h): bracketing and bisection over integer loads, and the
 * suite's side of it. The suite state machine (lst_suite.c) asks for each probe after the
 * previous one's result, as rounds until steady ask for the next round; this file decides
 * what that probe is and keeps what every probe measured for slo-PHASE.json. Its curves.csv
 * and rounds.csv rows are the state machine's, as for every suite.
 */
#include "lst_suite_slo.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_opt.h"
#include "lst_util.h"

const char *const lst_slo_stop_names[] = { "searching", "within",      "max_probes", "low_fails",
					   "top_meets", "interrupted", NULL };

/* --- the search ---------------------------------------------------------------------------- */

void lst_slo_search_init(struct lst_slo_search *s, int64_t low, int64_t high, int64_t top,
			 double within_pct, size_t max_probes)
{
	LST_ASSERT(low >= 1 && low < high && high <= top && max_probes >= 1);
	memset(s, 0, sizeof(*s));
	s->high = high;
	s->top = top;
	s->within_pct = within_pct;
	s->max_probes = max_probes;
	s->lo = -1;
	s->hi = -1;
	s->next = low;
}

bool lst_slo_search_next(const struct lst_slo_search *s, int64_t *value)
{
	if (s->stop != LST_SLO_SEARCHING)
		return false;
	*value = s->next;
	return true;
}

/* Is the bracket narrow enough: within the percent of its top, or no load left between? */
static bool s_narrow(const struct lst_slo_search *s)
{
	return s->hi - s->lo <= 1 ||
	       (double)(s->hi - s->lo) <= s->within_pct / 100.0 * (double)s->hi;
}

void lst_slo_search_feed(struct lst_slo_search *s, bool met)
{
	int64_t v = s->next;

	LST_ASSERT(s->stop == LST_SLO_SEARCHING);
	s->probes++;
	if (met)
		s->lo = v;
	else
		s->hi = v;
	if (s->lo < 0) {
		/* Nothing met yet: bracket downward, halving, down to a load of one. */
		if (v == 1)
			s->stop = LST_SLO_LOW_FAILS;
		s->next = v / 2;
	} else if (s->hi < 0) {
		/* Nothing broke the limit yet: the plan's high, then doubling up to the top. */
		if (v == s->top)
			s->stop = LST_SLO_TOP_MEETS;
		s->next = v < s->high ? s->high : LST_MIN(2 * v, s->top);
	} else if (s_narrow(s)) {
		s->stop = LST_SLO_WITHIN;
	} else {
		s->next = s->lo + (s->hi - s->lo) / 2;
	}
	if (s->stop == LST_SLO_SEARCHING && s->probes >= s->max_probes)
		s->stop = LST_SLO_MAX_PROBES;
}

int64_t lst_slo_search_answer(const struct lst_slo_search *s)
{
	return s->lo;
}

/* --- the suite's side ---------------------------------------------------------------------- */

/* What one probe measured, and the bracket its verdict left. */
struct s_probe {
	int64_t value;
	char label[64];
	double iops;
	uint64_t ios;
	uint64_t pct_ns; /* the merged histogram's percentile */
	bool met;
	int64_t lo, hi;
};

struct lst_slo {
	const struct lst_plan_phase *ph;
	struct lst_workload base;
	struct lst_slo_search search;
	const char *knob; /* "rate_iops" or "iodepth": the option the search sets */
	size_t nprobes;
	struct s_probe *probes; /* [ph->slo_max_probes] */
};

lst_slo *lst_slo_new(const struct lst_plan_phase *ph, const struct lst_workload *base)
{
	lst_slo *self = lst_calloc(1, sizeof(*self));
	const struct lst_opt *o;

	self->ph = ph;
	self->base = *base;
	self->knob = ph->slo_over == LST_SLO_OVER_IODEPTH ? "iodepth" : "rate_iops";
	o = lst_opt_find(lst_workload_opts, self->knob);
	LST_ASSERT(o);
	lst_slo_search_init(&self->search, ph->slo_low, ph->slo_high, o->max, ph->slo_within_pct,
			    (size_t)ph->slo_max_probes);
	self->probes = lst_calloc((size_t)ph->slo_max_probes, sizeof(*self->probes));
	return self;
}

void lst_slo_destroy(lst_slo **p)
{
	lst_slo *self = *p;

	if (!self)
		return;
	free(self->probes);
	free(self);
	*p = NULL;
}

bool lst_slo_next(lst_slo *self, struct lst_workload *w, char *label, size_t size)
{
	int64_t v;

	if (!lst_slo_search_next(&self->search, &v))
		return false;
	*w = self->base;
	if (self->ph->slo_over == LST_SLO_OVER_IODEPTH) {
		w->iodepth = v;
	} else {
		/* At least one I/O a second per job, as every rate-limited workload has. */
		w->rate_iops = LST_MAX(v, w->jobs);
	}
	snprintf(label, size, "probe %zu %s=%" PRId64, self->nprobes + 1, self->knob, v);
	return true;
}

void lst_slo_result(lst_slo *self, const struct lst_step_result *r)
{
	struct s_probe *p;

	LST_ASSERT(self->nprobes < (size_t)self->ph->slo_max_probes);
	p = &self->probes[self->nprobes++];
	p->value = self->search.next;
	snprintf(p->label, sizeof(p->label), "probe %zu %s=%" PRId64, self->nprobes, self->knob,
		 p->value);
	p->iops = r->iops[0] + r->iops[1];
	p->ios = r->lat.count;
	p->pct_ns = lst_hist_percentile(&r->lat, self->ph->slo_percentile);
	/* A probe that completed no I/O measured nothing: it cannot claim the limit held. */
	p->met = p->ios > 0 && p->pct_ns <= (uint64_t)self->ph->slo_limit_ns;
	lst_slo_search_feed(&self->search, p->met);
	p->lo = self->search.lo;
	p->hi = self->search.hi;
}

/* A load for the JSON: null when the bracket has no such end yet. */
static json_t *s_load(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

static json_t *s_probe_json(const lst_slo *self, size_t i)
{
	const struct s_probe *p = &self->probes[i];

	/* curves.csv numbers the phase's points from 0 in probe order: point i is probe i + 1. */
	return json_pack("{s:I, s:I, s:s, s:I, s:f, s:I, s:f, s:b, s:o, s:o}", "probe",
			 (json_int_t)(i + 1), "point", (json_int_t)i, "label", p->label, "value",
			 (json_int_t)p->value, "iops", p->iops, "ios", (json_int_t)p->ios,
			 "latency_us", (double)p->pct_ns / 1e3, "met", p->met, "bracket_lo",
			 s_load(p->lo), "bracket_hi", s_load(p->hi));
}

/* The probe that measured load v (the answer), or NULL. */
static const struct s_probe *s_find(const lst_slo *self, int64_t v, size_t *at)
{
	for (size_t i = 0; i < self->nprobes; i++) {
		if (self->probes[i].value == v && self->probes[i].met) {
			*at = i;
			return &self->probes[i];
		}
	}
	return NULL;
}

static json_t *s_answer_json(const lst_slo *self)
{
	size_t at = 0;
	const struct s_probe *p = s_find(self, lst_slo_search_answer(&self->search), &at);

	if (!p)
		return json_null();
	return json_pack("{s:I, s:I, s:s, s:I, s:f, s:f}", "probe", (json_int_t)(at + 1), "point",
			 (json_int_t)at, "label", p->label, "value", (json_int_t)p->value, "iops",
			 p->iops, "latency_us", (double)p->pct_ns / 1e3);
}

/* The bracket's width as a percent of its top, null until both ends are measured. */
static json_t *s_width(const struct lst_slo_search *s)
{
	if (s->lo < 0 || s->hi < 0)
		return json_null();
	return json_real(100.0 * (double)(s->hi - s->lo) / (double)s->hi);
}

static void s_progress(const lst_slo *self, FILE *progress)
{
	const struct lst_slo_search *s = &self->search;
	const struct lst_plan_phase *ph = self->ph;
	size_t at = 0;
	const struct s_probe *a = s_find(self, lst_slo_search_answer(s), &at);

	fprintf(progress, "%s: slo: ", ph->name);
	if (a)
		fprintf(progress,
			"p%g latency stays under %.0f us up to %s=%" PRId64
			" (probe %zu, %.0f IOPS, p%g %.0f us)",
			ph->slo_percentile, (double)ph->slo_limit_ns / 1e3, self->knob, a->value,
			at + 1, a->iops, ph->slo_percentile, (double)a->pct_ns / 1e3);
	else
		fprintf(progress, "no probe kept p%g latency under %.0f us", ph->slo_percentile,
			(double)ph->slo_limit_ns / 1e3);
	fprintf(progress, "; %zu probes, stopped: %s", self->nprobes, lst_slo_stop_names[s->stop]);
	if (s->lo >= 0 && s->hi >= 0)
		fprintf(progress, " (bracket %" PRId64 "-%" PRId64 ", %.1f%%)", s->lo, s->hi,
			100.0 * (double)(s->hi - s->lo) / (double)s->hi);
	fputc('\n', progress);
}

void lst_slo_write(lst_slo *self, lst_results *res, FILE *progress)
{
	const struct lst_plan_phase *ph = self->ph;
	struct lst_slo_search *s = &self->search;
	json_t *doc, *probes = json_array();
	char *text, *name;
	lst_err err;

	if (s->stop == LST_SLO_SEARCHING)
		s->stop = LST_SLO_INTERRUPTED;
	for (size_t i = 0; i < self->nprobes; i++)
		json_array_append_new(probes, s_probe_json(self, i));
	doc = json_pack("{s:s, s:s, s:f, s:f, s:I, s:I, s:f, s:I, s:o, s:o, s:s, s:o, s:o, s:o}",
			"phase", ph->name, "over", lst_slo_over_names[ph->slo_over], "percentile",
			ph->slo_percentile, "limit_us", (double)ph->slo_limit_ns / 1e3, "low",
			(json_int_t)ph->slo_low, "high", (json_int_t)ph->slo_high, "within_pct",
			ph->slo_within_pct, "max_probes", (json_int_t)ph->slo_max_probes, "probes",
			probes, "answer", s_answer_json(self), "stop_reason",
			lst_slo_stop_names[s->stop], "bracket_lo", s_load(s->lo), "bracket_hi",
			s_load(s->hi), "bracket_pct", s_width(s));
	text = json_dumps(doc, JSON_INDENT(2));
	name = lst_asprintf("slo-%s.json", ph->name);
	if (lst_results_write_file(res, name, text, strlen(text), &err))
		lst_log_warn("%s", err.msg);
	free(name);
	free(text);
	json_decref(doc);
	if (progress)
		s_progress(self, progress);
}
