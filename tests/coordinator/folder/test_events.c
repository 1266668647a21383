/* SPDX-License-Identifier: Apache-2.0 */
/*
 * events.csv, telemetry/ and telemetry.csv (coordinator/folder/lst_events.c): a row of each
 * kind byte for byte, the diff of two known collector outputs (nested objects, arrays, an
 * integer past 2^53 kept exact, a real, fields on one side only left out, strings ignored),
 * telemetry files from valid and broken collector output, deltas read back, and names that
 * would leave the results folder refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_events.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_top[64];

static char *s_read(const char *dir, const char *name)
{
	char *path = lst_asprintf("%s/%s", dir, name), *text = NULL;
	size_t len;

	T_EQ_INT(lst_read_file(path, 1 << 20, &text, &len), 0);
	free(path);
	return text;
}

static lst_results *s_folder(const char *name)
{
	char *dir = lst_asprintf("%s/%s", s_top, name);
	lst_err err;
	lst_results *r = lst_results_new(dir, &err);

	if (!r)
		T_FAIL("%s", err.msg);
	free(dir);
	return r;
}

static void s_events_csv(void)
{
	lst_results *r = s_folder("ev");
	struct lst_event_row ev = {
		.phase = "iops",
		.point = 0,
		.label = "iodepth=8",
		.kind = "event",
		.agent = "b",
		.hook = "port_down",
		.point_t0 = 1000000000,
		.requested = 4000000000,
		.start = 4001234567,
		.end = 4051234567,
		.status = 1,
		.result = "failed",
		.on_error = "continue",
		.text = "exit status 1",
		.output = "line one\nsay \"hi\", \\ok\n",
	};
	struct lst_event_row before = {
		.phase = "iops",
		.point = -1,
		.label = "",
		.kind = "before",
		.agent = "b",
		.hook = "resize",
		.requested = 500000000,
		.start = 500100000,
		.end = 1000100000,
		.status = 0,
		.result = "ok",
		.on_error = "stop",
		.text = "",
		.output = "",
	};
	struct lst_event_row never = ev;
	char *text;

	never.hook = "port_up";
	never.start = never.end = 0;
	never.status = -1;
	never.result = "not run";
	never.text = "the agent was lost";
	never.output = "";
	lst_results_event(r, &before);
	lst_results_event(r, &ev);
	lst_results_event(r, &never);
	T_ASSERT(!lst_results_failed(r));
	text = s_read(lst_results_dir(r), "events.csv");
	T_EQ_STR(
		text,
		"phase,point,label,kind,agent,hook,t_requested,t_start,t_end,late_ms,duration_s,"
		"requested_ns,start_ns,end_ns,status,result,on_error,text,output\n"
		"iops,-1,\"\",before,b,resize,,,,,0.500,500000000,500100000,1000100000,0,ok,stop,"
		"\"\",\"\"\n"
		"iops,0,\"iodepth=8\",event,b,port_down,3.000,3.001,3.051,1.235,0.050,4000000000,"
		"4001234567,4051234567,1,failed,continue,\"exit status 1\","
		"\"line one\\nsay \"\"hi\"\", \\\\ok\\n\"\n"
		"iops,0,\"iodepth=8\",event,b,port_up,3.000,,,,,4000000000,0,0,-1,not run,continue,"
		"\"the agent was lost\",\"\"\n");
	free(text);
	lst_results_destroy(&r);
}

static json_t *s_json(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);

	if (!j)
		T_FAIL("bad test JSON: %s", je.text);
	return j;
}

static void s_diff(void)
{
	json_t *b = s_json("{\"a\": {\"b\": [1, 2, {\"c\": 5}], \"gone\": 4}, \"x\": 1.5,"
			   " \"s\": \"one\", \"big\": 9007199254740992, \"t\": true,"
			   " \"arr\": [7, 8, 9]}");
	json_t *a = s_json("{\"a\": {\"b\": [1, 3, {\"c\": 5}], \"new\": 1}, \"x\": 2.25,"
			   " \"s\": \"two\", \"big\": 9007199254740993, \"t\": false,"
			   " \"arr\": [7, 10], \"only\": 5}");
	json_t *d = lst_telemetry_diff(b, a), *e;

	T_EQ_INT(json_array_size(d), 4);
	e = json_array_get(d, 0);
	T_EQ_STR(json_string_value(json_object_get(e, "field")), "a.b[1]");
	T_EQ_INT(json_integer_value(json_object_get(e, "before")), 2);
	T_EQ_INT(json_integer_value(json_object_get(e, "after")), 3);
	T_ASSERT(json_is_integer(json_object_get(e, "delta")));
	T_EQ_INT(json_integer_value(json_object_get(e, "delta")), 1);
	e = json_array_get(d, 1);
	T_EQ_STR(json_string_value(json_object_get(e, "field")), "x");
	T_ASSERT(json_is_real(json_object_get(e, "delta")));
	T_NEAR(json_real_value(json_object_get(e, "delta")), 0.75, 0);
	e = json_array_get(d, 2);
	T_EQ_STR(json_string_value(json_object_get(e, "field")), "big");
	T_EQ_INT(json_integer_value(json_object_get(e, "after")), 9007199254740993LL);
	T_EQ_INT(json_integer_value(json_object_get(e, "delta")), 1);
	e = json_array_get(d, 3);
	T_EQ_STR(json_string_value(json_object_get(e, "field")), "arr[1]");
	T_EQ_INT(json_integer_value(json_object_get(e, "delta")), 2);
	json_decref(d);
	/* a key with '.' and '[' is printed as it is */
	json_decref(b);
	json_decref(a);
	b = s_json("{\"port.1[a]\": {\"n\": 1}}");
	a = s_json("{\"port.1[a]\": {\"n\": 4}}");
	d = lst_telemetry_diff(b, a);
	T_EQ_INT(json_array_size(d), 1);
	T_EQ_STR(json_string_value(json_object_get(json_array_get(d, 0), "field")), "port.1[a].n");
	json_decref(d);
	json_decref(b);
	json_decref(a);
}

/* A JSON text nested depth levels deep around a counter n: [[[...{"n": n}...]]]. */
static char *s_nested(int depth, int n)
{
	size_t len = (size_t)depth * 2 + 32, o = 0;
	char *s = lst_malloc(len);

	for (int i = 0; i < depth; i++)
		s[o++] = '[';
	o += (size_t)snprintf(s + o, len - o, "{\"n\": %d}", n);
	for (int i = 0; i < depth; i++)
		s[o++] = ']';
	s[o] = '\0';
	return s;
}

static void s_item(struct lst_telemetry_item *it, const char *name, int status, const char *out)
{
	*it = (struct lst_telemetry_item){ name, status, "", out, strlen(out), 0 };
}

static void s_telemetry(void)
{
	lst_results *r = s_folder("tm");
	struct lst_telemetry_item it[6];
	char *deep0 = s_nested(100, 1), *deep1 = s_nested(100, 2), *text;
	json_t *doc, *o;
	lst_err err;

	s_item(&it[0], "smart", 0, "{\"log\": {\"errors\": 5, \"temp\": 30.5}, \"port\": [1, 2]}");
	s_item(&it[1], "deep", 0, deep0);
	T_EQ_INT(lst_telemetry_write(r, "b", "iops", "before", it, 2, &err), 0);
	text = s_read(lst_results_dir(r), "telemetry/b/iops-before.json");
	T_CONTAINS(text, "\n  \"deep\": [\n"); /* both collectors are in it */
	T_ASSERT(
		!strncmp(text,
			 "{\n  \"smart\": {\n    \"log\": {\n      \"errors\": 5,\n      \"temp\": "
			 "30.5\n    },\n    \"port\": [\n      1,\n      2\n    ]\n  },\n",
			 100));
	free(text);

	s_item(&it[0], "smart", 0,
	       "{\"log\": {\"errors\": 1209, \"temp\": 31.25}, \"port\": [1, 2, 3]}");
	s_item(&it[1], "deep", 0, deep1);
	s_item(&it[2], "bad", 0, "{\"n\": 1, \"m\": ");
	s_item(&it[3], "failed", 3, "no such device\n");
	s_item(&it[4], "huge", 0, "{\"n\": 123456789012345678901234567890, \"r\": 1e999}");
	s_item(&it[5], "bin", 2, "\xff\xfe ok");
	T_EQ_INT(lst_telemetry_write(r, "b", "iops", "after", it, 6, &err), 0);
	text = s_read(lst_results_dir(r), "telemetry/b/iops-after.json");
	doc = s_json(text);
	free(text);
	o = json_object_get(doc, "bad");
	T_CONTAINS(json_string_value(json_object_get(o, "error")), "not valid JSON: line 1");
	T_EQ_INT(json_integer_value(json_object_get(o, "status")), 0);
	T_EQ_STR(json_string_value(json_object_get(o, "output")), "{\"n\": 1, \"m\": ");
	o = json_object_get(doc, "failed");
	T_EQ_STR(json_string_value(json_object_get(o, "error")), "exited with status 3");
	T_EQ_STR(json_string_value(json_object_get(o, "output")), "no such device\n");
	T_CONTAINS(json_string_value(json_object_get(json_object_get(doc, "huge"), "error")),
		   "not valid JSON");
	T_EQ_STR(json_string_value(json_object_get(json_object_get(doc, "bin"), "output")),
		 "?? ok");
	json_decref(doc);

	/* deltas: smart's two changed fields (the real exact to 17 digits); deep compares its
	 * first 32 levels only; the failed ones and the array's extra element are left out */
	T_EQ_INT(lst_telemetry_deltas(r, "iops", -1, "b", "iops", &err), 2);
	T_EQ_INT(lst_telemetry_deltas(r, "iops", -1, "b", "missing", &err), 0);
	text = s_read(lst_results_dir(r), "telemetry.csv");
	T_EQ_STR(text, "phase,point,agent,collector,field,before,after,delta\n"
		       "iops,-1,b,smart,\"log.errors\",5,1209,1204\n"
		       "iops,-1,b,smart,\"log.temp\",30.5,31.25,0.75\n");
	free(text);

	T_EQ_INT(lst_telemetry_kmsg(r, "b", "iops", "[1.000001] one\n[2.5] two", 24, 3, "", &err),
		 0);
	text = s_read(lst_results_dir(r), "telemetry/b/iops-kmsg.txt");
	T_EQ_STR(text, "[1.000001] one\n[2.5] two\nlockstep: 3 kernel log records were lost "
		       "here (the kernel's buffer overran)\n");
	free(text);
	T_ASSERT(!lst_results_failed(r));
	free(deep0);
	free(deep1);
	lst_results_destroy(&r);
}

static void s_escape_refused(void)
{
	lst_results *r = s_folder("esc");
	struct lst_telemetry_item it;
	static const char *const agents[] = { "../x", "..", ".", "a/b", "", "a\nb" };
	char *outside = lst_asprintf("%s/x", s_top);
	struct stat st;
	lst_err err;

	s_item(&it, "c", 0, "{}");
	for (size_t i = 0; i < sizeof(agents) / sizeof(*agents); i++) {
		T_EQ_INT(lst_telemetry_write(r, agents[i], "p", "before", &it, 1, &err), -EINVAL);
		T_EQ_INT(lst_telemetry_kmsg(r, agents[i], "p", "", 0, 0, "", &err), -EINVAL);
		T_EQ_INT(lst_telemetry_write(r, "b", agents[i], "before", &it, 1, &err), -EINVAL);
		T_EQ_INT(lst_telemetry_deltas(r, "p", -1, "b", agents[i], &err), -EINVAL);
	}
	T_CONTAINS(err.msg, "cannot be a file name");
	T_EQ_INT(lst_telemetry_write(r, "b", "p", "../../x", &it, 1, &err), -EINVAL);
	T_ASSERT(stat(outside, &st) && errno == ENOENT);
	T_ASSERT(!lst_results_failed(r));
	free(outside);
	lst_results_destroy(&r);
}

/* Prefixes of a real document and random bytes: every write works and the file parses. */
static void s_untrusted(void)
{
	static const char doc[] = "{\"a\": {\"b\": [1, 2.5, {\"c\": \"x\\u00e9\"}]}, \"n\": -7}";
	lst_results *r = s_folder("untrusted");
	struct lst_telemetry_item it;
	char buf[256], *text;
	lst_err err;

	srand(13);
	for (int k = 0; k < 400; k++) {
		size_t len;

		if (k < (int)sizeof(doc) - 1) {
			len = (size_t)k + 1;
			memcpy(buf, doc, len);
		} else {
			len = (size_t)(rand() % (int)sizeof(buf));
			for (size_t i = 0; i < len; i++)
				buf[i] =
					(char)(rand() % 5 ? "{}[]\",:0123456789.eE-tfn \\u"[rand() %
											    28]
							  : rand());
		}
		it = (struct lst_telemetry_item){ "c", 0, "", buf, len, 0 };
		T_EQ_INT(lst_telemetry_write(r, "a", "p", k % 2 ? "after" : "before", &it, 1, &err),
			 0);
		text = s_read(lst_results_dir(r),
			      k % 2 ? "telemetry/a/p-after.json" : "telemetry/a/p-before.json");
		json_decref(s_json(text));
		free(text);
		T_ASSERT(lst_telemetry_deltas(r, "p", -1, "a", "p", &err) >= 0);
	}
	T_ASSERT(!lst_results_failed(r));
	lst_results_destroy(&r);
}

/* A resume cuts events.csv and telemetry.csv back with the other append-only files. */
static void s_resume(void)
{
	lst_results *r = s_folder("resume");
	struct lst_event_row ev = { "p", 0, "", "event", "a",	 "h", 1, 2,
				    3,	 4, 0,	"ok",	 "stop", "",  "" };
	char *dir = lst_strdup(lst_results_dir(r)), *text;
	json_t *sizes;
	lst_err err;

	lst_results_event(r, &ev);
	sizes = lst_results_sizes(r);
	T_ASSERT(json_integer_value(json_object_get(sizes, "events.csv")) > 0);
	lst_results_event(r, &ev);
	lst_results_destroy(&r);
	r = lst_results_reopen(dir, sizes, NULL, &err);
	if (!r)
		T_FAIL("%s", err.msg);
	text = s_read(dir, "events.csv");
	T_EQ_INT(strlen(text), json_integer_value(json_object_get(sizes, "events.csv")));
	free(text);
	lst_results_destroy(&r);
	json_decref(sizes);
	free(dir);
}

/* The scratch folder goes at exit, after a failure too. */
static void s_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_top);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", s_top);
}

int main(void)
{
	snprintf(s_top, sizeof(s_top), "/tmp/lst_test_events.XXXXXX");
	T_ASSERT(mkdtemp(s_top));
	atexit(s_cleanup);
	s_events_csv();
	s_diff();
	s_telemetry();
	s_escape_refused();
	s_untrusted();
	s_resume();
	return 0;
}
