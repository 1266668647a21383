/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bench subcommand: flags from the workload option table (fio-like names), open the target,
 * run, fold the per-interval samples into totals, print a summary or JSON.
 *
 * --verify: writes stamp every 4 KiB unit (target: the id of the file name, agent 0,
 * path 0, generation 1); reads check every unit with no journal (a good stamp of this target and
 * LBA is ok, none is unwritten, the rest bad) and the output gains the counts. This is what the
 * CPU-cost benchmark of verify runs.
 *
 * Trace record and replay: --write-iolog NAME records the run's I/Os into
 * TRACE_DIR/NAME.bench.0.lstrace (the agent name is "bench", one job spec: index 0);
 * --read-iolog NAME replays TRACE_DIR/NAME, checked against the path before any I/O. TRACE_DIR
 * is --trace-dir, the current folder by default.
 */
#include "lst_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <linux/fs.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_bench_fio.h"
#include "lst_dev.h"
#include "lst_log.h"
#include "lst_run.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_tracedir.h"
#include "lst_util.h"

struct s_bench {
	struct lst_workload w;
	const char *filename;
	const char *config;	    /* --config FILE: the agent config whose disk rules apply */
	bool allow_in_use;	    /* --allow-mounted-write */
	lst_dev_policy *policy;	    /* every write goes through it, as the daemon's do */
	const char *offset_log;	    /* --offset-log FILE */
	const char *trace_dir;	    /* --trace-dir DIR ("." by default) */
	struct lst_trace trace;	    /* the --read-iolog trace */
	struct lst_bench_fio fio;   /* fio's flags; its format is the output's (--json included) */
	struct lst_bench_disk disk; /* the device's counters at the start, for fio's disk_util */
	bool quiet, tty;
	int64_t t0;
	/* totals over the measured (non-ramp) intervals */
	struct lst_dir_stats tot[LST_DIR_N];
	struct lst_sample_trim trim; /* measured trims, apart from writes */
	int64_t m_start, m_end;
	struct lst_sample_health health; /* over every interval, ramp included */
	struct lst_sample_verify verify; /* over every interval, ramp included */
	json_t *intervals;
};

static bool s_health_any(const struct lst_sample_health *h)
{
	static const struct lst_sample_health zero;

	return memcmp(h, &zero, sizeof(zero)) != 0;
}

/* A sample's health as JSON (errors by class, only the non-zero ones), or NULL when all zero. */
static json_t *s_health_json(const struct lst_sample_health *h)
{
	json_t *errs;

	if (!s_health_any(h))
		return NULL;
	errs = json_object();
	for (int c = 0; c < LST_ERRC_N; c++)
		if (h->err_class[c])
			json_object_set_new(errs, lst_err_class_names[c],
					    json_integer((json_int_t)h->err_class[c]));
	return json_pack("{s:o, s:I, s:I, s:I}", "errors", errs, "timeouts",
			 (json_int_t)h->timeouts, "inflight", (json_int_t)h->inflight,
			 "oldest_inflight_us", (json_int_t)(h->oldest_inflight_ns / 1000));
}

static volatile sig_atomic_t s_interrupted;

static void s_on_signal(int sig)
{
	(void)sig;
	s_interrupted = 1;
}

static void s_usage(FILE *f)
{
	char range[256], def[64];

	fprintf(f,
		"usage: lockstep-agent bench [--filename PATH] [options]\n"
		"\n"
		"Run one workload on this host and print IOPS, bandwidth and latency percentiles,\n"
		"like fio, with lockstep's engine. Each flag also takes fio's name where fio's\n"
		"differs (--numjobs for --jobs: listed below); '-' and '_' are the same in a\n"
		"name, and a value can follow the flag or an '='. Sizes take k/m/g/t (binary),\n"
		"durations ms/s/m/h.\n"
		"\n"
		"  --filename PATH   block device or file (a missing file is created with --size);\n"
		"                    not needed with --engine null\n"
		"  --json            print one JSON object instead of the summary\n"
		"  --quiet           no progress line\n"
		"  --debug LIST      debug categories: %s\n"
		"  --offset-log FILE write every issued I/O's byte offset to FILE, in issue order\n"
		"                    per job (jobs interleave), as little-endian u64s: to check a\n"
		"                    random_distribution (works with --engine null)\n"
		"  --trace-dir DIR   folder of --write-iolog's and --read-iolog's traces (default\n"
		"                    the current folder); a recording is NAME.bench.0.lstrace\n"
		"  --config FILE     an agent config (lockstep-agent --config): a write obeys its\n"
		"                    allow_write and read_only, as the daemon's writes do\n"
		"  --allow-mounted-write  write a device that is mounted, swap or held (dm, md,\n"
		"                    LVM) all the same; fio: --allow_mounted_write=1. Without it\n"
		"                    such a device is refused for writes and trims (reads stay\n"
		"                    allowed), like fio's default and the daemon's rules\n"
		"\n"
		"workload options (plan keys use '_' where flags use '-'):\n",
		lst_log_debug_names());
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		char flag[64];

		snprintf(flag, sizeof(flag), "--%s", o->name);
		for (char *c = flag; *c; c++)
			if (*c == '_')
				*c = '-';
		if (o->fio)
			fprintf(f, "  %s, fio: --%s\n", flag, o->fio);
		fprintf(f, "  %-14s %s\n", o->fio ? "" : flag, o->help);
		fprintf(f, "  %-14s [%s] default %s\n", "",
			lst_opt_describe_range(o, range, sizeof(range)), o->def[0] ? o->def : "-");
		(void)def;
	}
	lst_bench_fio_usage(f);
	fprintf(f,
		"\n"
		"Without --runtime and --bytes the run makes one pass over the region.\n"
		"Interval samples start at the run's start instant; the ramp is rounded up to whole\n"
		"intervals and left out of the totals.\n"
		"\n"
		"examples:\n"
		"  lockstep-agent bench --filename /dev/loop0 --rw randread --bs 4k --iodepth 32 \\\n"
		"      --runtime 10s\n"
		"  lockstep-agent bench --engine null --size 1g --iodepth 32 --runtime 5s --json\n"
		"  lockstep-agent bench --filename /tmp/f --size 1g --rw randwrite --rate-iops 2000 \\\n"
		"      --runtime 30s --pattern compressible=80\n");
}

/* "unknown option" for --arg, with the nearest workload option or bench flag if one is near. */
static void s_unknown(const char *arg, const char *name)
{
	static const char *const own[] = { "filename",	"offset_log", "json",
					   "quiet",	"debug",      "help",
					   "trace_dir", "config",     "allow_mounted_write" };
	const char *near = lst_opt_suggest_name(lst_workload_opts, name);
	char flag[64];

	for (size_t j = 0; !near && j < LST_ARRAY_SIZE(own); j++)
		if (lst_text_distance(name, own[j]) <= 2 && strlen(name) > 2)
			near = own[j];
	if (!near) {
		fprintf(stderr, "lockstep-agent: bench: unknown option '%s' (see --help)\n", arg);
		return;
	}
	/* in the typed spelling: --rate-iops if '-' was used between words, else --ramp_time */
	snprintf(flag, sizeof(flag), "%s", near);
	for (char *c = flag; *c && strchr(arg + 2, '-'); c++)
		if (*c == '_')
			*c = '-';
	fprintf(stderr, "lockstep-agent: bench: unknown option '%s'; did you mean '--%s'?\n", arg,
		flag);
}

/*
 * The same option given under both its names (--jobs 2 --numjobs 4) is an error, as in plans;
 * the same name twice keeps the last value. spelled[] holds the name each option was given as.
 */
static int s_check_spelling(const struct lst_opt *o, const char *name, const char **spelled)
{
	const char **was;
	const char *now = strcmp(name, o->name) ? o->fio : o->name;

	LST_ASSERT(o - lst_workload_opts < 64);
	was = &spelled[o - lst_workload_opts];
	if (*was && *was != now) {
		fprintf(stderr,
			"lockstep-agent: bench: --%s and --%s are the same option (%s is fio's name "
			"for %s): give one\n",
			*was, now, o->fio, o->name);
		return -EINVAL;
	}
	*was = now;
	return 0;
}

/*
 * One of fio's flags (lst_bench_fio_flag), its value taken from the next argument when it needs
 * one. Returns 0 when name is not fio's, 1 when taken (name and *value then name the workload
 * option to parse, or *value is NULL when nothing is left to parse), -EINVAL after saying why.
 */
static int s_fio_flag(struct s_bench *b, char *name, size_t cap, const char **value, int argc,
		      char **argv, int *i)
{
	const char *opt, *val;
	bool wants;
	lst_err err;
	int rc = lst_bench_fio_flag(&b->fio, name, *value, &wants, &opt, &val, &err);

	if (rc == 1 && wants) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "lockstep-agent: bench: --%s needs a value\n", name);
			return -EINVAL;
		}
		*value = argv[++*i];
		rc = lst_bench_fio_flag(&b->fio, name, *value, &wants, &opt, &val, &err);
	}
	if (rc < 0) {
		fprintf(stderr, "lockstep-agent: bench: %s\n", err.msg);
		return rc;
	}
	if (rc == 1) {
		*value = val;
		if (opt)
			lst_copy(name, cap, opt);
	}
	return rc;
}

/* Parse --name value / --name=value into the workload or the bench's own settings. */
static int s_parse(struct s_bench *b, int argc, char **argv)
{
	const char *spelled[64] = { 0 }; /* s_check_spelling: one per workload option */

	for (int i = 1; i < argc; i++) {
		char name[64], *eq;
		const char *arg = argv[i], *value = NULL;
		const struct lst_opt *o;
		lst_err err;

		if (strncmp(arg, "--", 2)) {
			fprintf(stderr,
				"lockstep-agent: bench: unexpected argument '%s' (see --help)\n",
				arg);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%s", arg + 2);
		eq = strchr(name, '=');
		if (eq) {
			*eq = '\0';
			value = arg + 2 + (eq - name) + 1;
		}
		for (char *c = name; *c; c++)
			if (*c == '-')
				*c = '_';
		if (!strcmp(name, "help")) {
			s_usage(stdout);
			exit(0);
		}
		if (!strcmp(name, "json")) {
			b->fio.format = LST_BENCH_JSON;
			continue;
		}
		if (!strcmp(name, "quiet")) {
			b->quiet = true;
			continue;
		}
		switch (s_fio_flag(b, name, sizeof(name), &value, argc, argv, &i)) {
		case 0:
			break;
		case 1:
			if (!value)
				continue;
			break; /* now a workload option: parsed below */
		default:
			return -EINVAL;
		}
		if (!strcmp(name, "allow_mounted_write")) {
			if (value && strcmp(value, "0") && strcmp(value, "1")) {
				fprintf(stderr,
					"lockstep-agent: bench: --allow-mounted-write takes no "
					"value, or 0 or 1 (fio's spelling); not '%s'\n",
					value);
				return -EINVAL;
			}
			b->allow_in_use = !value || value[0] == '1';
			continue;
		}
		o = lst_opt_find(lst_workload_opts, name);
		if (o && o->type == LST_OPT_BOOL && !value) {
			lst_opt_set_int(o, &b->w, 1, NULL);
			continue;
		}
		if (!strncmp(name, "no_", 3) && (o = lst_opt_find(lst_workload_opts, name + 3)) &&
		    o->type == LST_OPT_BOOL && !value) {
			lst_opt_set_int(o, &b->w, 0, NULL);
			continue;
		}
		if (!o && strcmp(name, "filename") && strcmp(name, "offset_log") &&
		    strcmp(name, "debug") && strcmp(name, "trace_dir") && strcmp(name, "config")) {
			s_unknown(arg, name); /* before taking a value: --time_based has none */
			return -EINVAL;
		}
		if (!value) {
			if (i + 1 >= argc) {
				fprintf(stderr, "lockstep-agent: bench: --%s needs a value\n",
					arg + 2);
				return -EINVAL;
			}
			value = argv[++i];
		}
		if (!strcmp(name, "filename")) {
			b->filename = value;
			continue;
		}
		if (!strcmp(name, "offset_log")) {
			b->offset_log = value;
			continue;
		}
		if (!strcmp(name, "trace_dir")) {
			b->trace_dir = value;
			continue;
		}
		if (!strcmp(name, "config")) {
			b->config = value;
			continue;
		}
		if (!strcmp(name, "debug")) {
			const char *bad = NULL;

			if (lst_log_set_debug(value, &bad)) {
				fprintf(stderr,
					"lockstep-agent: bench: unknown debug category in '%s' (known: "
					"%s)\n",
					bad, lst_log_debug_names());
				return -EINVAL;
			}
			continue;
		}
		if (s_check_spelling(o, name, spelled))
			return -EINVAL;
		if (!strcmp(o->name, "engine"))
			value = lst_bench_fio_engine(value);
		if (lst_workload_parse(o, &b->w, value, &err)) {
			fprintf(stderr, "lockstep-agent: bench: %s\n", err.msg);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The disk rules every writer of the agent obeys (agent/dev/lst_dev.h): without --config any
 * path may be written (a person names it on the command line) but never a mounted, swap or held
 * device unless --allow-mounted-write; with --config, that config's allow_write and read_only too.
 */
static int s_policy(struct s_bench *b, lst_bench_policy_fn *load, lst_err *err)
{
	b->policy = lst_dev_policy_new();
	lst_dev_policy_allow_in_use(b->policy, b->allow_in_use);
	if (!b->config)
		return lst_dev_policy_allow(b->policy, "/*"); /* '*' crosses '/' */
	if (!load)
		return lst_err_set(err, -EINVAL, "--config: this build reads no agent config");
	return load(b->config, b->policy, err);
}

/* Make a missing file of the size the workload needs (a read needs one too: it reads zeros). */
static int s_create(const char *path, uint64_t need, lst_err *err)
{
	int fd;

	if (!need)
		return lst_err_set(err, -ENOENT, "%s does not exist; give --size to create it",
				   path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return lst_err_sys(err, -errno, "creating %s failed", path);
	if (ftruncate(fd, (off_t)need)) {
		int rc = lst_err_sys(err, -errno, "extending %s to %llu bytes", path,
				     (unsigned long long)need);

		close(fd);
		unlink(path);
		return rc;
	}
	close(fd);
	return 0;
}

/*
 * Open the target through the disk rules and find its size; create a missing file when a size
 * is given. A write that the rules refuse says how to lift the in-use ones on purpose.
 */
static int s_open(struct s_bench *b, int *fd, uint64_t *size, lst_err *err)
{
	const struct lst_workload *w = &b->w;
	bool writes =
		w->read_iolog[0] ? lst_tracedir_writes(&b->trace) > 0 : lst_workload_writes(w);
	uint64_t need = (uint64_t)(w->offset + w->size);
	char path[LST_PATH_MAX], cwd[LST_PATH_MAX];
	bool made = false;
	struct stat st;
	int rc;

	for (int64_t i = 0; i < w->skew.n; i++) /* a file made for a skew holds every entry */
		need = LST_MAX(need, (uint64_t)(w->skew.e[i].offset + w->skew.e[i].size));

	*fd = -1;
	*size = 0;
	if (w->engine == LST_ENGINE_NULL) {
		if (!w->size)
			return lst_err_set(err, -EINVAL, "--engine null needs --size");
		return 0;
	}
	if (!b->filename)
		return lst_err_set(err, -EINVAL, "--filename is required (or use --engine null)");
	if (b->filename[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return lst_err_sys(err, -errno, "getcwd failed");
	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", b->filename[0] == '/' ? "" : cwd,
			     b->filename[0] == '/' ? "" : "/", b->filename) >= sizeof(path))
		return lst_err_set(err, -ENAMETOOLONG, "%s: path too long", b->filename);
	if (stat(path, &st) && errno == ENOENT) {
		rc = s_create(path, need, err);
		if (rc)
			return rc;
		made = true;
	}
	rc = lst_dev_open(b->policy, path, writes ? LST_DEV_WRITE : LST_DEV_READ, w->direct, NULL,
			  NULL, err);
	if (rc < 0) {
		if (made)
			unlink(path);
		if (rc == -EBUSY) {
			char why[LST_ERR_MAX];

			lst_copy(why, sizeof(why), err->msg);
			lst_err_set(err, rc,
				    "%s (to write it all the same, as fio's allow_mounted_write=1 "
				    "does, give --allow-mounted-write)",
				    why);
		}
		return rc;
	}
	*fd = rc;
	if (fstat(*fd, &st))
		return lst_err_sys(err, -errno, "fstat(\"%s\") failed", b->filename);
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(*fd, BLKGETSIZE64, size))
			return lst_err_sys(err, -errno, "BLKGETSIZE64 on %s", b->filename);
	} else if (S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size < need && ftruncate(*fd, (off_t)need))
			return lst_err_sys(err, -errno, "extending %s to %llu bytes", b->filename,
					   (unsigned long long)need);
		*size = LST_MAX((uint64_t)st.st_size, need);
	}
	return 0;
}

static json_t *s_lat_json(const lst_hist *h)
{
	struct lst_hist_stats st;

	lst_hist_stats(h, &st);
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "min",
			 (json_int_t)st.min, "mean", st.mean, "stdev", st.stdev, "p50",
			 (json_int_t)st.p50, "p90", (json_int_t)st.p90, "p99", (json_int_t)st.p99,
			 "p99_9", (json_int_t)st.p99_9, "p99_99", (json_int_t)st.p99_99, "p99_999",
			 (json_int_t)st.p99_999, "max", (json_int_t)st.max);
}

static json_t *s_dir_json(const struct lst_dir_stats *d, double secs)
{
	return json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:o}", "ios", (json_int_t)d->ios, "bytes",
			 (json_int_t)d->bytes, "errors", (json_int_t)d->errors, "iops",
			 secs > 0 ? (double)d->ios / secs : 0.0, "mbps",
			 secs > 0 ? (double)d->bytes / secs / 1e6 : 0.0, "mibps",
			 secs > 0 ? (double)d->bytes / secs / 1048576.0 : 0.0, "lat_ns",
			 s_lat_json(&d->lat));
}

/* The measured trims as JSON (no latency: trims have no histogram). */
static json_t *s_trim_json(const struct lst_sample_trim *t, double secs)
{
	return json_pack("{s:I, s:I, s:I, s:f}", "ios", (json_int_t)t->ios, "bytes",
			 (json_int_t)t->bytes, "errors", (json_int_t)t->errors, "iops",
			 secs > 0 ? (double)t->ios / secs : 0.0);
}

static void s_on_sample(const lst_sample *s, void *arg)
{
	struct s_bench *b = arg;
	double secs = (double)(s->end_ns - s->start_ns) / 1e9;
	bool ramp = s->flags & LST_SAMPLE_RAMP;
	json_t *iv;

	for (int c = 0; c < LST_ERRC_N; c++)
		b->health.err_class[c] += s->health.err_class[c];
	b->health.timeouts += s->health.timeouts;
	b->verify.ok += s->verify.ok;
	b->verify.pending += s->verify.pending;
	b->verify.unwritten += s->verify.unwritten;
	b->verify.bad += s->verify.bad;
	b->health.inflight = s->health.inflight; /* at the end of the last interval */
	b->health.oldest_inflight_ns =
		LST_MAX(b->health.oldest_inflight_ns, s->health.oldest_inflight_ns);
	if (!ramp && s->start_ns) {
		if (!b->m_start)
			b->m_start = s->start_ns;
		b->m_end = s->end_ns;
		for (int d = 0; d < LST_DIR_N; d++) {
			b->tot[d].ios += s->dir[d].ios;
			b->tot[d].bytes += s->dir[d].bytes;
			b->tot[d].errors += s->dir[d].errors;
			lst_hist_add(&b->tot[d].lat, &s->dir[d].lat);
		}
		b->trim.ios += s->trim.ios;
		b->trim.bytes += s->trim.bytes;
		b->trim.errors += s->trim.errors;
	}
	iv = json_pack("{s:I, s:f, s:f, s:b, s:b, s:o, s:o}", "interval", (json_int_t)s->interval,
		       "t_s", (double)(s->start_ns - b->t0) / 1e9, "duration_s", secs, "ramp", ramp,
		       "late", (s->flags & LST_SAMPLE_LATE) != 0, "read",
		       s_dir_json(&s->dir[LST_DIR_READ], secs), "write",
		       s_dir_json(&s->dir[LST_DIR_WRITE], secs));
	if (s_health_any(&s->health))
		json_object_set_new(iv, "health", s_health_json(&s->health));
	json_array_append_new(b->intervals, iv);
	if (b->tty && !b->quiet && b->fio.format == LST_BENCH_SUMMARY) {
		fprintf(stderr, "\r[%5.1f s]%s read %.0f IOPS  write %.0f IOPS  p99 %.1f us   ",
			(double)(s->end_ns - b->t0) / 1e9, ramp ? " ramp" : "",
			secs > 0 ? (double)s->dir[0].ios / secs : 0,
			secs > 0 ? (double)s->dir[1].ios / secs : 0,
			(double)LST_MAX(lst_hist_percentile(&s->dir[0].lat, 99),
					lst_hist_percentile(&s->dir[1].lat, 99)) /
				1e3);
	}
}

static void s_print_dir(const char *name, const struct lst_dir_stats *d, double secs)
{
	struct lst_hist_stats st;
	char sz[32];

	if (!d->ios) {
		printf("  %-6s -\n", name);
		return;
	}
	lst_hist_stats(&d->lat, &st);
	printf("  %-6s IOPS %.0f  BW %.1f MiB/s (%.1f MB/s)  ios %llu  bytes %s  errors %llu\n",
	       name, (double)d->ios / secs, (double)d->bytes / secs / 1048576.0,
	       (double)d->bytes / secs / 1e6, (unsigned long long)d->ios,
	       lst_fmt_size(d->bytes, sz, sizeof(sz)), (unsigned long long)d->errors);
	printf("         lat (us): min %.1f  mean %.1f  stdev %.1f  p50 %.1f  p90 %.1f  p99 %.1f\n"
	       "                   p99.9 %.1f  p99.99 %.1f  p99.999 %.1f  max %.1f\n",
	       st.min / 1e3, st.mean / 1e3, st.stdev / 1e3, st.p50 / 1e3, st.p90 / 1e3,
	       st.p99 / 1e3, st.p99_9 / 1e3, st.p99_99 / 1e3, st.p99_999 / 1e3, st.max / 1e3);
}

/* The health line of the summary, when anything went wrong (errors over every interval). */
static void s_print_health(const struct lst_sample_health *h)
{
	if (!s_health_any(h))
		return;
	printf("  health errors");
	for (int c = 0; c < LST_ERRC_N; c++)
		printf(" %s %llu", lst_err_class_names[c], (unsigned long long)h->err_class[c]);
	printf("  timeouts %llu  inflight at end %llu  oldest in flight %.1f ms\n",
	       (unsigned long long)h->timeouts, (unsigned long long)h->inflight,
	       (double)h->oldest_inflight_ns / 1e6);
}

/* The verify counts as JSON (units of 4 KiB). */
static json_t *s_verify_json(const struct lst_sample_verify *v)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "ok", (json_int_t)v->ok, "pending",
			 (json_int_t)v->pending, "unwritten", (json_int_t)v->unwritten, "bad",
			 (json_int_t)v->bad);
}

/*
 * The workload as JSON: lockstep's option names, numbers as numbers (or, as fio's "job options"
 * are, every value as a string), and the engine that ran.
 */
static json_t *s_workload_json(const struct s_bench *b, lst_run *run, bool strings)
{
	json_t *wl = json_object();

	for (const struct lst_opt *opt = lst_workload_opts; opt->name; opt++) {
		char v[512];

		if (!strings && (opt->type == LST_OPT_INT || opt->type == LST_OPT_SIZE ||
				 opt->type == LST_OPT_DURATION))
			json_object_set_new(wl, opt->name, json_integer(lst_opt_get(opt, &b->w)));
		else
			json_object_set_new(wl, opt->name,
					    json_string(lst_opt_format(opt, &b->w, v, sizeof(v))));
	}
	json_object_set_new(wl, "engine", json_string(lst_engine_names[lst_run_engine(run)]));
	return wl;
}

/* fio's JSON of the run (--output-format=json or json+). */
static json_t *s_fio_json(const struct s_bench *b, lst_run *run, const struct rusage *ru0,
			  const struct rusage *ru1, int rc)
{
	json_t *opts = s_workload_json(b, run, true);
	struct lst_job_depths depths;
	struct lst_bench_fio_run r = {
		.tot = b->tot,
		.depths = &depths,
		.secs = (double)(b->m_end - b->m_start) / 1e9,
		.intervals = b->intervals,
		.ru0 = ru0,
		.ru1 = ru1,
		.disk = &b->disk,
		.options = opts,
		.error = rc,
	};

	lst_run_depths(run, &depths);
	if (b->fio.name)
		json_object_set_new(opts, "name", json_string(b->fio.name));
	if (b->filename)
		json_object_set_new(opts, "filename", json_string(b->filename));
	return lst_bench_fio_json(&b->fio, &r);
}

static int s_report(struct s_bench *b, lst_run *run, const struct rusage *ru0,
		    const struct rusage *ru1)
{
	double secs = (double)(b->m_end - b->m_start) / 1e9;
	double usr = (double)(ru1->ru_utime.tv_sec - ru0->ru_utime.tv_sec) +
		     (double)(ru1->ru_utime.tv_usec - ru0->ru_utime.tv_usec) / 1e6;
	double sys = (double)(ru1->ru_stime.tv_sec - ru0->ru_stime.tv_sec) +
		     (double)(ru1->ru_stime.tv_usec - ru0->ru_stime.tv_usec) / 1e6;
	lst_err err;
	int rc = lst_run_error(run, &err);

	if (b->fio.format == LST_BENCH_FIO_JSON || b->fio.format == LST_BENCH_FIO_JSONPLUS) {
		json_t *o = s_fio_json(b, run, ru0, ru1, rc);

		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(o);
	} else if (b->fio.format == LST_BENCH_JSON) {
		json_t *wl = s_workload_json(b, run, false), *o;

		o = json_pack("{s:s, s:s?, s:o, s:f, s:f, s:o, s:o, s:{s:f, s:f}, s:o, s:s?, s:s?}",
			      "lockstep_version", LST_VERSION, "filename", b->filename, "workload",
			      wl, "runtime_s", secs, "ramp_s", (double)b->w.ramp / 1e9, "read",
			      s_dir_json(&b->tot[LST_DIR_READ], secs), "write",
			      s_dir_json(&b->tot[LST_DIR_WRITE], secs), "cpu", "usr_s", usr,
			      "sys_s", sys, "intervals", json_incref(b->intervals), "warning",
			      lst_run_warning(run)[0] ? lst_run_warning(run) : NULL, "error",
			      rc ? err.msg : NULL);
		if (s_health_any(&b->health))
			json_object_set_new(o, "health", s_health_json(&b->health));
		if (b->w.verify)
			json_object_set_new(o, "verify", s_verify_json(&b->verify));
		if (b->trim.ios)
			json_object_set_new(o, "trim", s_trim_json(&b->trim, secs));
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(o);
	} else {
		char range[64], mix[LST_OPT_WIRE_MAX];
		json_t *fio;

		printf("lockstep-agent bench: %s%s", b->fio.name ? b->fio.name : "",
		       b->fio.name ? ": " : ""); /* fio's --name labels the run */
		if (b->w.skew.n)		 /* a mix: its entries, not the unused rw and bs */
			printf("skew \"%s\" iodepth=%lld jobs=%lld engine=%s "
			       "on %s\n",
			       lst_skew_format(&b->w.skew, mix, sizeof(mix)),
			       (long long)b->w.iodepth, (long long)b->w.jobs,
			       lst_engine_names[lst_run_engine(run)],
			       b->filename ? b->filename : "(null)");
		else
			printf("%s bs=%s iodepth=%lld jobs=%lld engine=%s on "
			       "%s\n",
			       lst_rw_names[b->w.rw],
			       lst_opt_format(lst_opt_find(lst_workload_opts, "bs"), &b->w, range,
					      sizeof(range)),
			       (long long)b->w.iodepth, (long long)b->w.jobs,
			       lst_engine_names[lst_run_engine(run)],
			       b->filename ? b->filename : "(null)");
		if (b->w.read_iolog[0]) /* rw and bs come from the trace */
			printf("  replay of %s/%s: %zu records over %.3f s at %lld%% of their rate\n",
			       b->trace_dir, b->w.read_iolog, b->trace.nrec,
			       (double)b->trace.duration / 1e9, (long long)b->w.replay_time_scale);
		if (secs <= 0)
			secs = 1e-9;
		s_print_dir("read", &b->tot[LST_DIR_READ], secs);
		s_print_dir("write", &b->tot[LST_DIR_WRITE], secs);
		fio = s_fio_json(b, run, ru0, ru1, rc);
		lst_bench_fio_print(stdout, fio);
		json_decref(fio);
		if (b->trim.ios)
			printf("  trim   IOPS %.0f  ios %llu  bytes %llu  errors %llu\n",
			       (double)b->trim.ios / secs, (unsigned long long)b->trim.ios,
			       (unsigned long long)b->trim.bytes,
			       (unsigned long long)b->trim.errors);
		printf("  runtime %.3f s (ramp %.1f s excluded)  cpu usr %.2f s  sys %.2f s\n",
		       secs, (double)b->w.ramp / 1e9, usr, sys);
		s_print_health(&b->health);
		if (b->w.verify)
			printf("  verify units ok %llu  pending %llu  unwritten %llu  bad %llu\n",
			       (unsigned long long)b->verify.ok,
			       (unsigned long long)b->verify.pending,
			       (unsigned long long)b->verify.unwritten,
			       (unsigned long long)b->verify.bad);
	}
	if (rc) {
		fprintf(stderr, "lockstep-agent: %s\n", err.msg);
		return 1;
	}
	return 0;
}

/* --offset-log: the file the jobs write offsets to (closed after the run). */
static int s_offset_log_open(const struct s_bench *b, FILE **f, lst_err *err)
{
	*f = fopen(b->offset_log, "wb");
	if (!*f)
		return lst_err_sys(err, -errno, "open(\"%s\") failed", b->offset_log);
	setvbuf(*f, NULL, _IOFBF, 1 << 20);
	return 0;
}

/* --read-iolog: read the trace before the path is opened (its writes decide the open mode). */
static int s_replay_load(struct s_bench *b, lst_err *err)
{
	if (!b->w.read_iolog[0])
		return 0;
	return lst_tracedir_load(b->trace_dir, b->w.read_iolog, 0, &b->trace, err);
}

/* The opened path can take the trace (block size, size), and the recording's folder exists. */
static int s_trace_prepare(struct s_bench *b, struct lst_run_path *path, lst_err *err)
{
	uint32_t lbs;
	uint64_t size;
	int rc;

	if (b->w.read_iolog[0]) {
		if ((rc = lst_tracedir_geometry(path->fd, path->name, &lbs, &size, err)))
			return rc;
		if (path->fd < 0)
			size = path->size ? path->size : (uint64_t)b->w.size;
		if ((rc = lst_tracedir_fits(&b->trace, b->trace_dir, b->w.read_iolog, path->name,
					    lbs, size, err)))
			return rc;
		path->replay = &b->trace;
	}
	if (b->w.write_iolog[0]) {
		if ((rc = lst_tracedir_make(b->trace_dir, err)))
			return rc;
		path->rec_max = lst_run_record_max(&b->w);
	}
	return 0;
}

/* After the run: write the recording, say what a replay could not keep up with. */
static int s_trace_finish(const struct s_bench *b, const lst_run *run, const struct lst_run_path *p)
{
	char file[4096];
	size_t nrec;
	uint64_t dropped, late;
	uint32_t lbs;
	uint64_t size;
	lst_err err;

	if (b->w.read_iolog[0] && (late = lst_run_replay_late(run, 0)))
		fprintf(stderr,
			"lockstep-agent: bench: replay: %llu of %zu records went out late (no free "
			"slot of iodepth %lld at their time)\n",
			(unsigned long long)late, b->trace.nrec, (long long)b->w.iodepth);
	if (!b->w.write_iolog[0])
		return 0;
	if (lst_tracedir_record_file(file, sizeof(file), b->trace_dir, b->w.write_iolog, "bench", 0,
				     &err) ||
	    lst_tracedir_geometry(p->fd, p->name, &lbs, &size, &err) ||
	    lst_run_trace_write(run, 0, file, lbs, p->fd < 0 ? p->size : size, &nrec, &dropped,
				&err)) {
		fprintf(stderr, "lockstep-agent: bench: %s\n", err.msg);
		return 1;
	}
	fprintf(stderr, "lockstep-agent: bench: recorded %zu I/Os in %s", nrec, file);
	if (dropped)
		fprintf(stderr, " (full: %llu more were not recorded)",
			(unsigned long long)dropped);
	fprintf(stderr, "\n");
	return 0;
}

int lst_bench_main(int argc, char **argv, lst_bench_policy_fn *load)
{
	struct s_bench b;
	struct lst_run_path path;
	struct rusage ru0, ru1;
	struct sigaction sa;
	lst_run *run = NULL;
	lst_err err;
	int fd = -1, rc = 2;

	memset(&b, 0, sizeof(b));
	lst_workload_init(&b.w);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&b.tot[d].lat);
	b.trace_dir = ".";
	if (s_parse(&b, argc, argv))
		return 2;
	b.tty = isatty(STDERR_FILENO);
	memset(&path, 0, sizeof(path));
	if (s_policy(&b, load, &err) || s_replay_load(&b, &err) ||
	    s_open(&b, &fd, &path.size, &err))
		goto fail;
	path.fd = fd;
	path.w = b.w;
	path.name = b.filename ? b.filename : "null";
	if (s_trace_prepare(&b, &path, &err))
		goto fail;
	path.stamp = (struct lst_stamp){ .target = lst_verify_target_id(path.name), .gen = 1 };
	path.depths = true; /* fio's depth maps, slat and "IO depths" lines */
	if (b.offset_log && s_offset_log_open(&b, &path.offset_log, &err))
		goto fail;
	run = lst_run_new(&path, 1, &err);
	if (!run)
		goto fail;
	if (lst_run_warning(run)[0])
		lst_log_warn("%s", lst_run_warning(run));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = s_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	b.intervals = json_array();
	lst_bench_disk_start(&b.disk, fd);
	getrusage(RUSAGE_SELF, &ru0);
	b.t0 = lst_mono_ns() + 10 * LST_NS_PER_MS;
	if (lst_run_start(run, b.t0, &err))
		goto fail;
	for (;;) {
		struct pollfd pfd = { .fd = lst_run_eventfd(run), .events = POLLIN };

		if (s_interrupted == 1) {
			s_interrupted = 2;
			lst_run_stop(run);
		}
		poll(&pfd, 1, 200);
		if (lst_run_collect(run, s_on_sample, &b))
			break;
	}
	getrusage(RUSAGE_SELF, &ru1);
	if (b.tty && !b.quiet && b.fio.format == LST_BENCH_SUMMARY)
		fprintf(stderr, "\n");
	rc = s_report(&b, run, &ru0, &ru1);
	if (s_trace_finish(&b, run, &path) && !rc)
		rc = 1;
	goto out;
fail:
	fprintf(stderr, "lockstep-agent: bench: %s\n", err.msg);
out:
	lst_run_destroy(&run);
	if (path.offset_log && fclose(path.offset_log) && rc == 0) {
		fprintf(stderr, "lockstep-agent: bench: writing %s failed: %s\n", b.offset_log,
			strerror(errno));
		rc = 1;
	}
	json_decref(b.intervals);
	lst_trace_free(&b.trace);
	lst_dev_policy_destroy(&b.policy);
	if (fd >= 0)
		close(fd);
	return rc;
}
