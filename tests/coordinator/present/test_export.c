/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_export_write on a hand-made results folder (plan.yaml, run.json, the CSV headers and
 * timeseries.csv rows) with a samples reader written here, so the samples are known exactly: a
 * ramp interval, an interval whose sample closed late (15 ms of a 10 ms interval), one that
 * closed early, a last one of 0.2 ms. The fio export must count the measured ones only, take
 * its per-interval statistics from the timeseries rows, and stamp the histogram log's records
 * at their intervals' ends on the grid, rising in each direction as fio-histo-log-pctiles.py
 * requires (the samples' own ends would go back after the late one and repeat a ms at the
 * short last one).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_export.h"
#include "lst_test.h"
#include "lst_scratch.h"
#include "lst_util.h"

static const char s_plan[] = "lockstep: 1\n"
			     "name: exp\n"
			     "agents:\n"
			     "  - {name: a, address: \"tcp://198.18.0.1:7270\"}\n"
			     "targets:\n"
			     "  - name: t0\n"
			     "    paths: {a: /dev/null}\n"
			     "defaults: {interval: 10ms}\n"
			     "phases:\n"
			     "  - name: p\n"
			     "    workload: {rw: randread, bs: 4k, iodepth: 2, runtime: 1s}\n";

static const char s_run[] =
	"{\"format\": 1, \"run_id\": \"20261201T000000Z-ex01\", \"plan_name\": \"exp\",\n"
	" \"status\": \"complete\", \"started\": \"2026-12-01T00:00:00.000000Z\",\n"
	" \"finished\": \"2026-12-01T00:00:01.000000Z\", \"agents\": [{\"name\": \"a\"}],\n"
	" \"targets\": [], \"errors\": [],\n"
	" \"phases\": [{\"phase\": \"p\", \"point\": 1, \"label\": \"\", \"start_t_s\": 2.0,\n"
	"   \"start\": \"2026-12-01T00:00:00.000000Z\",\n"
	"   \"workload\": {\"rw\": \"randread\", \"bs\": 4096, \"iodepth\": 2, \"jobs\": 1,\n"
	"                \"interval\": 10000000}}]}\n";

static const char s_summary[] =
	"phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,write_mbps,"
	"lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,read_ios,"
	"write_ios,read_bytes,write_bytes,errors\n";

/* The measured intervals 1, 2, 3 of the samples below, for all and for agent a. */
static const char s_ts[] = "phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,"
			   "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,"
			   "lat_p99_99_us,lat_max_us,scope\n"
			   "p,1,1,2.01,all,1000,0,4.096,0,100,100,100,100,100,100,all\n"
			   "p,1,1,2.01,a,1000,0,4.096,0,100,100,100,100,100,100,agent\n"
			   "p,1,2,2.02,all,3000,0,12.288,0,100,100,100,100,100,100,all\n"
			   "p,1,2,2.02,a,3000,0,12.288,0,100,100,100,100,100,100,agent\n"
			   "p,1,3,2.03,all,2000,0,8.192,0,100,100,100,100,100,100,all\n"
			   "p,1,3,2.03,a,2000,0,8.192,0,100,100,100,100,100,100,agent\n";

/* interval k, its length in us, reads, flags */
static const struct {
	int64_t k, us;
	uint64_t reads;
	uint32_t flags;
} s_samples[] = {
	{ 0, 10000, 50, LST_SAMPLE_RAMP },
	{ 1, 15000, 10, 0 }, /* closed late */
	{ 2, 5000, 30, 0 },  /* closed early: its own end is before the late one's */
	{ 3, 200, 20, 0 },   /* the last, short */
};

static int s_reader(const char *dir, const char *agent, lst_export_sample_fn fn, void *arg,
		    lst_err *err)
{
	(void)dir;
	T_EQ_STR(agent, "a");
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_samples); i++) {
		static lst_sample s;
		struct lst_export_sample m = { .phase = 0, .point = 1, .s = &s };
		int rc;

		lst_sample_init(&s, s_samples[i].k);
		s.flags = s_samples[i].flags;
		s.start_ns = s_samples[i].k * 10000000;
		s.end_ns = s.start_ns + s_samples[i].us * 1000;
		s.dir[LST_DIR_READ].ios = s_samples[i].reads;
		s.dir[LST_DIR_READ].bytes = s_samples[i].reads * 4096;
		lst_hist_record_n(&s.dir[LST_DIR_READ].lat, 100000, s_samples[i].reads);
		if ((rc = fn(arg, &m, err)))
			return rc;
	}
	return 0;
}

static void s_write(const char *dir, const char *name, const char *text)
{
	char *path = lst_asprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	T_ASSERT(f);
	T_ASSERT(fputs(text, f) >= 0);
	T_ASSERT(!fclose(f));
	free(path);
}

/* The client/server file's entry of agent a: measured reads only, the rows' statistics. */
static void s_check_json(const char *out)
{
	char *path = lst_asprintf("%s/p/4k/randread-iodepth-2-numjobs-1.json", out);
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je), *rd;

	if (!doc)
		T_FAIL("%s: %s", path, je.text);
	rd = json_object_get(json_array_get(json_object_get(doc, "client_stats"), 0), "read");
	T_EQ_INT(json_integer_value(json_object_get(rd, "total_ios")), 60);
	T_EQ_INT(json_integer_value(json_object_get(rd, "iops_samples")), 3);
	T_EQ_INT(json_integer_value(json_object_get(rd, "iops_min")), 1000);
	T_EQ_INT(json_integer_value(json_object_get(rd, "iops_max")), 3000);
	T_NEAR(json_real_value(json_object_get(rd, "iops_mean")), 2000.0, 1e-6);
	T_NEAR(json_real_value(json_object_get(rd, "iops_stddev")), 1000.0, 1e-6);
	T_EQ_INT(json_integer_value(json_object_get(rd, "bw_max")), 12000); /* 12.288 MB/s */
	json_decref(doc);
	free(path);
}

/* The histogram log: one read record per measured interval at 2.02, 2.03, 2.04 s. */
static void s_check_log(const char *out)
{
	char *path = lst_asprintf("%s/p/4k/hist/randread-iodepth-2-numjobs-1_clat_hist.1.log", out);
	FILE *f = fopen(path, "r");
	static const long want[] = { 2020, 2030, 2040 };
	char line[32768];
	size_t n = 0;

	T_ASSERT(f);
	while (fgets(line, sizeof(line), f)) {
		long ms, dir;

		T_ASSERT(sscanf(line, "%ld, %ld,", &ms, &dir) == 2);
		T_EQ_INT(dir, 0);
		T_ASSERT(n < LST_ARRAY_SIZE(want));
		T_EQ_INT(ms, want[n]);
		n++;
	}
	T_EQ_INT(n, LST_ARRAY_SIZE(want));
	fclose(f);
	free(path);
}

int main(void)
{
	const char *dir = lst_scratch("export");
	char *out = lst_asprintf("%s/fio", dir);
	size_t n = 0;
	lst_err err;

	s_write(dir, "plan.yaml", s_plan);
	s_write(dir, "run.json", s_run);
	s_write(dir, "summary.csv", s_summary);
	s_write(dir, "timeseries.csv", s_ts);
	if (lst_export_write(LST_EXPORT_FIO, dir, out, s_reader, &n, &err))
		T_FAIL("lst_export_write: %s", err.msg);
	T_EQ_INT(n, 1);
	s_check_json(out);
	s_check_log(out);
	free(out);
	printf("ok\n");
	return 0;
}
