/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep import JOBFILE... [--agent NAME=ADDRESS ...] [-o plan.yaml] [--strict]`: fio job
 * files as a plan, so that a lab's fio library runs on several hosts at once.
 *
 * One job file is run by every agent; several are one per agent, in order, as fio's
 * `--client HOST FILE` pairs them. [global] becomes the plan's `defaults:` (one file) or is
 * merged into each agent's role (several), each job becomes a phase in file order (fio runs
 * jobs of one stonewall group side by side; a phase runs one workload, so such a job is listed),
 * and the job's filename becomes the agent's path of the one target. Each option is checked by
 * lockstep's own workload table, so a value lockstep cannot read is an error at its line;
 * an option it has no meaning for is listed with its line and why, and --strict makes that list
 * an error. Nothing is written unless the whole plan was made.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_cli.h"
#include "lst_errlist.h"
#include "lst_file.h"
#include "lst_fiojob.h"
#include "lst_util.h"
#include "lst_workload.h"

#define S_MAX_AGENTS 64
#define S_MAX_KEYS 24

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	int64_t strict;
	const char *agents[S_MAX_AGENTS];
	size_t nagents;
};

static int s_add_agent(const struct lst_flag *f, void *base, const char *value, lst_err *err)
{
	struct s_flags *fl = base;

	(void)f;
	if (fl->nagents == S_MAX_AGENTS)
		return lst_err_set(err, -EINVAL, "at most %d --agent", S_MAX_AGENTS);
	if (!strchr(value, '=') || *value == '=' || !strchr(value, '=')[1])
		return lst_err_set(err, -EINVAL, "--agent wants NAME=ADDRESS, not '%s'", value);
	fl->agents[fl->nagents++] = value;
	return 0;
}

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct lst_cli_flags, out),
		   .help = "write the plan to FILE (default: standard output)" },
	  .letter = 'o',
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = "agent",
		   .help = "an agent, once per agent: NAME=tcp://HOST[:PORT]; with several job "
			   "files, the n-th runs the n-th file" },
	  .arg = "NAME=ADDRESS",
	  .set = s_add_agent },
	{ .opt = { .name = "strict",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct s_flags, strict),
		   .help = "an option that cannot be carried is an error (exit 2), not a note" } },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, NULL };

const struct lst_flag_cmd lst_cmd_import_flags = {
	.name = "lockstep import",
	.operands = "JOBFILE...",
	.operand = LST_FLAG_FILE,
	.groups = s_groups,
	.about = "Turn fio job files into a plan. One job file is run by every agent; several\n"
		 "are one per agent, in the order of the --agent flags (fio's --client HOST\n"
		 "FILE). [global] becomes the plan's defaults, each job a phase, its filename\n"
		 "the agent's path of the target. Each option fio has and lockstep cannot carry\n"
		 "is listed on stderr as FILE:LINE: with why; the plan is written all the same.\n",
	.more = "Exit status: 0 the plan was written; 2 a job file lockstep cannot read\n"
		"(FILE:LINE: what), or with --strict an option it cannot carry; nothing is\n"
		"written then. Without --agent, one agent named local at tcp://127.0.0.1.\n"
		"docs/fio.md maps fio's options to the plan's.\n"
		"\n"
		"Example, two hosts with a job file each:\n"
		"  lockstep import host1.fio host2.fio --agent a=tcp://host1 \\\n"
		"      --agent b=tcp://host2 -o plan.yaml && lockstep run plan.yaml\n",
};

/* One workload key of the plan with its value, as the plan will read it. */
struct s_kv {
	const char *key; /* lockstep's name (a workload table entry's) */
	char value[128];
};

/* A job's workload: the keys set so far, in the order first set. */
struct s_set {
	struct s_kv kv[S_MAX_KEYS];
	size_t n;
	int64_t rate_iops; /* fio's per job; made per path once numjobs is known */
	int64_t io_size;   /* fio's per job */
	int time_based;	   /* its line: fio stops at runtime only, not at size */
	bool stonewall;	   /* starts a group of its own (in [global]: every job does) */
	const char *path;  /* filename=, borrowed from the job file */
	int path_line;
};

/* What the import is making: the notes of options not carried, the plan's text. */
struct s_import {
	const char *file; /* the job file being read */
	size_t notes;
	bool strict;
	lst_err err;
};

static void s_note(struct s_import *im, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Say what is not carried, FILE:LINE: first; a note, or an error under --strict. */
static void s_note(struct s_import *im, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: %s", im->file, line, im->strict ? "error: " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	im->notes++;
}

static void s_put(struct s_set *s, const char *key, const char *value)
{
	size_t i = 0;

	while (i < s->n && strcmp(s->kv[i].key, key))
		i++;
	LST_ASSERT(i < S_MAX_KEYS);
	s->kv[i].key = key;
	snprintf(s->kv[i].value, sizeof(s->kv[i].value), "%s", value);
	s->n += i == s->n;
}

static const char *s_get(const struct s_set *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->kv[i].key, key))
			return s->kv[i].value;
	return NULL;
}

/*
 * Check value as lockstep's workload option key and store it as lockstep writes it ("4k",
 * "30s"); an error at the line when lockstep cannot read it.
 */
static int s_carry(struct s_import *im, struct s_set *s, const char *key, const char *value,
		   const struct lst_fiojob_opt *o)
{
	const struct lst_opt *opt = lst_opt_find(lst_workload_opts, key);
	struct lst_workload w;
	char buf[128];

	LST_ASSERT(opt);
	lst_workload_init(&w);
	if (lst_opt_parse(opt, &w, value, &im->err)) {
		lst_err_prefix(&im->err, "%s:%d: %s=%s: ", im->file, o->line, o->key,
			       o->value ? o->value : "");
		return -EINVAL;
	}
	s_put(s, key, lst_opt_format(opt, &w, buf, sizeof(buf)));
	return 0;
}

/* A plain number of seconds (fio's unit for runtime and ramp_time) as a duration. */
static const char *s_seconds(const char *v, char *buf, size_t size)
{
	size_t n = strspn(v, "0123456789");

	snprintf(buf, size, n && !v[n] ? "%ss" : "%s", v);
	return buf;
}

static int s_int(struct s_import *im, const struct lst_fiojob_opt *o, int64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoll(o->value, &end, 10);
	if (errno || end == o->value || *end || *out < 0)
		return lst_err_set(&im->err, -EINVAL, "%s:%d: %s=%s: want a whole number >= 0",
				   im->file, o->line, o->key, o->value);
	return 0;
}

/* fio's engines as lockstep's: the asynchronous ones on io_uring, the synchronous on psync. */
static int s_engine(struct s_import *im, struct s_set *s, const struct lst_fiojob_opt *o)
{
	static const char *const async[] = { "io_uring", "libaio", "posixaio", NULL };
	static const char *const sync[] = { "psync", "sync", "pvsync", "pvsync2", NULL };

	for (size_t i = 0; async[i]; i++)
		if (!strcmp(o->value, async[i])) {
			if (i)
				s_note(im, o->line,
				       "ioengine=%s runs on io_uring (asynchronous at the same "
				       "iodepth)",
				       o->value);
			return s_carry(im, s, "engine", "io_uring", o);
		}
	for (size_t i = 0; sync[i]; i++)
		if (!strcmp(o->value, sync[i])) {
			if (i)
				s_note(im, o->line, "ioengine=%s runs on psync (pread/pwrite)",
				       o->value);
			return s_carry(im, s, "engine", "psync", o);
		}
	if (!strcmp(o->value, "null"))
		return s_carry(im, s, "engine", "null", o);
	s_note(im, o->line, "ioengine=%s not carried: lockstep has io_uring, psync and null",
	       o->value);
	return 0;
}

/* bs=R,W (a size per direction) as a block-size mix of one size each way. */
static int s_bs(struct s_import *im, struct s_set *s, const struct lst_fiojob_opt *o)
{
	const char *comma = strchr(o->value, ',');
	char mix[128];

	if (!comma)
		return s_carry(im, s, "bs", o->value, o);
	if (!strncmp(o->value, comma + 1, (size_t)(comma - o->value)) &&
	    strlen(comma + 1) == (size_t)(comma - o->value))
		return s_carry(im, s, "bs", comma + 1, o);
	snprintf(mix, sizeof(mix), "%.*s/100,%s/100", (int)(comma - o->value), o->value, comma + 1);
	return s_carry(im, s, "bssplit", mix, o);
}

/* fio's boolean options: a bare key or 1 is on, 0 off. */
static bool s_on(const struct lst_fiojob_opt *o)
{
	return !o->value || strcmp(o->value, "0");
}

/*
 * fio's options that change nothing here: reporting, naming, and what lockstep does anyway
 * (no random map, threads, a new group per phase).
 */
static const char *const s_harmless[] = {
	"name",
	"description",
	"group_reporting",
	"norandommap",
	"thread",
	"eta",
	"eta_newline",
	"eta_interval",
	"lat_percentiles",
	"clat_percentiles",
	"percentile_list",
	"stonewall",
	"new_group",
	"wait_for_previous",
	"randrepeat",
	"invalidate",
	NULL,
};

/* Options lockstep has a different answer for, and what it is. */
static const struct {
	const char *key, *why;
} s_why[] = {
	{ "verify", "fio's verify names a checksum; lockstep's verify: true stamps and checks "
		    "every 4 KiB unit against the run's journal (add it to the plan)" },
	{ "rate", "a bandwidth cap: lockstep caps IOPS only (rate_iops)" },
	{ "rate_process", "lockstep spaces rate-limited I/Os by arrivals: poisson or uniform, and "
			  "uniform is close to fio's linear but not the same" },
	{ "loops", "a phase runs once; the plan's repeat: runs each point again" },
	{ "startdelay", "every agent starts each phase together, on the shared clock" },
	{ "include", "the included file is not read: import it as a job file of its own" },
	{ "cpus_allowed", "lockstep places its jobs itself" },
	{ "log_avg_msec", "the results folder keeps every interval's samples (interval:)" },
	{ "write_lat_log", "the results folder keeps latency histograms per interval" },
	{ "write_bw_log", "the results folder keeps bandwidth per interval" },
	{ "write_iops_log", "the results folder keeps IOPS per interval" },
};

/* Why key is not carried; fio's directives ("include FILE") by their first word. */
static const char *s_not_carried(const char *key)
{
	size_t n = strcspn(key, " \t");

	for (size_t i = 0; i < sizeof(s_why) / sizeof(s_why[0]); i++)
		if (strlen(s_why[i].key) == n && !strncmp(key, s_why[i].key, n))
			return s_why[i].why;
	return "lockstep has no such option";
}

static bool s_is(const struct lst_fiojob_opt *o, const char *a, const char *b)
{
	return !strcmp(o->key, a) || (b && !strcmp(o->key, b));
}

/* The options fio writes key=value with and lockstep takes under its own name, unchanged. */
static const struct {
	const char *fio, *alias, *ours;
	bool seconds;
} s_same[] = {
	{ "iodepth", NULL, "iodepth", false },
	{ "numjobs", NULL, "jobs", false },
	{ "bssplit", NULL, "bssplit", false },
	{ "rwmixread", NULL, "rwmixread", false },
	{ "size", NULL, "size", false },
	{ "offset", NULL, "offset", false },
	{ "runtime", NULL, "runtime", true },
	{ "ramp_time", NULL, "ramp", true },
	{ "randseed", NULL, "seed", false },
	{ "rw", "readwrite", "rw", false },
	{ "random_distribution", NULL, "random_distribution", false },
};

/*
 * fio's buffer_compress_percentage=N compresses the data *by* N%; lockstep's pattern
 * compressible=M makes it compress *to* M%: M = 100 - N (0 is random data, 100 zeros).
 */
static int s_compress(struct s_import *im, struct s_set *s, const struct lst_fiojob_opt *o)
{
	char buf[64];
	int64_t n;

	if (s_int(im, o, &n))
		return -EINVAL;
	if (n == 0 || n >= 100)
		return s_carry(im, s, "pattern", n ? "zeros" : "random", o);
	snprintf(buf, sizeof(buf), "compressible=%" PRId64, 100 - n);
	return s_carry(im, s, "pattern", buf, o);
}

static int s_option_value(struct s_import *im, struct s_set *s, const struct lst_fiojob_opt *o)
{
	char buf[128];
	int64_t v;

	for (size_t i = 0; i < sizeof(s_same) / sizeof(s_same[0]); i++) {
		if (!s_is(o, s_same[i].fio, s_same[i].alias))
			continue;
		if (!strcmp(o->key, "rw") || !strcmp(o->key, "readwrite"))
			return s_carry(im, s, "rw",
				       !strcmp(o->value, "readwrite") ? "rw" : o->value, o);
		if (!strcmp(o->key, "random_distribution") && !strncmp(o->value, "gauss", 5)) {
			snprintf(buf, sizeof(buf), "normal%s", o->value + 5);
			return s_carry(im, s, s_same[i].ours, buf, o);
		}
		return s_carry(im, s, s_same[i].ours,
			       s_same[i].seconds ? s_seconds(o->value, buf, sizeof(buf)) : o->value,
			       o);
	}
	if (s_is(o, "bs", "blocksize"))
		return s_bs(im, s, o);
	if (s_is(o, "rwmixwrite", NULL)) {
		if (s_int(im, o, &v))
			return -EINVAL;
		snprintf(buf, sizeof(buf), "%" PRId64, 100 - v);
		return s_carry(im, s, "rwmixread", buf, o);
	}
	if (s_is(o, "rate_iops", NULL))
		return s_int(im, o, &s->rate_iops);
	if (s_is(o, "buffer_compress_percentage", NULL))
		return s_compress(im, s, o);
	if (s_is(o, "rate_process", NULL) && !strcmp(o->value, "poisson"))
		return s_carry(im, s, "arrivals", "poisson", o);
	if (s_is(o, "io_size", "io_limit"))
		return s_carry(im, s, "bytes", o->value, o) ? -EINVAL : 0;
	if (s_is(o, "ioengine", NULL))
		return s_engine(im, s, o);
	if (s_is(o, "filename", NULL)) {
		s->path = o->value;
		s->path_line = o->line;
		return 0;
	}
	s_note(im, o->line, "%s=%s not carried: %s", o->key, o->value, s_not_carried(o->key));
	return 0;
}

/* One option of a job (or of [global]) onto its workload. */
static int s_option(struct s_import *im, struct s_set *s, const struct lst_fiojob_opt *o)
{
	if (s_is(o, "stonewall", "new_group") || s_is(o, "wait_for_previous", NULL))
		s->stonewall = s_on(o);
	for (size_t i = 0; s_harmless[i]; i++)
		if (!strcmp(o->key, s_harmless[i]))
			return 0;
	if (s_is(o, "time_based", NULL)) {
		s->time_based = s_on(o) ? o->line : 0;
		return 0;
	}
	if (s_is(o, "zero_buffers", NULL))
		return s_carry(im, s, "pattern", s_on(o) ? "zeros" : "random", o);
	if (s_is(o, "direct", NULL) || s_is(o, "buffered", NULL))
		return s_carry(im, s, "direct",
			       s_on(o) == !strcmp(o->key, "direct") ? "true" : "false", o);
	if (!o->value) {
		s_note(im, o->line, "%s not carried: %s", o->key, s_not_carried(o->key));
		return 0;
	}
	return s_option_value(im, s, o);
}

static int s_section(struct s_import *im, struct s_set *s, const struct lst_fiojob_section *sec)
{
	for (size_t i = 0; i < sec->nopts; i++)
		if (s_option(im, s, &sec->opts[i]))
			return -EINVAL;
	return 0;
}

/* key = per_job x jobs, within the workload table's range, or an error at the job's line. */
static int s_per_path(struct s_import *im, struct s_set *s, const char *key, int64_t per_job,
		      int64_t jobs, const struct lst_fiojob_section *sec)
{
	const struct lst_opt *opt = lst_opt_find(lst_workload_opts, key);
	struct lst_workload w;
	char buf[64];

	lst_workload_init(&w);
	if (per_job > INT64_MAX / jobs || lst_opt_set_int(opt, &w, per_job * jobs, &im->err)) {
		lst_err_set(&im->err, -EINVAL,
			    "%s:%d: job '%s': %" PRId64 " per job x numjobs %" PRId64
			    " is out of %s's range",
			    im->file, sec->line, sec->name, per_job, jobs, key);
		return -EINVAL;
	}
	s_put(s, key, lst_opt_format(opt, &w, buf, sizeof(buf)));
	return 0;
}

/*
 * fio's per-job figures as lockstep's per-path ones: rate_iops and io_size count per job
 * there, over all of a path's jobs here; and without time_based fio stops each job after its
 * size (one pass per job), where lockstep's jobs share one budget.
 */
static int s_finish(struct s_import *im, struct s_set *s, const struct lst_fiojob_section *sec)
{
	const char *jobs_text = s_get(s, "jobs");
	int64_t jobs = jobs_text ? strtoll(jobs_text, NULL, 10) : 1;
	struct lst_workload w;

	lst_workload_init(&w);
	if (s->rate_iops && s_per_path(im, s, "rate_iops", s->rate_iops, jobs, sec))
		return -EINVAL;
	if (s->time_based && !s_get(s, "runtime"))
		return lst_err_set(&im->err, -EINVAL,
				   "%s:%d: time_based without runtime=: fio runs until stopped, "
				   "a plan needs to know when to stop",
				   im->file, s->time_based);
	if (s_get(s, "bytes")) {
		lst_opt_parse(lst_opt_find(lst_workload_opts, "bytes"), &w, s_get(s, "bytes"),
			      &im->err);
		return s_per_path(im, s, "bytes", w.bytes, jobs, sec);
	}
	if (!s->time_based && s_get(s, "size")) {
		lst_opt_parse(lst_opt_find(lst_workload_opts, "size"), &w, s_get(s, "size"),
			      &im->err);
		return s_per_path(im, s, "bytes", w.size, jobs, sec);
	}
	if (!s_get(s, "runtime"))
		return lst_err_set(&im->err, -EINVAL,
				   "%s:%d: job '%s' has neither runtime= nor size=: fio makes a "
				   "pass over the whole device, a plan needs to know when to stop",
				   im->file, sec->line, sec->name);
	return 0;
}

/* A job of a job file, as a phase's workload. */
struct s_job {
	char name[64]; /* the phase's name: letters, digits, `_ . -` */
	int line;      /* its section's */
	struct s_set set;
};

/* A job file read: the defaults its [global] gives and its jobs in order. */
struct s_file {
	lst_fiojob *fio;
	struct s_set defaults;
	struct s_job *jobs;
	size_t njobs;
	const char *path; /* the one filename= of its jobs */
};

/* A section's name as a plan name: other characters become '-', at most 63. */
static void s_plan_name(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size && n < 63; in++)
		out[n++] = isalnum((unsigned char)*in) || strchr("_.-", *in) ? *in : '-';
	out[n] = '\0';
	if (!n)
		snprintf(out, size, "job");
}

/* Every job's device is the file's one filename=: a target has one path per agent. */
static int s_check_path(struct s_import *im, struct s_file *f, const struct s_job *j,
			const struct lst_fiojob_section *sec)
{
	const char *p = j->set.path;

	if (!p)
		return lst_err_set(&im->err, -EINVAL,
				   "%s:%d: job '%s' has no filename= (the block device it drives)",
				   im->file, sec->line, sec->name);
	if (*p != '/' || strchr(p, ':'))
		return lst_err_set(&im->err, -EINVAL,
				   "%s:%d: filename=%s: lockstep wants one absolute device path",
				   im->file, j->set.path_line, p);
	if (f->path && strcmp(f->path, p))
		return lst_err_set(&im->err, -EINVAL,
				   "%s:%d: filename=%s where an earlier job has %s: an agent "
				   "drives one device per job file",
				   im->file, j->set.path_line, p, f->path);
	f->path = p;
	return 0;
}

static int s_read_file(struct s_import *im, const char *path, struct s_file *f)
{
	struct s_set g = { 0 };
	bool seen_job = false;

	if (!(f->fio = lst_fiojob_load(path, &im->err)))
		return -EINVAL;
	im->file = path;
	for (size_t i = 0; i < f->fio->nsections; i++) {
		const struct lst_fiojob_section *sec = &f->fio->sections[i];
		struct s_job *j;

		if (!strcmp(sec->name, "global")) {
			if (s_section(im, &g, sec))
				return -EINVAL;
			if (!seen_job)
				f->defaults = g;
			continue;
		}
		f->jobs = lst_realloc(f->jobs, (f->njobs + 1) * sizeof(*f->jobs));
		j = &f->jobs[f->njobs++];
		s_plan_name(sec->name, j->name, sizeof(j->name));
		j->line = sec->line;
		for (size_t k = 0; k + 1 < f->njobs; k++)
			if (!strcmp(f->jobs[k].name, j->name)) {
				j->name[58] = '\0'; /* room for "-NNNN" within 63 */
				snprintf(j->name + strlen(j->name), 6, "-%zu", f->njobs);
			}
		j->set = g;
		if (s_section(im, &j->set, sec) || s_check_path(im, f, j, sec) ||
		    s_finish(im, &j->set, sec))
			return -EINVAL;
		if (seen_job && !j->set.stonewall)
			s_note(im, sec->line,
			       "[%s] runs alongside the job before it in fio (no stonewall); "
			       "here it is a phase of its own, after it",
			       sec->name);
		seen_job = true;
	}
	if (!f->njobs)
		return lst_err_set(&im->err, -EINVAL, "%s: no job section (only [global])", path);
	return 0;
}

/* A YAML double-quoted scalar. */
static void s_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* The keys a phase's role may not hold: they are the phase's, on every agent alike. */
static bool s_phase_wide(const char *key)
{
	return !strcmp(key, "runtime") || !strcmp(key, "ramp") || !strcmp(key, "engine");
}

/*
 * Write the keys of s as a block map at indent, those of base with the same value left out;
 * with only (0: all; 1: the phase-wide ones, and bytes, so that the phase has a stop of its
 * own; 2: all but the phase-wide ones).
 */
static size_t s_write_set(FILE *out, const char *head, int indent, const struct s_set *s,
			  const struct s_set *base, int only)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const char *b = base ? s_get(base, s->kv[i].key) : NULL;

		if ((b && !strcmp(b, s->kv[i].value)) ||
		    (only == 1 && !s_phase_wide(s->kv[i].key) && strcmp(s->kv[i].key, "bytes")) ||
		    (only == 2 && s_phase_wide(s->kv[i].key)))
			continue;
		if (!n++)
			fprintf(out, "%*s%s\n", indent - 2, "", head);
		fprintf(out, "%*s%s: ", indent, "", s->kv[i].key);
		s_quoted(out, s->kv[i].value);
		fputc('\n', out);
	}
	return n;
}

/* The agents: NAME=ADDRESS, tcp:// added when left out. */
static void s_write_agents(FILE *out, const struct s_flags *fl)
{
	fprintf(out, "agents:\n");
	if (!fl->nagents)
		fprintf(out, "  - {name: local, address: \"tcp://127.0.0.1\"}\n");
	for (size_t i = 0; i < fl->nagents; i++) {
		const char *eq = strchr(fl->agents[i], '=');

		fprintf(out, "  - {name: %.*s, address: \"%s%s\"}\n", (int)(eq - fl->agents[i]),
			fl->agents[i], strstr(eq + 1, "://") ? "" : "tcp://", eq + 1);
	}
}

static const char *s_agent_name(const struct s_flags *fl, size_t i, char *buf, size_t size)
{
	if (!fl->nagents)
		return "local";
	snprintf(buf, size, "%.*s", (int)(strchr(fl->agents[i], '=') - fl->agents[i]),
		 fl->agents[i]);
	return buf;
}

/* Several files: each phase's runtime, ramp and engine are the first file's, and differ not. */
static void s_check_phase_wide(struct s_import *im, const struct s_file *files, size_t nfiles,
			       size_t j)
{
	for (size_t i = 1; i < nfiles; i++) {
		const struct s_set *a = &files[0].jobs[j].set, *b = &files[i].jobs[j].set;

		for (size_t k = 0; k < b->n; k++) {
			const char *v = s_get(a, b->kv[k].key);

			if (!s_phase_wide(b->kv[k].key) || (v && !strcmp(v, b->kv[k].value)))
				continue;
			im->file = files[i].fio->file;
			s_note(im, files[i].jobs[j].line,
			       "job %zu: %s %s differs from %s's: a phase has one %s on every agent, "
			       "the first file's",
			       j + 1, b->kv[k].key, b->kv[k].value, files[0].fio->file,
			       b->kv[k].key);
		}
	}
}

/*
 * One file for several agents: fio runs the whole file on each client, so each path gets the
 * job's bytes and rate_iops as a role of its own (a phase's are the target's, divided over the
 * paths taking part).
 */
static void s_write_per_path(FILE *out, const struct s_flags *fl, const struct s_set *s)
{
	static const char *const keys[] = { "bytes", "rate_iops" };
	char agent[64];

	if (fl->nagents < 2 || (!s_get(s, "bytes") && !s_get(s, "rate_iops")))
		return;
	fprintf(out, "    paths:\n");
	for (size_t i = 0; i < fl->nagents; i++) {
		fprintf(out, "      %s:\n", s_agent_name(fl, i, agent, sizeof(agent)));
		for (size_t k = 0; k < 2; k++)
			if (s_get(s, keys[k])) {
				fprintf(out, "        %s: ", keys[k]);
				s_quoted(out, s_get(s, keys[k]));
				fputc('\n', out);
			}
	}
}

static void s_write_plan(FILE *out, struct s_import *im, const struct s_flags *fl,
			 const struct s_file *files, size_t nfiles)
{
	const char *base = strrchr(files[0].fio->file, '/');
	char name[64], agent[64];

	s_plan_name(base ? base + 1 : files[0].fio->file, name, sizeof(name));
	if (strrchr(name, '.') && strrchr(name, '.') != name)
		*strrchr(name, '.') = '\0';
	fprintf(out, "# made by lockstep import from");
	for (size_t i = 0; i < nfiles; i++)
		fprintf(out, " %s", files[i].fio->file);
	fprintf(out, "\nlockstep: 1\nname: %s\n", name);
	s_write_agents(out, fl);
	fprintf(out, "targets:\n  - name: fio\n    share: shared\n    paths:\n");
	for (size_t i = 0; i < (fl->nagents ? fl->nagents : 1); i++) {
		fprintf(out, "      %s: ", s_agent_name(fl, i, agent, sizeof(agent)));
		s_quoted(out, files[nfiles == 1 ? 0 : i].path);
		fputc('\n', out);
	}
	if (nfiles == 1)
		s_write_set(out, "defaults:", 2, &files[0].defaults, NULL, 0);
	fprintf(out, "phases:\n");
	for (size_t j = 0; j < files[0].njobs; j++) {
		fprintf(out, "  - name: %s\n", files[0].jobs[j].name);
		if (nfiles == 1) {
			s_write_set(out, "workload:", 6, &files[0].jobs[j].set, &files[0].defaults,
				    0);
			s_write_per_path(out, fl, &files[0].jobs[j].set);
			continue;
		}
		s_check_phase_wide(im, files, nfiles, j);
		s_write_set(out, "workload:", 6, &files[0].jobs[j].set, NULL, 1);
		fprintf(out, "    paths:\n");
		for (size_t i = 0; i < nfiles; i++) {
			char head[80];

			snprintf(head, sizeof(head),
				 "%s:", s_agent_name(fl, i, agent, sizeof(agent)));
			if (!s_write_set(out, head, 8, &files[i].jobs[j].set, NULL, 2))
				fprintf(out, "      %s: {}\n", agent);
		}
	}
}

/* The agents given must be what the files ask for: names a plan takes, one per file. */
static int s_check_agents(const struct s_flags *fl, int nfiles)
{
	if (nfiles > 1 && (size_t)nfiles != fl->nagents) {
		fprintf(stderr,
			"lockstep import: %d job files need %d --agent NAME=ADDRESS, one per "
			"file in order (%zu given)\n",
			nfiles, nfiles, fl->nagents);
		return 2;
	}
	for (size_t i = 0; i < fl->nagents; i++) {
		size_t n = strcspn(fl->agents[i], "=");

		for (size_t k = 0; k < i; k++)
			if (!strncmp(fl->agents[k], fl->agents[i], n + 1)) {
				fprintf(stderr, "lockstep import: two agents named %.*s\n", (int)n,
					fl->agents[i]);
				return 2;
			}

		if (n > 63 || strspn(fl->agents[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
						    "TUVWXYZ0123456789_.-") != n) {
			fprintf(stderr,
				"lockstep import: --agent %s: a name is letters, digits, '_', "
				"'.', '-', at most 63\n",
				fl->agents[i]);
			return 2;
		}
	}
	return 0;
}

/* Write the plan's text to path ("-" or NULL: standard output), whole or not at all. */
static int s_output(const char *path, const char *text, size_t len)
{
	lst_err err = { 0 };
	int fd;

	if (!path || !strcmp(path, "-"))
		return fwrite(text, 1, len, stdout) == len && !fflush(stdout) ? 0 : 1;
	fd = lst_file_open_write(path, "plan", LST_FILE_TRUNC, 0644, &err);
	if (fd < 0) {
		fprintf(stderr, "lockstep import: %s\n", err.msg);
		return 1;
	}
	if (lst_write_all(fd, text, len) || close(fd)) {
		fprintf(stderr, "lockstep import: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * The plan made is read back as `lockstep validate` reads it, so that what import writes runs:
 * a problem the job files and flags together make (an address no plan takes) stops it here,
 * with the plan's own messages, and nothing is written.
 */
static int s_check_plan(const char *out, const char *text, size_t len)
{
	lst_errlist errs = { 0 };
	lst_plan *p = lst_plan_parse(text, len, out && strcmp(out, "-") ? out : "plan", &errs);

	if (p) {
		lst_plan_destroy(&p);
		return 0;
	}
	lst_errlist_print(&errs, stderr);
	fprintf(stderr, "lockstep import: the plan made from these files would not validate; "
			"nothing written\n");
	lst_errlist_free(&errs);
	return 2;
}

static int s_import(const struct s_flags *fl, int nfiles, char **paths, struct s_file *files)
{
	struct s_import im = { .strict = fl->strict };
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	for (int i = 0; i < nfiles; i++) {
		if (s_read_file(&im, paths[i], &files[i])) {
			fprintf(stderr, "lockstep import: %s; nothing written\n", im.err.msg);
			return 2;
		}
		if (files[i].njobs != files[0].njobs) {
			fprintf(stderr,
				"lockstep import: %s has %zu jobs, %s %zu: per-agent files run "
				"the same phases; nothing written\n",
				paths[i], files[i].njobs, paths[0], files[0].njobs);
			return 2;
		}
	}
	out = open_memstream(&text, &len);
	LST_ASSERT(out);
	s_write_plan(out, &im, fl, files, (size_t)nfiles);
	fclose(out);
	if (im.notes && fl->strict) {
		fprintf(stderr,
			"lockstep import: %zu option%s not carried (--strict); nothing "
			"written\n",
			im.notes, im.notes == 1 ? "" : "s");
		free(text);
		return 2;
	}
	rc = s_check_plan(fl->c.out, text, len);
	if (!rc)
		rc = s_output(fl->c.out, text, len);
	free(text);
	return rc;
}

int lst_cmd_import(int argc, char **argv)
{
	struct s_flags fl = { 0 };
	struct s_file *files;
	int first, rc, n;

	if ((rc = lst_cli_parse(&lst_cmd_import_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	n = argc - first;
	if (!n) {
		fprintf(stderr,
			"lockstep import: which job files? (see 'lockstep import --help')\n");
		return 2;
	}
	if ((rc = s_check_agents(&fl, n)))
		return rc;
	files = lst_calloc((size_t)n, sizeof(*files));
	rc = s_import(&fl, n, argv + first, files);
	for (int i = 0; i < n; i++) {
		lst_fiojob_destroy(&files[i].fio);
		free(files[i].jobs);
	}
	free(files);
	return rc;
}
