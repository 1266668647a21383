/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run's live metrics (`lockstep run --metrics ADDR:PORT`): what the coordinator knows, kept
 * in an lst_metrics store and served by its endpoint from the pump loop (lst_pump.c). The
 * figures of an interval are set where its timeseries.csv row is written, from the same rates
 * and histograms, so a scrape and the file agree; the run's place (phase, point, round) as
 * each point begins, the steady-state progress after each point's result, and the agents'
 * clocks and liveness just before a request is answered. docs/results.md ("Live metrics")
 * lists every family; this file's table is where they are defined.
 */

#include "lst_hist.h"
#include "lst_metrics.h"

#include "lst_run_int.h"

enum {
	M_READ_IOPS,
	M_WRITE_IOPS,
	M_READ_MBPS,
	M_WRITE_MBPS,
	M_LAT,
	M_LAT_MEAN,
	M_INTERVAL,
	M_INTERVAL_T,
	M_INTERVAL_POINT,
	M_ERRORS,
	M_TIMEOUTS,
	M_VERIFY_OK,
	M_VERIFY_BAD,
	M_RUN_STATE,
	M_RUN_INFO,
	M_POINT_INFO,
	M_PHASE,
	M_POINT,
	M_ROUND,
	M_STEADY_ROUNDS,
	M_STEADY_WINDOW,
	M_STEADY_MAX,
	M_STEADY,
	M_OFFSET,
	M_RTT,
	M_UP,
	M_LOST,
	M_SAMPLES,
	M_N
};

static const struct lst_metric_family s_fams[M_N] = {
	[M_READ_IOPS] = { "lockstep_read_iops", LST_METRIC_GAUGE,
			  "Read I/Os per second in the last complete interval." },
	[M_WRITE_IOPS] = { "lockstep_write_iops", LST_METRIC_GAUGE,
			   "Write I/Os per second in the last complete interval." },
	[M_READ_MBPS] = { "lockstep_read_mbps", LST_METRIC_GAUGE,
			  "Read MB/s (10^6 bytes per second) in the last complete interval." },
	[M_WRITE_MBPS] = { "lockstep_write_mbps", LST_METRIC_GAUGE,
			   "Write MB/s (10^6 bytes per second) in the last complete interval." },
	[M_LAT] = { "lockstep_latency_seconds", LST_METRIC_GAUGE,
		    "Latency percentile of reads and writes together in the last complete "
		    "interval." },
	[M_LAT_MEAN] = { "lockstep_latency_mean_seconds", LST_METRIC_GAUGE,
			 "Mean latency of reads and writes together in the last complete "
			 "interval." },
	[M_INTERVAL] = { "lockstep_interval_index", LST_METRIC_GAUGE,
			 "Index of the last complete interval in its point (timeseries.csv "
			 "interval)." },
	[M_INTERVAL_T] = { "lockstep_interval_t_seconds", LST_METRIC_GAUGE,
			   "Start of the last complete interval, seconds since the run's first "
			   "start (timeseries.csv t_s)." },
	[M_INTERVAL_POINT] = { "lockstep_interval_point", LST_METRIC_GAUGE,
			       "Point of the last complete interval (timeseries.csv point)." },
	[M_ERRORS] = { "lockstep_io_errors_total", LST_METRIC_COUNTER,
		       "I/Os completed with an error in measured intervals." },
	[M_TIMEOUTS] = { "lockstep_io_timeouts_total", LST_METRIC_COUNTER,
			 "I/Os that passed io_timeout in measured intervals." },
	[M_VERIFY_OK] = { "lockstep_verify_ok_total", LST_METRIC_COUNTER,
			  "4 KiB units read back intact by verifying reads." },
	[M_VERIFY_BAD] = { "lockstep_verify_bad_total", LST_METRIC_COUNTER,
			   "4 KiB units read back corrupt by verifying reads." },
	[M_RUN_STATE] = { "lockstep_run_state", LST_METRIC_GAUGE,
			  "1 for the run's current state, 0 for the others." },
	[M_RUN_INFO] = { "lockstep_run_info", LST_METRIC_GAUGE,
			 "The run: its id and the coordinator's host." },
	[M_POINT_INFO] = { "lockstep_point_info", LST_METRIC_GAUGE,
			   "The point running or last run: phase, point, label, suite." },
	[M_PHASE] = { "lockstep_phase_index", LST_METRIC_GAUGE,
		      "0-based index of the phase running." },
	[M_POINT] = { "lockstep_point_index", LST_METRIC_GAUGE,
		      "0-based index of the point running in its phase." },
	[M_ROUND] = { "lockstep_round", LST_METRIC_GAUGE,
		      "1-based round of the point running, 0 when its test has no rounds." },
	[M_STEADY_ROUNDS] = { "lockstep_steady_rounds", LST_METRIC_GAUGE,
			      "Rounds completed by the phase's current test." },
	[M_STEADY_WINDOW] = { "lockstep_steady_window", LST_METRIC_GAUGE,
			      "Rounds the steady-state verdict looks at." },
	[M_STEADY_MAX] = { "lockstep_steady_max_rounds", LST_METRIC_GAUGE,
			   "Rounds after which the test stops, steady or not." },
	[M_STEADY] = { "lockstep_steady", LST_METRIC_GAUGE,
		       "1 once the current test reached steady state, else 0." },
	[M_OFFSET] = { "lockstep_agent_clock_offset_seconds", LST_METRIC_GAUGE,
		       "The agent's clock minus the coordinator's, as last measured." },
	[M_RTT] = { "lockstep_agent_rtt_seconds", LST_METRIC_GAUGE,
		    "Round-trip time of the agent's best clock exchange." },
	[M_UP] = { "lockstep_agent_up", LST_METRIC_GAUGE,
		   "1 while the agent is reachable, 0 when unreachable or lost." },
	[M_LOST] = { "lockstep_agent_lost", LST_METRIC_GAUGE,
		     "1 while the agent is lost (out of the run until it comes back)." },
	[M_SAMPLES] = { "lockstep_agent_samples_merged_total", LST_METRIC_COUNTER,
			"Interval samples of the agent merged (ramp included)." },
};

static const char *const s_states[] = { "connecting", "running", "finished", "failed",
					"interrupted" };

_Static_assert(LST_METRICS_NFDS <= LST_COORD__POLL_MAX, "the pump waits on every socket");

static size_t s_pollfds(lst_coord *c, struct pollfd *fds)
{
	return lst_metrics_pollfds(lst_coord__metrics(c), fds);
}

int lst_coord__metrics_open(lst_coord *c, lst_metrics **m, lst_err *err)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	char l[512];

	*m = NULL;
	if (!opts->metrics)
		return 0;
	*m = lst_metrics_new(opts->metrics, s_fams, M_N, err);
	if (!*m) {
		lst_err_prefix(err, "--metrics ");
		return -1;
	}
	lst_coord__pump_poll(c, s_pollfds, lst_coord__metrics_serve);
	lst_metrics_set(*m, M_RUN_INFO,
			lst_metrics_labels(l, sizeof(l), "run_id", lst_coord__run_id(c), "host",
					   lst_coord__host(c), (char *)NULL),
			1);
	lst_coord__metrics_state(c, "connecting");
	if (!opts->quiet)
		fprintf(opts->progress, "lockstep: metrics on http://%s/metrics\n",
			lst_metrics_address(*m));
	return 0;
}

void lst_coord__metrics_state(lst_coord *c, const char *state)
{
	lst_metrics *m = lst_coord__metrics(c);
	char l[64];

	if (!m)
		return;
	for (size_t i = 0; i < sizeof(s_states) / sizeof(s_states[0]); i++)
		lst_metrics_set(
			m, M_RUN_STATE,
			lst_metrics_labels(l, sizeof(l), "state", s_states[i], (char *)NULL),
			!strcmp(state, s_states[i]));
}

void lst_coord__metrics_row(lst_coord *c, const struct lst_coord__row *row)
{
	static const double qs[] = { 50, 99, 99.9 };
	static const char *const qnames[] = { "0.5", "0.99", "0.999" };
	lst_metrics *m = lst_coord__metrics(c);
	char l[768], lq[800];
	lst_hist lat;
	uint64_t errs = 0;

	if (!m)
		return;
	lst_metrics_labels(l, sizeof(l), "scope", row->who.scope, "agent", row->who.agent, "target",
			   row->who.target, "path", row->who.path, (char *)NULL);
	lst_metrics_set(m, M_READ_IOPS, l, row->rates.iops[LST_DIR_READ]);
	lst_metrics_set(m, M_WRITE_IOPS, l, row->rates.iops[LST_DIR_WRITE]);
	lst_metrics_set(m, M_READ_MBPS, l, row->rates.mbps[LST_DIR_READ]);
	lst_metrics_set(m, M_WRITE_MBPS, l, row->rates.mbps[LST_DIR_WRITE]);
	/* The same histogram as the row's latency columns: both directions added. */
	lat = row->dir[LST_DIR_READ].lat;
	lst_hist_add(&lat, &row->dir[LST_DIR_WRITE].lat);
	for (size_t q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
		snprintf(lq, sizeof(lq), "%s,quantile=\"%s\"", l, qnames[q]);
		lst_metrics_set(m, M_LAT, lq, (double)lst_hist_percentile(&lat, qs[q]) / 1e9);
	}
	lst_metrics_set(m, M_LAT_MEAN, l, lst_hist_mean(&lat) / 1e9);
	lst_metrics_set(m, M_INTERVAL, l, (double)row->k);
	lst_metrics_set(m, M_INTERVAL_T, l, row->t_s);
	lst_metrics_set(m, M_INTERVAL_POINT, l, (double)lst_coord__where(c)->point);
	for (int e = 0; e < LST_ERRC_N; e++)
		errs += row->health->err_class[e];
	lst_metrics_add(m, M_ERRORS, l, (double)errs);
	lst_metrics_add(m, M_TIMEOUTS, l, (double)row->health->timeouts);
	lst_metrics_add(m, M_VERIFY_OK, l, row->verify ? (double)row->verify->ok : 0);
	lst_metrics_add(m, M_VERIFY_BAD, l, row->verify ? (double)row->verify->bad : 0);
}

void lst_coord__metrics_sample(lst_coord *c, size_t i)
{
	lst_metrics *m = lst_coord__metrics(c);
	char l[256];

	if (m)
		lst_metrics_add(m, M_SAMPLES,
				lst_metrics_labels(l, sizeof(l), "agent",
						   lst_conn_name(lst_coord__conn(c, i)),
						   (char *)NULL),
				1);
}

void lst_coord__metrics_point(lst_coord *c, const struct lst_step *step)
{
	const struct lst_coord__where *at = lst_coord__where(c);
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[at->phase];
	lst_metrics *m = lst_coord__metrics(c);
	char l[768], pt[32];

	if (!m)
		return;
	snprintf(pt, sizeof(pt), "%zu", at->point);
	lst_metrics_clear(m, M_POINT_INFO);
	lst_metrics_set(m, M_POINT_INFO,
			lst_metrics_labels(l, sizeof(l), "phase", at->phase_name, "point", pt,
					   "label", at->label, "suite", lst_suite_names[ph->suite],
					   (char *)NULL),
			1);
	lst_metrics_set(m, M_PHASE, "", (double)at->phase);
	lst_metrics_set(m, M_POINT, "", (double)at->point);
	lst_metrics_set(m, M_ROUND, "", (double)step->round);
	lst_coord__metrics_state(c, "running");
}

void lst_coord__metrics_suite(lst_coord *c, const lst_suite_run *suite)
{
	struct lst_suite_progress p;
	lst_metrics *m = lst_coord__metrics(c);
	char l[512];

	if (!m)
		return;
	lst_suite_progress(suite, &p);
	lst_metrics_labels(l, sizeof(l), "phase",
			   lst_coord__plan(c)->phases[lst_coord__where(c)->phase].name, "test",
			   p.test, (char *)NULL);
	lst_metrics_set(m, M_STEADY_ROUNDS, l, (double)p.rounds);
	lst_metrics_set(m, M_STEADY_WINDOW, l, (double)p.window);
	lst_metrics_set(m, M_STEADY_MAX, l, (double)p.max_rounds);
	lst_metrics_set(m, M_STEADY, l, p.steady);
}

/* Each agent's clock estimate and liveness, as of now. */
static void s_agents(lst_coord *c)
{
	lst_metrics *m = lst_coord__metrics(c);

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		const lst_conn *cn = lst_coord__conn(c, i);
		const struct lst_clock_est *e;
		bool lost;
		char l[256];

		if (!cn)
			continue;
		e = lst_conn_estimate(cn);
		lost = lst_conn_lost(cn);
		lst_metrics_labels(l, sizeof(l), "agent", lst_conn_name(cn), (char *)NULL);
		lst_metrics_set(m, M_OFFSET, l, (double)e->offset_ns / 1e9);
		lst_metrics_set(m, M_RTT, l, (double)e->rtt_ns / 1e9);
		lst_metrics_set(m, M_UP, l, !lost && !lst_coord__unreachable(c, i));
		lst_metrics_set(m, M_LOST, l, lost);
	}
}

void lst_coord__metrics_serve(lst_coord *c, const struct pollfd *fds, size_t nfds)
{
	bool any = false;

	for (size_t k = 0; k < nfds; k++)
		any |= fds[k].revents != 0;
	/* The pump wakes at least every 100 ms: each wake-up is the idle connections' timer (one
	 * that sends nothing would otherwise stay open until some other request came). */
	if (!any) {
		lst_metrics_expire(lst_coord__metrics(c), lst_mono_ns());
		return;
	}
	s_agents(c);
	lst_metrics_serve(lst_coord__metrics(c), fds, nfds);
}
