/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep agents: a session with the agents (lst_session.h) says HELLO, measures every clock,
 * prints what each agent said about itself, and says BYE.
 */
#include "lst_probe.h"

#include "lst_time.h"

#include "lst_session.h"

/* The engines agent cn offers, comma-separated, into buf. */
static void s_engines(const lst_conn *cn, char *buf, size_t size)
{
	buf[0] = 0;
	for (int e = 0; lst_engine_names[e]; e++)
		if (lst_conn_info(cn)->engines & (1u << e))
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? "," : "",
				 lst_engine_names[e]);
}

/* A list of names as a JSON array. */
static json_t *s_names_json(const char names[][LST_NAME_MAX], uint32_t n)
{
	json_t *a = json_array();

	for (uint32_t k = 0; k < n && k < LST_MAX_HOOKS; k++)
		json_array_append_new(a, json_string(names[k]));
	return a;
}

/* The hooks and collectors of agent w's config, as a line under its row (none: no line). */
static void s_hooks_line(const struct lst_msg_welcome *w, FILE *out)
{
	char hooks[LST_MAX_HOOKS * LST_NAME_MAX], coll[LST_MAX_HOOKS * LST_NAME_MAX];

	if (!w->nhooks && !w->ncollectors)
		return;
	lst_conn_names(w->hooks, w->nhooks, hooks, sizeof(hooks));
	lst_conn_names(w->collectors, w->ncollectors, coll, sizeof(coll));
	fprintf(out, "%-12s hooks: %s; collectors: %s\n", "", hooks, coll);
}

/* Agent i's row: a JSON object appended to arr, or a table line on out. False when it failed. */
static bool s_row(const lst_session *s, const struct lst_coord_agent *ag, size_t i, bool json,
		  json_t *arr, FILE *out)
{
	const lst_conn *cn = lst_session__conn(s, i);
	const struct lst_msg_welcome *w = lst_conn_info(cn);
	const struct lst_clock_est *est = lst_conn_estimate(cn);
	char engines[64];

	s_engines(cn, engines, sizeof(engines));
	if (lst_conn_lost(cn) || !lst_conn_synced(cn)) {
		if (json)
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "name", ag->name,
							     "address", ag->address, "error",
							     lst_session__lost_why(s, i)));
		else
			fprintf(out, "%-12s %s  (%s)\n", ag->name,
				lst_conn_failure(cn) ? "refused" : "unreachable",
				lst_session__lost_why(s, i));
		return false;
	}
	if (json)
		json_array_append_new(arr,
				      json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:f}",
						"name", w->name, "address", ag->address, "version",
						w->version, "host", w->host, "kernel", w->kernel,
						"cores", (int)w->cores, "engines", engines,
						"clock_offset_us", (double)est->offset_ns / 1e3,
						"rtt_us", (double)est->rtt_ns / 1e3));
	else
		fprintf(out, "%-12s %-9s %-20s %5u %-16s %14.3f %10.1f  %s\n", w->name, w->version,
			w->host, w->cores, engines, (double)est->offset_ns / 1e6,
			(double)est->rtt_ns / 1e3, ag->address);
	if (json) {
		json_t *o = json_array_get(arr, json_array_size(arr) - 1);

		json_object_set_new(o, "hooks", s_names_json(w->hooks, w->nhooks));
		json_object_set_new(o, "collectors", s_names_json(w->collectors, w->ncollectors));
	} else {
		s_hooks_line(w, out);
	}
	return true;
}

int lst_probe_agents(const struct lst_coord_agent *agents, size_t n,
		     const struct lst_coord_opts *sec, bool json, FILE *out)
{
	lst_session *s = lst_session__query_new(agents, n, sec);
	json_t *arr;
	int rc = 0;

	if (!s)
		return 2;
	lst_session__sync(s);
	if (!json)
		fprintf(out, "%-12s %-9s %-20s %5s %-16s %14s %10s  %s\n", "NAME", "VERSION",
			"HOST", "CORES", "ENGINES", "CLOCK_OFFSET_MS", "RTT_US", "ADDRESS");
	arr = json_array();
	for (size_t i = 0; i < n; i++)
		if (!s_row(s, &agents[i], i, json, arr, out))
			rc = 1;
	if (json) {
		json_dumpf(arr, out, JSON_INDENT(2));
		fputc('\n', out);
	}
	lst_session__end(&s);
	json_decref(arr);
	return rc;
}
