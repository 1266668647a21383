/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The workload option table and its cross-field checks.
 *
 * fio's names: an option whose fio name differs but means the same thing carries it as its
 * `fio` alias (jobs/numjobs, engine/ioengine, ramp/ramp_time, seed/randseed, bytes/io_size), so
 * every reader of the table takes both. Where fio's option of a similar name means something
 * else (buffer_compress_percentage is the inverse of pattern's N, rate_iops is per job in fio,
 * continue_on_error is not on_io_error) there is no alias: docs/plan.md lists them. Values of
 * fio's that name one of ours are mapped in lst_workload_parse; fio's engines that lockstep
 * does not have get a sentence saying what to use instead.
 */
#include "lst_workload.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_time.h"

const char *const lst_rw_names[] = { "read", "write", "randread", "randwrite", "randrw",
				     "rw",   "trim",  "randtrim", NULL };
const char *const lst_engine_names[] = { "io_uring", "psync", "null", NULL };
const char *const lst_dir_names[] = { "read", "write", NULL };
const char *const lst_on_io_error_names[] = { "stop", "continue", NULL };
static const char *const s_arrival_names[] = { "poisson", "uniform", NULL };

#define W(field) offsetof(struct lst_workload, field)
#define GiB (1024LL * 1024 * 1024)
#define TiB (1024LL * GiB)

const struct lst_opt lst_workload_opts[] = {
	{ "rw", LST_OPT_ENUM, W(rw), "randread", 0, 0, lst_rw_names,
	  "access pattern: read/write sequential, randread/randwrite random, randrw/rw mixed", NULL,
	  NULL },
	{ "rwmixread", LST_OPT_INT, W(rwmixread), "50", 0, 100, NULL,
	  "percent of I/Os that are reads, for randrw and rw", NULL, NULL },
	{ "bs", LST_OPT_SIZE, W(bs), "4k", LST_BS_MIN, LST_BS_MAX, NULL,
	  "block size of every I/O, a multiple of 512 bytes", NULL, NULL },
	{ "iodepth", LST_OPT_INT, W(iodepth), "1", 1, 4096, NULL, "I/Os kept in flight by each job",
	  NULL, NULL },
	{ "jobs", LST_OPT_INT, W(jobs), "1", 1, 256, NULL,
	  "worker threads per path, each with its own ring and queue depth", "numjobs", NULL },
	{ "offset", LST_OPT_SIZE, W(offset), "0", 0, 64 * TiB, NULL,
	  "start of the region on the path, in bytes", NULL, NULL },
	{ "size", LST_OPT_SIZE, W(size), "0", 0, 64 * TiB, NULL,
	  "length of the region; 0 means to the end of the path", NULL, NULL },
	{ "runtime", LST_OPT_DURATION, W(runtime), "0", 0, 30LL * 86400 * LST_NS_PER_S, NULL,
	  "measured time after the ramp; 0 means stop by bytes (one pass over the region)", NULL,
	  NULL },
	{ "ramp", LST_OPT_DURATION, W(ramp), "0", 0, 86400LL * LST_NS_PER_S, NULL,
	  "warm-up time before measurement, excluded from results", "ramp_time", NULL },
	{ "bytes", LST_OPT_SIZE, W(bytes), "0", 0, 1024 * TiB, NULL,
	  "stop after this many bytes over all jobs; 0 means no byte limit", "io_size", NULL },
	{ "rate_iops", LST_OPT_INT, W(rate_iops), "0", 0, 100000000, NULL,
	  "target IOPS over all jobs (open loop, latency from the intended issue time); 0 = max",
	  NULL, NULL },
	{ "arrivals", LST_OPT_ENUM, W(arrivals), "poisson", 0, 0, s_arrival_names,
	  "how rate-limited I/Os are spaced: poisson (random) or uniform (even)", NULL, NULL },
	{ "interval", LST_OPT_DURATION, W(interval), "1s", 10 * LST_NS_PER_MS,
	  3600LL * LST_NS_PER_S, NULL, "time between samples", NULL, NULL },
	{ "direct", LST_OPT_BOOL, W(direct), "true", 0, 1, NULL, "bypass the page cache (O_DIRECT)",
	  NULL, NULL },
	{ "engine", LST_OPT_ENUM, W(engine), "io_uring", 0, 0, lst_engine_names,
	  "io_uring, psync (pread/pwrite), or null (no I/O: measures lockstep itself)", "ioengine",
	  NULL },
	{ "pattern", LST_OPT_PATTERN, W(pattern), "random", 0, 100, NULL,
	  "write data: random (incompressible, blocks never repeat), zeros, or compressible=N "
	  "(compresses to N% of its size)",
	  NULL, NULL },
	{ "seed", LST_OPT_INT, W(seed), "0", 0, INT64_MAX, NULL,
	  "seed for offsets and data; 0 picks one from the clock", "randseed", NULL },
	{ "poll", LST_OPT_DURATION, W(poll), "3us", 0, LST_NS_PER_MS, NULL,
	  "io_uring: poll this long for completions before sleeping; more IOPS from fast devices "
	  "for a little CPU (0 sleeps at once; polling stops by itself when a device is slow)",
	  NULL, NULL },
	{ "on_io_error", LST_OPT_ENUM, W(on_io_error), "stop", 0, 0, lst_on_io_error_names,
	  "an I/O that fails: stop ends the job with the error (path, offset, direction, errno); "
	  "continue counts it by class (eio, enospc, etimedout, ebade, other) and keeps going",
	  NULL, NULL },
	{ "io_timeout", LST_OPT_DURATION, W(io_timeout), "0", 0, 3600LL * LST_NS_PER_S, NULL,
	  "an I/O in flight longer than this counts once as a timeout (it stays in flight until "
	  "it completes), and a job waits at most this long (at least 5 s) for its I/O in "
	  "flight at the end of a point; 0 = no timeouts, and that wait follows the device: "
	  "twice its slowest completion plus its queue at the completion rate seen, 5 s to 10 min",
	  NULL, NULL },
	{ "verify", LST_OPT_BOOL, W(verify), "false", 0, 1, NULL,
	  "data integrity: writes stamp every 4 KiB unit (target, writer, generation, LBA, time, "
	  "crc32c); reads check every unit against the run's write journal (bad blocks go to "
	  "integrity.csv); bs and offset must be multiples of 4 KiB",
	  NULL, NULL },
	{ "random_distribution", LST_OPT_DIST, W(dist), "random", 0, 0, NULL,
	  "where random I/Os land in the region: random (uniform), zipf:θ, pareto:h, normal:σ "
	  "(σ in % of the region) or zoned:A/S:... (A% of I/Os on the next S% of the region); "
	  "deterministic per seed; a split share's distribution covers its own slice",
	  NULL, &lst_dist_opt_ops },
	{ "bssplit", LST_OPT_BSSPLIT, W(bssplit), "none", 0, 0, NULL,
	  "block-size mix by share of I/Os, e.g. 4k/70:64k/25:1m/5 (READS,WRITES to give each "
	  "direction its own); none: every I/O is bs",
	  NULL, &lst_bssplit_opt_ops },
	{ "dedupe_percentage", LST_OPT_INT, W(dedupe_percentage), "0", 0, 100, NULL,
	  "percent of written blocks that repeat an earlier block of the same job (dedup); the "
	  "rest are unique",
	  NULL, NULL },
	{ "rwmixtrim", LST_OPT_INT, W(rwmixtrim), "0", 0, 100, NULL,
	  "percent of the I/Os of randrw and rw that are trims (discards); rwmixread splits the "
	  "rest",
	  NULL, NULL },
	{ "skew", LST_OPT_SKEW, W(skew), "none", 0, 0, NULL,
	  "several weighted workloads in each job, by share of I/Os (vdbench's skew=), e.g. "
	  "share=70 rw=randread bs=8k; share=30 rw=write bs=64k",
	  NULL, &lst_skew_opt_ops },
	{ "write_iolog", LST_OPT_TEXT, W(write_iolog), "", 0, 0, NULL,
	  "record every I/O (time, offset, length, direction) into this trace in the agent's "
	  "trace folder, one file per job spec",
	  NULL, NULL },
	{ "read_iolog", LST_OPT_TEXT, W(read_iolog), "", 0, 0, NULL,
	  "replay this trace from the agent's trace folder (lockstep's own, or blkparse text) "
	  "instead of generating I/Os",
	  NULL, NULL },
	{ "replay_time_scale", LST_OPT_INT, W(replay_time_scale), "100", 1, 100000, NULL,
	  "replay at this percent of the trace's rate (200: twice as fast)", NULL, NULL },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

void lst_workload_init(struct lst_workload *w)
{
	lst_opt_defaults(lst_workload_opts, w);
}

/* fio's values for our enum options: a spelling of one of ours, or one we do not have. */
static const struct {
	const char *opt, *fio;
	const char *ours; /* the value it means, or NULL when lockstep has none */
	const char *note; /* when ours is NULL: what to use instead */
} s_fio_values[] = {
	{ "rw", "readwrite", "rw", NULL },
	{ "engine", "libaio", NULL, "io_uring does the same asynchronous I/O at the same iodepth" },
	{ "engine", "posixaio", NULL,
	  "io_uring does the same asynchronous I/O at the same iodepth" },
	{ "engine", "sync", NULL, "psync does the same blocking I/O (pread/pwrite)" },
	{ "engine", "pvsync", NULL, "psync does the same blocking I/O (pread/pwrite)" },
	{ "engine", "pvsync2", NULL, "psync does the same blocking I/O (pread/pwrite)" },
	{ "engine", "mmap", NULL, "lockstep does I/O through the block layer only" },
	{ "engine", "splice", NULL, "lockstep does I/O through the block layer only" },
};

/* Add "; did you mean 'X'?" to an enum's error when one choice is within two edits of text. */
static void s_enum_hint(const struct lst_opt *o, const char *text, lst_err *err)
{
	const char *near = NULL;
	size_t best = 3, len = strlen(err->msg);

	for (size_t i = 0; o->choices[i]; i++) {
		size_t d = lst_text_distance(text, o->choices[i]);

		if (d < best && d < strlen(o->choices[i]) && d < strlen(text)) {
			best = d;
			near = o->choices[i];
		}
	}
	if (near && len < sizeof(err->msg))
		snprintf(err->msg + len, sizeof(err->msg) - len, "; did you mean '%s'?", near);
}

int lst_workload_parse(const struct lst_opt *o, struct lst_workload *w, const char *text,
		       lst_err *err)
{
	int rc;

	for (size_t i = 0; o->type == LST_OPT_ENUM && i < LST_ARRAY_SIZE(s_fio_values); i++) {
		if (strcmp(o->name, s_fio_values[i].opt) || strcasecmp(text, s_fio_values[i].fio))
			continue;
		char ours[128];

		if (s_fio_values[i].ours)
			return lst_opt_parse(o, w, s_fio_values[i].ours, err);
		return lst_err_set(err, -EINVAL, "%s: '%s' is fio's, not lockstep's (%s): %s",
				   o->name, text, lst_opt_describe_range(o, ours, sizeof(ours)),
				   s_fio_values[i].note);
	}
	rc = lst_opt_parse(o, w, text, err);
	if (rc && o->type == LST_OPT_ENUM)
		s_enum_hint(o, text, err);
	return rc;
}

/* One rw's share of reads (rwmixread for the mixed ones). */
static int s_read_pct(int64_t rw, int64_t rwmixread)
{
	switch (rw) {
	case LST_RW_READ:
	case LST_RW_RANDREAD:
		return 100;
	case LST_RW_WRITE:
	case LST_RW_RANDWRITE:
	case LST_RW_TRIM:
	case LST_RW_RANDTRIM:
		return 0;
	default:
		return (int)rwmixread;
	}
}

int lst_workload_read_pct(const struct lst_workload *w)
{
	int64_t sum = 0;

	if (!w->skew.n)
		return s_read_pct(w->rw, w->rwmixread);
	for (int64_t i = 0; i < w->skew.n; i++)
		sum += w->skew.e[i].share * s_read_pct(w->skew.e[i].rw, w->skew.e[i].rwmixread);
	return (int)((sum + 50) / 100);
}

bool lst_workload_writes(const struct lst_workload *w)
{
	if (!w->skew.n)
		return lst_rw_writes(w->rw, w->rwmixread);
	for (int64_t i = 0; i < w->skew.n; i++)
		if (lst_rw_writes(w->skew.e[i].rw, w->skew.e[i].rwmixread))
			return true;
	return false;
}

/*
 * A bssplit mix with verify is refused (the write journal replays fixed-size I/Os, so
 * a reader could not tell which sizes landed where), and a mix larger than the region given by
 * size is refused here; the region of a whole path is checked once its size is known.
 */
static int s_check_bssplit(const struct lst_workload *w, lst_err *err)
{
	if (!w->bssplit.n[0] && !w->bssplit.n[1])
		return 0;
	if (w->verify)
		return lst_err_set(err, -EINVAL,
				   "bssplit: a block-size mix cannot be verified (verify replays "
				   "fixed-size I/Os): use bs, or verify: false");
	if (w->size && w->size < lst_workload_bs_max(w))
		return lst_err_set(err, -EINVAL,
				   "bssplit: size %lld is larger than the region (size %lld)",
				   (long long)lst_workload_bs_max(w), (long long)w->size);
	return 0;
}

/*
 * A dedupe_percentage repeats whole 4 KiB units, so every I/O size must be a multiple
 * of 4 KiB; verify stamps every unit with its LBA (no two alike), so the two are refused.
 */
static int s_check_dedup(const struct lst_workload *w, lst_err *err)
{
	if (!w->dedupe_percentage)
		return 0;
	if (w->verify)
		return lst_err_set(err, -EINVAL,
				   "dedupe_percentage: verify stamps every 4 KiB unit with its own "
				   "LBA, so no two blocks repeat: use one or the other");
	if (w->bs % 4096)
		return lst_err_set(err, -EINVAL,
				   "dedupe_percentage repeats 4 KiB units: bs %lld must be a "
				   "multiple of 4096",
				   (long long)w->bs);
	for (int d = 0; d < 2; d++)
		for (int64_t i = 0; i < w->bssplit.n[d]; i++)
			if (w->bssplit.e[d][i].bs % 4096)
				return lst_err_set(err, -EINVAL,
						   "dedupe_percentage repeats 4 KiB units: bssplit "
						   "size %lld must be a multiple of 4096",
						   (long long)w->bssplit.e[d][i].bs);
	return 0;
}

/*
 * Trims. rwmixtrim mixes trims into randrw and rw only; with rwmixread 100 the
 * safety checks (lst_rw_writes) would take the workload for read-only, so it is refused. A
 * trim leaves nothing to verify.
 */
static int s_check_trim(const struct lst_workload *w, lst_err *err)
{
	bool mixed = w->rw == LST_RW_RANDRW || w->rw == LST_RW_RW;

	if (w->rwmixtrim && !mixed)
		return lst_err_set(err, -EINVAL,
				   "rwmixtrim applies to rw: randrw and rw only (rw: %s trims "
				   "all or none of its I/Os)",
				   lst_rw_names[w->rw]);
	if (w->rwmixtrim && w->rwmixread == 100)
		return lst_err_set(err, -EINVAL,
				   "rwmixtrim %lld with rwmixread 100: trims are writes, so the "
				   "workload must be allowed to write: set rwmixread below 100",
				   (long long)w->rwmixtrim);
	if (w->verify && (w->rwmixtrim || w->rw == LST_RW_TRIM || w->rw == LST_RW_RANDTRIM))
		return lst_err_set(err, -EINVAL,
				   "verify cannot check trimmed blocks: use trims without verify");
	return 0;
}

/* The workload one skew entry stands for: the job's, with the entry's keys in place. */
static void s_skew_entry_workload(const struct lst_workload *w, const struct lst_skew_entry *e,
				  struct lst_workload *ew)
{
	*ew = *w;
	ew->skew.n = 0;
	ew->rw = e->rw;
	ew->rwmixread = e->rwmixread;
	ew->bs = e->bs;
	ew->offset = e->offset;
	ew->size = e->size;
	ew->dist = e->dist;
}

/*
 * Skew: options that describe one stream of I/Os per job and cannot follow a mix of
 * streams are refused (bssplit: an entry gives one bs; rwmixtrim: an entry is trim or randtrim;
 * verify, whose journal replays one stream; trace record and replay); then every entry is
 * checked as the job's own fields are, as the workload it stands for.
 */
static int s_check_skew(const struct lst_workload *w, uint64_t path_size, lst_err *err)
{
	static const char *const why = "give it inside the entries or leave skew out";

	if (!w->skew.n)
		return 0;
	if (w->bssplit.n[0] || w->bssplit.n[1])
		return lst_err_set(err, -EINVAL,
				   "skew and bssplit: each skew entry has one bs; %s (several "
				   "entries of one rw make a size mix)",
				   why);
	if (w->rwmixtrim)
		return lst_err_set(err, -EINVAL,
				   "skew and rwmixtrim: give trims as a skew entry of their own "
				   "(rw=trim or rw=randtrim)");
	if (w->verify)
		return lst_err_set(err, -EINVAL,
				   "skew and verify: verify replays one stream of I/Os per job, a "
				   "skew mixes several: use one or the other");
	if (w->read_iolog[0] || w->write_iolog[0])
		return lst_err_set(err, -EINVAL,
				   "skew and %s: a trace is recorded or replayed from one workload "
				   "per job: use one or the other",
				   w->read_iolog[0] ? "read_iolog" : "write_iolog");
	for (int64_t i = 0; i < w->skew.n; i++) {
		struct lst_workload ew;
		int rc;

		s_skew_entry_workload(w, &w->skew.e[i], &ew);
		rc = lst_workload_check(&ew, path_size, err);
		if (rc) {
			lst_err_prefix(err, "skew entry %lld: ", (long long)i + 1);
			return rc;
		}
	}
	return 0;
}

int lst_workload_check(const struct lst_workload *w, uint64_t path_size, lst_err *err)
{
	uint64_t region;
	int rc;

	rc = s_check_skew(w, path_size, err);
	if (rc)
		return rc;

	if (w->bs % 512)
		return lst_err_set(err, -EINVAL, "bs %lld is not a multiple of 512 bytes",
				   (long long)w->bs);
	if (w->direct && w->offset % 512)
		return lst_err_set(err, -EINVAL,
				   "offset %lld is not a multiple of 512 bytes (direct I/O)",
				   (long long)w->offset);
	if (w->verify && (w->bs % 4096 || w->offset % 4096))
		return lst_err_set(err, -EINVAL,
				   "verify checks 4 KiB units: bs %lld and offset %lld must be "
				   "multiples of 4096",
				   (long long)w->bs, (long long)w->offset);
	if (w->verify && w->dist.kind != LST_DIST_RANDOM)
		return lst_err_set(err, -EINVAL,
				   "verify replays uniform offsets: random_distribution must be "
				   "random with verify");
	if (w->size && w->size < w->bs)
		return lst_err_set(err, -EINVAL, "size %lld is smaller than one block (bs %lld)",
				   (long long)w->size, (long long)w->bs);
	rc = s_check_bssplit(w, err);
	if (!rc)
		rc = s_check_dedup(w, err);
	if (!rc)
		rc = s_check_trim(w, err);
	if (rc)
		return rc;
	if (w->ramp && w->ramp < w->interval)
		return lst_err_set(err, -EINVAL, "ramp must be 0 or at least one interval");
	if (w->rate_iops && w->rate_iops < w->jobs)
		return lst_err_set(err, -EINVAL,
				   "rate_iops %lld is below one I/O per second per job (%lld jobs)",
				   (long long)w->rate_iops, (long long)w->jobs);
	if (!path_size || w->engine == LST_ENGINE_NULL)
		return 0;
	if ((uint64_t)w->offset >= path_size)
		return lst_err_set(err, -EINVAL,
				   "offset %lld is beyond the end of the path (%llu bytes)",
				   (long long)w->offset, (unsigned long long)path_size);
	region = w->size ? (uint64_t)w->size : path_size - (uint64_t)w->offset;
	if ((uint64_t)w->offset + region > path_size)
		return lst_err_set(
			err, -EINVAL,
			"region offset %lld + size %lld ends beyond the path (%llu bytes)",
			(long long)w->offset, (long long)w->size, (unsigned long long)path_size);
	if (region < (uint64_t)w->bs * (uint64_t)(lst_rw_is_random(w->rw) ? 1 : w->jobs))
		return lst_err_set(
			err, -EINVAL, "region of %llu bytes is too small for bs %lld x %lld jobs",
			(unsigned long long)region, (long long)w->bs, (long long)w->jobs);
	if (!w->skew.n && /* a skew's entries have their own regions, checked above */
	    region / (uint64_t)(lst_rw_is_random(w->rw) ? 1 : w->jobs) <
		    (uint64_t)lst_workload_bs_max(w))
		return lst_err_set(
			err, -EINVAL,
			"bssplit: size %lld is larger than the region of %llu bytes%s",
			(long long)lst_workload_bs_max(w),
			(unsigned long long)(region /
					     (uint64_t)(lst_rw_is_random(w->rw) ? 1 : w->jobs)),
			lst_rw_is_random(w->rw) ? "" : " per job");
	return 0;
}

int64_t lst_workload_bs_max(const struct lst_workload *w)
{
	int64_t max = w->bs;

	for (int64_t i = 0; i < w->skew.n; i++)
		if (w->skew.e[i].bs > max)
			max = w->skew.e[i].bs;

	for (int d = 0; d < 2; d++)
		for (int64_t i = 0; i < w->bssplit.n[d]; i++)
			if (w->bssplit.e[d][i].bs > max)
				max = w->bssplit.e[d][i].bs;
	return max;
}
