/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Results round trip: a folder written by the writer (lst_results) from known samples and
 * totals, then (1) every CSV line compared with the bytes the format has always had (the
 * printf formats of the writer before the column tables, written out here as the oracle), and
 * (2) read back with the report reader (lst_report_load) and every field of every file
 * compared with what was written; (3) summary.csv cut back to the columns it had before the
 * workload block, then before the health block, then before the per-direction latency, which
 * must still load (read/write p99 NAN); (4) a resume of that older folder appends rows in its
 * columns, so it still loads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_columns.h"
#include "lst_report.h"
#include "lst_results.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_dir[64];

static char *s_read(const char *name)
{
	char *path = lst_asprintf("%s/%s", s_dir, name), *text;
	size_t len;

	T_ASSERT(!lst_read_file(path, 1 << 20, &text, &len));
	free(path);
	return text;
}

/* Totals of one direction: n I/Os of bs bytes, latencies lat_ns (the same for each). */
static void s_dir_stats(struct lst_dir_stats *d, uint64_t n, uint64_t bs, uint64_t lat_ns,
			uint64_t errors)
{
	lst_hist_init(&d->lat);
	d->ios = n;
	d->bytes = n * bs;
	d->errors = errors;
	lst_hist_record_n(&d->lat, lat_ns, n);
}

static void s_totals(struct lst_merge_totals *t, double secs, uint64_t nr, uint64_t nw)
{
	memset(t, 0, sizeof(*t));
	s_dir_stats(&t->dir[LST_DIR_READ], nr, 4096, 100000, 1);
	s_dir_stats(&t->dir[LST_DIR_WRITE], nw, 4096, 300000, 2);
	t->seconds = secs;
	for (int d = 0; d < LST_DIR_N; d++) {
		t->iops[d] = (double)t->dir[d].ios / secs;
		t->mbps[d] = (double)t->dir[d].bytes / secs / 1e6;
	}
}

/* The latency columns as the writer has always printed them: ",mean,p50,p99,p99.9,p99.99,max". */
static void s_lat_text(const struct lst_dir_stats *dir, char *buf, size_t size)
{
	struct lst_hist_stats st;
	lst_hist h = dir[LST_DIR_READ].lat;

	lst_hist_add(&h, &dir[LST_DIR_WRITE].lat);
	lst_hist_stats(&h, &st);
	snprintf(buf, size, ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", st.mean / 1e3, (double)st.p50 / 1e3,
		 (double)st.p99 / 1e3, (double)st.p99_9 / 1e3, (double)st.p99_99 / 1e3,
		 (double)st.max / 1e3);
}

/* The combined latency columns at the end of summary.csv: ",min,p90,p95,p99.999". */
static void s_lat_more_text(const struct lst_dir_stats *dir, char *buf, size_t size)
{
	struct lst_hist_stats st;
	lst_hist h = dir[LST_DIR_READ].lat;

	lst_hist_add(&h, &dir[LST_DIR_WRITE].lat);
	lst_hist_stats(&h, &st);
	snprintf(buf, size, ",%.3f,%.3f,%.3f,%.3f", (double)st.min / 1e3, (double)st.p90 / 1e3,
		 (double)lst_hist_percentile(&h, 95) / 1e3, (double)st.p99_999 / 1e3);
}

/* The per-direction block of a direction whose values all equal v us: seven times ",v". */
static const char *s_same7(const char *v, char *buf, size_t size)
{
	buf[0] = 0;
	for (int i = 0; i < 7; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), ",%s", v);
	return buf;
}

static struct lst_merge_totals s_tot;
static struct lst_sample_health s_health;
static struct lst_step_result s_step;
static struct lst_step_part s_part;
static struct lst_workload s_w;
static struct lst_row_workload s_rw;

static void s_write(void)
{
	lst_err err;
	lst_results *r = lst_results_new(s_dir, &err);
	struct lst_rates rates = { { 1000.5, 250.25 }, { 4.098, 1.025 }, 0, 0 };
	json_t *run;

	T_ASSERT(r);
	s_totals(&s_tot, 2.5, 2500, 500);
	/* a row's health, and the totals' (different values, so no column can take another's) */
	s_health = (struct lst_sample_health){ { 1, 2, 3, 4, 5 }, 6, 7, 8500 };
	s_tot.health = (struct lst_sample_health){ { 11, 12, 13, 14, 15 }, 16, 17, 2900000000 };
	s_tot.verify = (struct lst_sample_verify){ 21, 22, 23, 24 };
	lst_results_clock(r, "a", 1, 2, 3, -4);
	lst_results_row(r, "p1", 0, 3, 1.25, "all", &rates, s_tot.dir, &s_health, NULL);
	lst_results_row(r, "p1", 0, 3, 1.25, "a", &rates, s_tot.dir, &s_tot.health, &s_tot.verify);
	memset(&s_w, 0, sizeof(s_w));
	s_w.rw = LST_RW_RANDRW;
	s_w.rwmixread = 70;
	s_w.bs = 4096;
	s_w.iodepth = 32;
	s_w.jobs = 4;
	lst_row_workload_of(&s_rw, &s_w);
	lst_results_summary(r, "p1", 0, "bs=4k, \"mix\"", "all", 0.5, &s_tot, "iops: \"t\"", 2,
			    &s_rw, json_pack("{s:s, s:i}", "test", "iops: \"t\"", "round", 2));
	lst_results_summary(r, "p1", 1, "plain", "a", 3.0, &s_tot, NULL, 0, NULL, NULL);
	lst_results_round(r, &(struct lst_round_row){ .phase = "p1",
						      .suite = "snia-iops",
						      .test = "iops, \"x\"",
						      .round = 2,
						      .t_s = 12.5,
						      .value = 1250.75,
						      .tracked = "write_iops",
						      .iops = 1500.5,
						      .mbps = 6.25,
						      .lat_mean_us = 150.125,
						      .lat_max_us = 900.5,
						      .bytes_written = 123456789012ULL });
	memset(&s_step, 0, sizeof(s_step));
	lst_hist_init(&s_step.lat);
	lst_hist_record_n(&s_step.lat, 250000, 1000);
	lst_hist_record_n(&s_step.lat, 2000000, 10);
	lst_hist_init(&s_step.lat_dir[LST_DIR_READ]);
	lst_hist_record_n(&s_step.lat_dir[LST_DIR_READ], 250000, 1000);
	lst_hist_init(&s_step.lat_dir[LST_DIR_WRITE]);
	lst_hist_record_n(&s_step.lat_dir[LST_DIR_WRITE], 2000000, 10);
	s_step.iops[0] = 700.25;
	s_step.iops[1] = 300.5;
	s_step.mbps[0] = 2.5;
	s_step.mbps[1] = 1.25;
	/* one path's part: a row of its own after the combined one */
	s_part.who = (struct lst_row_who){ "path", "a", "t1", "/dev/sd,b" };
	lst_hist_init(&s_part.lat);
	lst_hist_record_n(&s_part.lat, 250000, 10);
	lst_hist_init(&s_part.lat_dir[LST_DIR_READ]); /* reads only: the write block is empty */
	lst_hist_record_n(&s_part.lat_dir[LST_DIR_READ], 250000, 10);
	lst_hist_init(&s_part.lat_dir[LST_DIR_WRITE]);
	s_part.iops[0] = 10;
	s_part.mbps[0] = 0.5;
	s_step.parts = &s_part;
	s_step.nparts = 1;
	lst_results_curve(r, "c1", 0, &s_w, &s_step, 5000, 12.5);
	lst_results_matrix(r, "m1", (const int64_t[]){ 512, 4096 }, 2, (const int64_t[]){ 100, 0 },
			   2, (const double[]){ 1.25, 2.5, 3.75, 4 },
			   &(struct lst_matrix_window){
				   .steady = false,
				   .first = 3,
				   .last = 4,
				   .verdict = "NOT steady after 4 rounds (round limit)" });
	run = json_pack("{s:i, s:s, s:s, s:[]}", "format", 1, "run_id", "rt", "status", "done",
			"phases");
	T_ASSERT(!lst_results_write_run(r, run, true, &err));
	json_decref(run);
	T_ASSERT(!lst_results_failed(r));
	lst_results_destroy(&r);
}

/* (1) The bytes of every CSV file, against the formats the files have always had. */
static void s_check_bytes(void)
{
	char lat[256], lat_step[256], want[4096], rd[128], wr[128], rd2[128], wr2[128], more[128];
	struct lst_hist_stats st;
	char *text;

	s_lat_text(s_tot.dir, lat, sizeof(lat));
	s_lat_more_text(s_tot.dir, more, sizeof(more));
	/* s_tot: 2500 reads of 100 us, 500 writes of 300 us */
	s_same7("100.000", rd, sizeof(rd));
	s_same7("300.000", wr, sizeof(wr));
	text = s_read("timeseries.csv");
	snprintf(want, sizeof(want),
		 "phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,write_mbps,"
		 "lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,"
		 "scope,target,path,"
		 "read_lat_mean_us,read_lat_p50_us,read_lat_p99_us,read_lat_p99_9_us,"
		 "read_lat_p99_99_us,read_lat_p99_999_us,read_lat_max_us,"
		 "write_lat_mean_us,write_lat_p50_us,write_lat_p99_us,write_lat_p99_9_us,"
		 "write_lat_p99_99_us,write_lat_p99_999_us,write_lat_max_us,"
		 "errors_eio,errors_enospc,errors_etimedout,errors_ebade,errors_other,timeouts,"
		 "inflight,oldest_inflight_us,"
		 "verify_ok,verify_pending,verify_unwritten,verify_bad,trim_iops,trim_mbps\n"
		 "p1,0,3,1.250000,all,1000.500,250.250,4.098,1.025%s,all,,\"\"%s%s"
		 ",1,2,3,4,5,6,7,8.500,0,0,0,0,0.000,0.000\n"
		 "p1,0,3,1.250000,a,1000.500,250.250,4.098,1.025%s,agent,,\"\"%s%s"
		 ",11,12,13,14,15,16,17,2900000.000,21,22,23,24,0.000,0.000\n",
		 lat, rd, wr, lat, rd, wr);
	T_EQ_STR(text, want);
	free(text);

	text = s_read("summary.csv");
	snprintf(want, sizeof(want),
		 "phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,"
		 "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,"
		 "lat_max_us,read_ios,write_ios,read_bytes,write_bytes,errors,test,round,scope,"
		 "target,path,"
		 "read_lat_mean_us,read_lat_p50_us,read_lat_p99_us,read_lat_p99_9_us,"
		 "read_lat_p99_99_us,read_lat_p99_999_us,read_lat_max_us,"
		 "write_lat_mean_us,write_lat_p50_us,write_lat_p99_us,write_lat_p99_9_us,"
		 "write_lat_p99_99_us,write_lat_p99_999_us,write_lat_max_us,"
		 "read_lat_count,write_lat_count,"
		 "errors_eio,errors_enospc,errors_etimedout,errors_ebade,errors_other,timeouts,"
		 "oldest_inflight_us,verify_ok,verify_pending,verify_unwritten,verify_bad,"
		 "trim_iops,trim_mbps,rw,bs,iodepth,jobs,rwmixread,"
		 "lat_min_us,lat_p90_us,lat_p95_us,lat_p99_999_us\n"
		 "p1,0,\"bs=4k, \"\"mix\"\"\",all,0.500000,2.500000,%.3f,%.3f,%.3f,%.3f%s,"
		 "2500,500,10240000,2048000,3,\"iops: \"\"t\"\"\",2,all,,\"\"%s%s,2500,500"
		 ",11,12,13,14,15,16,2900000.000,21,22,23,24,0.000,0.000,randrw,4096,32,4,70%s\n"
		 "p1,1,\"plain\",a,3.000000,2.500000,%.3f,%.3f,%.3f,%.3f%s,"
		 "2500,500,10240000,2048000,3,\"\",0,agent,,\"\"%s%s,2500,500"
		 ",11,12,13,14,15,16,2900000.000,21,22,23,24,0.000,0.000,,,,,%s\n",
		 s_tot.iops[0], s_tot.iops[1], s_tot.mbps[0], s_tot.mbps[1], lat, rd, wr, more,
		 s_tot.iops[0], s_tot.iops[1], s_tot.mbps[0], s_tot.mbps[1], lat, rd, wr, more);
	T_EQ_STR(text, want);
	free(text);

	text = s_read("clock.csv");
	T_EQ_STR(text, "agent,t1,t2,t3,t4\na,1,2,3,-4\n");
	free(text);

	text = s_read("rounds.csv");
	T_EQ_STR(text, "phase,test,round,t_s,value,tracked,iops,mbps,lat_mean_us,lat_max_us,"
		       "bytes_written,suite\n"
		       "p1,\"iops, \"\"x\"\"\",2,12.500000,1250.750000,write_iops,1500.500,6.250,"
		       "150.125,900.500,123456789012,snia-iops\n");
	free(text);

	lst_hist_stats(&s_step.lat, &st);
	snprintf(lat_step, sizeof(lat_step), "%.3f,%.3f,%.3f,%.3f", st.mean / 1e3,
		 (double)st.p99 / 1e3, (double)st.p99_9 / 1e3, (double)st.p99_99 / 1e3);
	text = s_read("curves.csv");
	snprintf(want, sizeof(want),
		 "phase,point,jobs,iodepth,bs,rwmixread,iops,mbps,lat_mean_us,lat_p99_us,"
		 "lat_p99_9_us,lat_p99_99_us,rate_iops,target_pct,scope,agent,target,path,"
		 "read_lat_mean_us,read_lat_p50_us,read_lat_p99_us,read_lat_p99_9_us,"
		 "read_lat_p99_99_us,read_lat_p99_999_us,read_lat_max_us,"
		 "write_lat_mean_us,write_lat_p50_us,write_lat_p99_us,write_lat_p99_9_us,"
		 "write_lat_p99_99_us,write_lat_p99_999_us,write_lat_max_us\n"
		 "c1,0,4,32,4096,70,1000.750,3.750,%s,5000,12.5,all,all,,\"\"%s%s\n"
		 "c1,0,4,32,4096,70,10.000,0.500,250.000,250.000,250.000,250.000,5000,12.5,path,a,"
		 "t1,\"/dev/sd,b\"%s%s\n",
		 lat_step, s_same7("250.000", rd2, sizeof(rd2)),
		 s_same7("2000.000", wr2, sizeof(wr2)), rd2, s_same7("", wr, sizeof(wr)));
	T_EQ_STR(text, want);
	free(text);

	text = s_read("matrix.csv");
	T_EQ_STR(text, "bs,100/0,0/100,steady,window\n512,1.2,2.5,false,3-4\n"
		       "4096,3.8,4.0,false,3-4\n");
	free(text);
}

static void s_check_point_common(const struct lst_rpt_point *p, const char *label,
				 const char *agent, long point, double t_s)
{
	struct lst_hist_stats st;
	lst_hist h = s_tot.dir[0].lat;

	lst_hist_add(&h, &s_tot.dir[1].lat);
	lst_hist_stats(&h, &st);
	T_EQ_STR(p->phase, "p1");
	T_EQ_STR(p->label, label);
	T_EQ_STR(p->agent, agent);
	T_EQ_INT(p->point, point);
	T_NEAR(p->t_s, t_s, 1e-6);
	T_NEAR(p->duration_s, 2.5, 1e-6);
	for (int d = 0; d < 2; d++) {
		T_NEAR(p->iops[d], s_tot.iops[d], 5e-4);
		T_NEAR(p->mbps[d], s_tot.mbps[d], 5e-4);
	}
	T_NEAR(p->lat_mean, st.mean / 1e3, 5e-4);
	T_NEAR(p->lat_p50, (double)st.p50 / 1e3, 5e-4);
	T_NEAR(p->lat_p99, (double)st.p99 / 1e3, 5e-4);
	T_NEAR(p->lat_p99_9, (double)st.p99_9 / 1e3, 5e-4);
	T_NEAR(p->lat_p99_99, (double)st.p99_99 / 1e3, 5e-4);
	T_NEAR(p->lat_max, (double)st.max / 1e3, 5e-4);
	T_NEAR(p->errors, 3, 0);
}

/* Every field of a point row, the per-direction p99s included (100 and 300 us). */
static void s_check_point(const struct lst_rpt_point *p, const char *label, const char *agent,
			  long point, double t_s)
{
	s_check_point_common(p, label, agent, point, t_s);
	T_NEAR(p->lat_p99_dir[0], 100, 0);
	T_NEAR(p->lat_p99_dir[1], 300, 0);
}

/* (2) The report reader gives back every field the writer wrote. */
static void s_check_report(void)
{
	struct lst_hist_stats st;
	lst_err err;
	lst_report *r = lst_report_load(s_dir, NULL, &err);

	if (!r)
		T_FAIL("lst_report_load: %s", err.msg);
	T_EQ_STR(r->run_id, "rt");
	T_EQ_STR(r->status, "done");

	T_EQ_INT(r->npoints, 2);
	s_check_point(&r->points[0], "bs=4k, \"mix\"", "all", 0, 0.5);
	T_EQ_STR(r->points[0].test, "iops: \"t\"");
	T_EQ_INT(r->points[0].round, 2);
	T_EQ_INT(r->points[0].line, 2);
	s_check_point(&r->points[1], "plain", "a", 1, 3.0);
	T_EQ_STR(r->points[1].test, "");
	T_EQ_INT(r->points[1].round, 0);
	T_EQ_INT(r->points[1].line, 3);

	T_EQ_INT(r->nts, 2);
	for (size_t i = 0; i < r->nts; i++) {
		const struct lst_rpt_ts *t = &r->ts[i];

		T_EQ_STR(t->phase, "p1");
		T_EQ_STR(t->agent, i ? "a" : "all");
		T_EQ_INT(t->point, 0);
		T_EQ_INT(t->interval, 3);
		T_NEAR(t->t_s, 1.25, 0);
		T_NEAR(t->iops[0], 1000.5, 0);
		T_NEAR(t->iops[1], 250.25, 0);
		T_NEAR(t->mbps[0], 4.098, 0);
		T_NEAR(t->mbps[1], 1.025, 0);
		T_NEAR(t->lat_mean, r->points[0].lat_mean, 0);
		T_NEAR(t->lat_p99, r->points[0].lat_p99, 0);
	}

	T_EQ_INT(r->nrounds, 1);
	T_EQ_STR(r->rounds[0].phase, "p1");
	T_EQ_STR(r->rounds[0].test, "iops, \"x\"");
	T_EQ_STR(r->rounds[0].tracked, "write_iops");
	T_EQ_INT(r->rounds[0].round, 2);
	T_NEAR(r->rounds[0].t_s, 12.5, 0);
	T_NEAR(r->rounds[0].value, 1250.75, 0);
	T_NEAR(r->rounds[0].iops, 1500.5, 0);
	T_NEAR(r->rounds[0].mbps, 6.25, 0);
	T_NEAR(r->rounds[0].lat_mean, 150.125, 0);
	T_NEAR(r->rounds[0].lat_max, 900.5, 0);
	T_NEAR(r->rounds[0].bytes_written, 123456789012.0, 0);

	lst_hist_stats(&s_step.lat, &st);
	T_EQ_INT(r->ncurves, 1);
	T_EQ_STR(r->curves[0].phase, "c1");
	T_EQ_INT(r->curves[0].point, 0);
	T_NEAR(r->curves[0].jobs, 4, 0);
	T_NEAR(r->curves[0].iodepth, 32, 0);
	T_NEAR(r->curves[0].bs, 4096, 0);
	T_NEAR(r->curves[0].rwmixread, 70, 0);
	T_NEAR(r->curves[0].iops, 1000.75, 0);
	T_NEAR(r->curves[0].mbps, 3.75, 0);
	T_NEAR(r->curves[0].lat_mean, st.mean / 1e3, 5e-4);
	T_NEAR(r->curves[0].lat_p99, (double)st.p99 / 1e3, 5e-4);
	T_NEAR(r->curves[0].lat_p99_9, (double)st.p99_9 / 1e3, 5e-4);
	T_NEAR(r->curves[0].lat_p99_99, (double)st.p99_99 / 1e3, 5e-4);
	T_NEAR(r->curves[0].rate_iops, 5000, 0);
	T_NEAR(r->curves[0].target_pct, 12.5, 0);

	T_EQ_INT(r->nmatrices, 1);
	T_EQ_STR(r->matrices[0].file, "matrix.csv");
	T_EQ_INT(r->matrices[0].nbs, 2);
	T_EQ_INT(r->matrices[0].nmix, 2);
	T_NEAR(r->matrices[0].bs[0], 512, 0);
	T_NEAR(r->matrices[0].bs[1], 4096, 0);
	T_EQ_STR(r->matrices[0].mix[0], "100/0");
	T_EQ_STR(r->matrices[0].mix[1], "0/100");
	T_NEAR(r->matrices[0].iops[0], 1.2, 0);
	T_NEAR(r->matrices[0].iops[1], 2.5, 0);
	T_NEAR(r->matrices[0].iops[2], 3.8, 0);
	T_NEAR(r->matrices[0].iops[3], 4.0, 0);
	T_EQ_INT(r->matrices[0].steady, 0);
	T_EQ_INT(r->matrices[0].window_first, 3);
	T_EQ_INT(r->matrices[0].window_last, 4);

	T_ASSERT(lst_report_phase(r, "p1") && lst_report_phase(r, "c1"));
	lst_report_destroy(&r);
	T_ASSERT(!r);
}

/* summary.csv as a folder from before the per-direction columns had it: each line cut before
 * its last n fields (numbers, so no quoted comma among them). */
static void s_cut_columns(const char *name, int n)
{
	char *text = s_read(name), *path = lst_asprintf("%s/%s", s_dir, name);
	FILE *f = fopen(path, "w");

	T_ASSERT(f);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		for (int i = 0; i < n; i++)
			*strrchr(line, ',') = 0;
		fprintf(f, "%s\n", line);
	}
	T_ASSERT(!fclose(f));
	free(path);
	free(text);
}

/* summary.csv without its last n columns (s_cut_columns), read back: its two points. */
static lst_report *s_load_cut(int n, const char *without)
{
	lst_report *r;
	lst_err err;

	s_cut_columns("summary.csv", n);
	r = lst_report_load(s_dir, NULL, &err);
	if (!r)
		T_FAIL("lst_report_load of a summary.csv without %s: %s", without, err.msg);
	T_EQ_INT(r->npoints, 2);
	return r;
}

/* (3) An older folder, without the per-direction columns, still loads: read/write p99 NAN. */
static void s_check_older(void)
{
	lst_report *r;

	/* before the workload block and the combined min, p90, p95 and p99.999 (9 columns) */
	r = s_load_cut(9, "workload columns");
	lst_report_destroy(&r);
	/* before the verify block (4 columns), which loads as it is */
	r = s_load_cut(4, "verify");
	lst_report_destroy(&r);
	/* before the health block (7 columns), which loads as it is */
	r = s_load_cut(7, "health");
	T_ASSERT(!isnan(r->points[0].lat_p99_dir[0]));
	lst_report_destroy(&r);
	/* then before the per-direction block */
	r = s_load_cut(16, "per-direction latency");
	s_check_point_common(&r->points[0], "bs=4k, \"mix\"", "all", 0, 0.5);
	T_ASSERT(isnan(r->points[0].lat_p99_dir[0]) && isnan(r->points[0].lat_p99_dir[1]));
	lst_report_destroy(&r);
}

/* The size of the folder's file name, for a resume's "sizes". */
static json_int_t s_size(const char *name)
{
	char *path = lst_asprintf("%s/%s", s_dir, name);
	struct stat st;

	T_ASSERT(!stat(path, &st));
	free(path);
	return (json_int_t)st.st_size;
}

/*
 * (4) A resume of the older folder (3) left appends rows with the columns of its files, not
 * this version's, so the file still reads; a header that is not ours is refused.
 */
static void s_check_resume_older(void)
{
	json_t *sizes =
		json_pack("{s:I, s:I, s:I}", "timeseries.csv", s_size("timeseries.csv"),
			  "summary.csv", s_size("summary.csv"), "clock.csv", s_size("clock.csv"));
	size_t n = 0;
	lst_results *w;
	char *text;
	lst_report *r;
	lst_err err;

	w = lst_results_reopen(s_dir, sizes, NULL, &err);
	if (!w)
		T_FAIL("lst_results_reopen of an older folder: %s", err.msg);
	lst_results_summary(w, "p1", 2, "resumed", "all", 9.0, &s_tot, NULL, 0, &s_rw, NULL);
	lst_results_destroy(&w);
	r = lst_report_load(s_dir, NULL, &err);
	if (!r)
		T_FAIL("lst_report_load after a resume of an older folder: %s", err.msg);
	T_EQ_INT(r->npoints, 3);
	s_check_point_common(&r->points[2], "resumed", "all", 2, 9.0);
	lst_report_destroy(&r);
	/* the reader, which wants as many fields as the header names, read the new row: it has
	 * the older header's columns, no more */
	text = s_read("summary.csv");
	T_ASSERT(!lst_columns_count(&lst_summary_table, text, &n, &err));
	T_EQ_INT(n, LST_SUM_N - 9 - 4 - 7 - 16);
	free(text);
	/* a newer version's header (one column more), or another file's, is not ours */
	T_EQ_INT(lst_columns_count(&lst_clock_table, "agent,t1,t2,t3,t4,t5\n", &n, &err), -EINVAL);
	T_CONTAINS(err.msg, "clock.csv: has more columns than the 5");
	T_EQ_INT(lst_columns_count(&lst_clock_table, "agent,t1,t3\n", &n, &err), -EINVAL);
	T_CONTAINS(err.msg, "column 3 of its header is not 't2'");
	T_ASSERT(!lst_columns_count(&lst_clock_table, "agent,t1,t2,t3,t4\n", &n, &err));
	T_EQ_INT(n, 5);
	json_decref(sizes);
}

/* A row over several paths keeps what they share and says none (-1, "") where they differ. */
static void s_check_row_workload(void)
{
	struct lst_workload w = s_w;
	struct lst_row_workload all = { 0 }, one;

	lst_row_workload_add(&all, &s_rw);
	w.rw = LST_RW_RANDWRITE; /* a role of its own: writes only, the same bs, depth and jobs */
	lst_row_workload_of(&one, &w);
	T_EQ_STR(one.rw, "randwrite");
	T_EQ_INT(one.rwmixread, -1);
	lst_row_workload_add(&all, &one);
	T_EQ_INT(all.n, 2);
	T_EQ_STR(all.rw, "");
	T_EQ_INT(all.bs, 4096);
	T_EQ_INT(all.iodepth, 32);
	T_EQ_INT(all.jobs, 4);
	T_EQ_INT(all.rwmixread, -1);
	w.bssplit.n[LST_DIR_WRITE] = 2; /* a block-size mix: no one bs */
	lst_row_workload_of(&one, &w);
	T_EQ_INT(one.bs, -1);
}

/* The results folder goes at exit, after a failure too. */
static void s_cleanup(void)
{
	char *cmd = lst_asprintf("rm -rf '%s'", s_dir);

	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", s_dir);
	free(cmd);
}

int main(void)
{
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-roundtrip.%d", (int)getpid());
	atexit(s_cleanup);
	s_write();
	s_check_bytes();
	s_check_report();
	s_check_older();
	s_check_resume_older();
	s_check_row_workload();
	printf("ok: results round trip\n");
	return 0;
}
