/*
 * lockstep agents: a coordinator with agents and no plan (lst_coord__new) says HELLO, measures
 * every clock, prints what each agent said about itself, and says BYE.
 */
#include "lst_probe.h"

#include "lst_time.h"

#include "lst_coord_int.h"

int lst_probe_agents(const struct lst_coord_agent *agents, size_t n,
		     const struct lst_coord_opts *sec, bool json, FILE *out)
{
	struct lst_coord_opts opts = { .quiet = true, .connect_timeout_ns = 5 * LST_NS_PER_S };
	lst_coord *c;
	lst_err err;
	json_t *arr = json_array();
	int rc = 0;

	if (sec) {
		opts.key_file = sec->key_file;
		opts.insecure = sec->insecure;
	}
	c = lst_coord__new(agents, n, 10 * LST_NS_PER_S, LST_NS_PER_S, &opts, &err);
	if (!c) {
		fprintf(stderr, "lockstep: %s\n", err.msg);
		json_decref(arr);
		return 2;
	}
	lst_coord__hello(c);
	lst_coord__sync(c);
	if (!json)
		fprintf(out, "%-12s %-9s %-20s %5s %-16s %14s %10s  %s\n", "NAME", "VERSION",
			"HOST", "CORES", "ENGINES", "CLOCK_OFFSET_MS", "RTT_US", "ADDRESS");
	for (size_t i = 0; i < n; i++) {
		lst_conn *cn = c->a[i].conn;
		char engines[64] = "";

		for (int e = 0; lst_engine_names[e]; e++)
			if (lst_conn_info(cn)->engines & (1u << e))
				snprintf(engines + strlen(engines),
					 sizeof(engines) - strlen(engines), "%s%s",
					 engines[0] ? "," : "", lst_engine_names[e]);
		if (lst_conn_lost(cn) || !lst_conn_synced(cn)) {
			rc = 1;
			if (json)
				json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "name",
								     agents[i].name, "address",
								     agents[i].address, "error",
								     c->a[i].lost_why));
			else
				fprintf(out, "%-12s %s  (%s)\n", agents[i].name,
					lst_conn_failure(cn) ? "refused" : "unreachable",
					c->a[i].lost_why);
			continue;
		}
		if (json)
			json_array_append_new(
				arr,
				json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:f}", "name",
					  lst_conn_info(cn)->name, "address", agents[i].address,
					  "version", lst_conn_info(cn)->version, "host",
					  lst_conn_info(cn)->host, "kernel",
					  lst_conn_info(cn)->kernel, "cores",
					  (int)lst_conn_info(cn)->cores, "engines", engines,
					  "clock_offset_us",
					  (double)lst_conn_estimate(cn)->offset_ns / 1e3, "rtt_us",
					  (double)lst_conn_estimate(cn)->rtt_ns / 1e3));
		else
			fprintf(out, "%-12s %-9s %-20s %5u %-16s %14.3f %10.1f  %s\n",
				lst_conn_info(cn)->name, lst_conn_info(cn)->version,
				lst_conn_info(cn)->host, lst_conn_info(cn)->cores, engines,
				(double)lst_conn_estimate(cn)->offset_ns / 1e6,
				(double)lst_conn_estimate(cn)->rtt_ns / 1e3, agents[i].address);
	}
	if (json) {
		json_dumpf(arr, out, JSON_INDENT(2));
		fputc('\n', out);
	}
	lst_coord__bye(c);
	lst_coord_destroy(&c);
	json_decref(arr);
	return rc;
}
