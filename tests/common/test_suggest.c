/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's names and "did you mean": every fio alias of the workload table finds its
 * option and no alias shadows another option's name; lst_opt_suggest finds the nearest name or
 * alias by Damerau-Levenshtein distance (a swap of neighbours is one edit), gives the spelling
 * nearer to what was typed, and suggests nothing for a word too far from every name;
 * lst_workload_parse maps fio's values that are ours and explains fio's engines we lack.
 */
#include <errno.h>
#include <string.h>

#include "lst_opt.h"
#include "lst_text.h"
#include "lst_workload.h"
#include "lst_test.h"

static void s_aliases(void)
{
	static const char *const pairs[][2] = {
		{ "numjobs", "jobs" },	{ "ioengine", "engine" }, { "ramp_time", "ramp" },
		{ "randseed", "seed" }, { "io_size", "bytes" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct lst_opt *o = lst_opt_find(lst_workload_opts, pairs[i][0]);

		T_ASSERT(o);
		T_EQ_STR(o->name, pairs[i][1]);
		T_EQ_STR(o->fio, pairs[i][0]);
	}
	/* an alias is never another option's name, and never the option's own name */
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		if (!o->fio)
			continue;
		T_ASSERT(strcmp(o->fio, o->name));
		for (const struct lst_opt *p = lst_workload_opts; p->name; p++)
			T_ASSERT(strcmp(o->fio, p->name) &&
				 (p == o || !p->fio || strcmp(o->fio, p->fio)));
	}
	/* fio's options of a similar name that mean something else are not aliases */
	T_ASSERT(!lst_opt_find(lst_workload_opts, "buffer_compress_percentage"));
	T_ASSERT(!lst_opt_find(lst_workload_opts, "continue_on_error"));
}

static void s_distance(void)
{
	T_EQ_U64(lst_text_distance("iodepth", "iodepth"), 0);
	T_EQ_U64(lst_text_distance("iodepht", "iodepth"), 1); /* swap */
	T_EQ_U64(lst_text_distance("IODEPTH", "iodepth"), 0); /* case-insensitive */
	T_EQ_U64(lst_text_distance("numjob", "numjobs"), 1);
	T_EQ_U64(lst_text_distance("ab", "ba"), 1);
	T_EQ_U64(lst_text_distance("abc", "ca"), 3); /* optimal string alignment, not full DL */
	T_EQ_U64(lst_text_distance("", "bs"), 2);
}

static void s_suggest(void)
{
	static const char *const cases[][2] = {
		{ "iodepht", "iodepth" },    { "iodpeth", "iodepth" },
		{ "numjob", "numjobs" },     { "job", "jobs" },
		{ "ioengin", "ioengine" },   { "engin", "engine" },
		{ "ramptime", "ramp_time" }, { "rate_iosp", "rate_iops" },
		{ "randseeed", "randseed" }, { "random_distrbution", "random_distribution" },
		{ "bsplit", "bssplit" },     { "dedup_percentage", "dedupe_percentage" },
		{ "rwmixred", "rwmixread" }, { "RUNTIME", "runtime" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *near = lst_opt_suggest_name(lst_workload_opts, cases[i][0]);

		if (!near || strcmp(near, cases[i][1]))
			T_FAIL("suggest(%s) = %s, want %s", cases[i][0], near ? near : "NULL",
			       cases[i][1]);
		T_ASSERT(lst_opt_suggest(lst_workload_opts, cases[i][0]) ==
			 lst_opt_find(lst_workload_opts, cases[i][1]));
	}
	/* too far from every name: nothing rather than a guess */
	static const char *const none[] = { "x",	 "zz",	       "filename",
					    "blocksize", "time_based", "buffer_compress_percentage",
					    "" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		const struct lst_opt *o = lst_opt_suggest(lst_workload_opts, none[i]);

		if (o)
			T_FAIL("suggest(%s) = %s, want none", none[i], o->name);
	}
}

static void s_values(void)
{
	const struct lst_opt *rw = lst_opt_find(lst_workload_opts, "rw");
	const struct lst_opt *eng = lst_opt_find(lst_workload_opts, "ioengine");
	struct lst_workload w;
	lst_err err;

	lst_workload_init(&w);
	T_EQ_INT(lst_workload_parse(rw, &w, "readwrite", &err), 0);
	T_EQ_INT(w.rw, LST_RW_RW);
	T_EQ_INT(lst_workload_parse(eng, &w, "psync", &err), 0);
	T_EQ_INT(w.engine, LST_ENGINE_PSYNC);
	T_EQ_INT(lst_workload_parse(eng, &w, "libaio", &err), -EINVAL);
	T_CONTAINS(err.msg, "engine: 'libaio' is fio's, not lockstep's");
	T_CONTAINS(err.msg, "io_uring");
	T_EQ_INT(w.engine, LST_ENGINE_PSYNC); /* left as it was */
	T_EQ_INT(lst_workload_parse(eng, &w, "sync", &err), -EINVAL);
	T_CONTAINS(err.msg, "psync");
	T_EQ_INT(lst_workload_parse(rw, &w, "randred", &err), -EINVAL);
	T_CONTAINS(err.msg, "did you mean 'randread'?");
	T_EQ_INT(lst_workload_parse(rw, &w, "sideways", &err), -EINVAL);
	T_ASSERT(!strstr(err.msg, "did you mean"));
}

int main(void)
{
	s_aliases();
	s_distance();
	s_suggest();
	s_values();
	return 0;
}
