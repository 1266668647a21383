/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A sample: what one agent measured over one interval. Jobs fill them, the agent merges its jobs'
 * samples of the same interval, the wire carries them, the coordinator merges agents.
 *
 * Interval k covers [T0 + k * interval, T0 + (k + 1) * interval) on the agent's clock, where T0 is
 * the phase start; start_ns and end_ns say what the interval really covered (the last one may be
 * shorter). Intervals with k < ramp_intervals are ramp and carry LST_SAMPLE_RAMP.
 */
#ifndef LST_SAMPLE_H
#define LST_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lst_err.h"
#include "lst_hist.h"
#include "lst_identity.h"
#include "lst_workload.h"

enum {
	LST_SAMPLE_RAMP = 1u << 0, /* interval is in the ramp, excluded from results */
	LST_SAMPLE_LAST = 1u << 1, /* the job's (or agent's) final interval */
	LST_SAMPLE_LATE = 1u << 2, /* spans several intervals: its reader fell behind */
};

struct lst_dir_stats {
	uint64_t ios;	 /* completed I/Os (errors included) */
	uint64_t bytes;	 /* bytes of completed I/Os without error */
	uint64_t errors; /* I/Os that completed with an error */
	lst_hist lat;	 /* completion latency, ns */
};

/* Classes of I/O errors, counted apart: what a failover or a full device looks like. */
enum lst_err_class {
	LST_ERRC_EIO,	    /* EIO: a path or medium error */
	LST_ERRC_ENOSPC,    /* ENOSPC: a thin or full device */
	LST_ERRC_ETIMEDOUT, /* ETIMEDOUT: the kernel or the device timed the I/O out */
	LST_ERRC_EBADE,	    /* EBADE: a reservation conflict (SCSI persistent reservations) */
	LST_ERRC_OTHER,	    /* any other errno */
	LST_ERRC_N,
};
extern const char *const lst_err_class_names[LST_ERRC_N]; /* "eio", "enospc", "etimedout", ... */

/* The class of an errno, positive or negative (EIO and -EIO are both LST_ERRC_EIO); 0 and any
 * errno without a class of its own are LST_ERRC_OTHER. */
enum lst_err_class lst_err_class_of(int err);

/*
 * How the I/O of an interval fared beyond its counts: errors by class, and what was stuck. A
 * stall shows here while it happens (inflight and the age of the oldest I/O at the interval's
 * end), not only when its I/O finally completes.
 */
struct lst_sample_health {
	uint64_t err_class[LST_ERRC_N]; /* completions with an error, by class (sum = errors) */
	uint64_t timeouts;		/* I/Os that passed io_timeout during the interval */
	uint64_t inflight;		/* I/Os submitted and not completed at the interval's end */
	int64_t oldest_inflight_ns;	/* age of the oldest of them then; 0 when none */
};

/*
 * What a verifying read found in the interval, in 4 KiB units (lst_verify.h): each
 * unit read is exactly one of ok, pending, unwritten or bad. Writes leave it zero.
 */
struct lst_sample_verify {
	uint64_t ok;	    /* the generation expected, intact */
	uint64_t pending;   /* a write that may or may not have landed (a fault in flight) */
	uint64_t unwritten; /* no verified write of the run touched it */
	uint64_t bad;	    /* errors: integrity.csv has a row for each (up to its cap) */
};

/*
 * The interval's trims (discards: rw trim/randtrim, rwmixtrim), apart from reads and
 * writes and without a latency histogram. bytes counts trims completed without error.
 */
struct lst_sample_trim {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
};

typedef struct lst_sample {
	int64_t interval; /* k */
	int64_t start_ns; /* agent monotonic clock */
	int64_t end_ns;
	uint32_t flags;
	struct lst_dir_stats dir[LST_DIR_N];
	struct lst_sample_health health; /* all zero from agents that predate it */
	struct lst_sample_verify verify; /* all zero when nothing was verified */
	struct lst_sample_trim trim;	 /* all zero without trims */
} lst_sample;

/* Everything but the histograms, as lst_sample_init leaves it. */
static inline void lst__sample_reset(lst_sample *s, int64_t interval)
{
	s->interval = interval;
	s->start_ns = INT64_MAX;
	s->end_ns = INT64_MIN;
	s->flags = 0;
	for (int d = 0; d < LST_DIR_N; d++)
		s->dir[d].ios = s->dir[d].bytes = s->dir[d].errors = 0;
	memset(&s->health, 0, sizeof(s->health));
	memset(&s->verify, 0, sizeof(s->verify));
	memset(&s->trim, 0, sizeof(s->trim));
}

static inline void lst_sample_init(lst_sample *s, int64_t interval)
{
	lst__sample_reset(s, interval);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&s->dir[d].lat);
}

/* lst_sample_init for a sample that is already valid (initialized, or all zero): its histograms
 * are cleared over the buckets they may use only (lst_hist_clear). */
static inline void lst_sample_clear(lst_sample *s, int64_t interval)
{
	lst__sample_reset(s, interval);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_clear(&s->dir[d].lat);
}

/* dst = src, dst valid (initialized, or all zero): *dst = *src without copying the histograms'
 * unused buckets (lst_hist_copy). */
static inline void lst_sample_copy(lst_sample *dst, const lst_sample *src)
{
	dst->interval = src->interval;
	dst->start_ns = src->start_ns;
	dst->end_ns = src->end_ns;
	dst->flags = src->flags;
	for (int d = 0; d < LST_DIR_N; d++) {
		dst->dir[d].ios = src->dir[d].ios;
		dst->dir[d].bytes = src->dir[d].bytes;
		dst->dir[d].errors = src->dir[d].errors;
		lst_hist_copy(&dst->dir[d].lat, &src->dir[d].lat);
	}
	dst->health = src->health;
	dst->verify = src->verify;
	dst->trim = src->trim;
}
/* A field added at the end of either struct needs its line in lst__sample_reset and
 * lst_sample_copy. */
_Static_assert(sizeof(lst_sample) - (offsetof(lst_sample, trim) + sizeof(struct lst_sample_trim)) <
		       _Alignof(lst_sample),
	       "lst_sample_copy: a field after trim");
_Static_assert(offsetof(struct lst_dir_stats, lat) + sizeof(lst_hist) ==
		       sizeof(struct lst_dir_stats),
	       "lst_sample_copy: a field after lat");

/* dst += src: counts add, histograms merge, the time span becomes the union. */
static inline void lst_sample_add(lst_sample *dst, const lst_sample *src)
{
	if (src->start_ns < dst->start_ns)
		dst->start_ns = src->start_ns;
	if (src->end_ns > dst->end_ns)
		dst->end_ns = src->end_ns;
	dst->flags |= src->flags;
	for (int d = 0; d < LST_DIR_N; d++) {
		dst->dir[d].ios += src->dir[d].ios;
		dst->dir[d].bytes += src->dir[d].bytes;
		dst->dir[d].errors += src->dir[d].errors;
		lst_hist_add(&dst->dir[d].lat, &src->dir[d].lat);
	}
	/* health: counts add; what was stuck at the end adds up over jobs, the oldest is the
	 * oldest of any */
	for (int c = 0; c < LST_ERRC_N; c++)
		dst->health.err_class[c] += src->health.err_class[c];
	dst->health.timeouts += src->health.timeouts;
	dst->health.inflight += src->health.inflight;
	if (src->health.oldest_inflight_ns > dst->health.oldest_inflight_ns)
		dst->health.oldest_inflight_ns = src->health.oldest_inflight_ns;
	dst->verify.ok += src->verify.ok;
	dst->verify.pending += src->verify.pending;
	dst->verify.unwritten += src->verify.unwritten;
	dst->verify.bad += src->verify.bad;
	dst->trim.ios += src->trim.ios;
	dst->trim.bytes += src->trim.bytes;
	dst->trim.errors += src->trim.errors;
}

/*
 * One path's share of a sample: what the jobs of one job spec did in the interval. The agent's
 * run splits its sample into them (lst_run_parts), a SAMPLE carries them ("paths"), and together
 * they add up exactly to the whole sample (lst_msg_sample_parts_check).
 */
struct lst_sample_part {
	uint32_t path; /* index of the job spec in the point's PREPARE `jobs` */
	lst_sample s;  /* interval and flags as the whole sample's; own start/end and counts */
};

/*
 * What one path's block device itself counted over one interval: the deltas of its
 * /sys/class/block/NAME/stat (Documentation/block/stat.rst) between the interval's boundaries as
 * the agent saw them, except in_flight, which is the value at the interval's end. Regular files
 * and the null engine have none. The agent sends them with the SAMPLE, next to its own counts.
 */
struct lst_devstat {
	uint32_t path; /* index of the path's job spec in the point's PREPARE */
	uint64_t reads, read_merges, read_sectors, read_ms;
	uint64_t writes, write_merges, write_sectors, write_ms;
	uint64_t in_flight; /* at the interval's end, not a delta */
	uint64_t io_ms;	    /* time the device was busy */
	uint64_t queue_ms;  /* time I/Os spent queued, weighted by their number */
};

#define LST_DEVSTATS_MAX LST_MAX_JOBSPECS /* at most one entry per path */

/* Bounds of a sample from outside (lst_sample_check). */
#define LST_SAMPLE_IOS_MAX (1ull << 40) /* I/Os per direction per interval: 10^8 IOPS for 3 h */

/*
 * Is a sample from the wire possible? A sample an agent really measured has, per direction:
 * ios <= LST_SAMPLE_IOS_MAX, errors <= ios, bytes <= (ios - errors) x LST_BS_MAX (only I/Os
 * without error count their bytes, and none is larger than the largest block size), and a
 * latency histogram holding exactly ios values (the agent records every completion, errors
 * included, agent/io/lst_job.c); and interval >= 0 and end_ns >= start_ns (an interval with no
 * I/O has both 0). Returns 0, or -EBADMSG with err naming the field and both values, without
 * the interval (the caller says which): "read: 12 errors > 10 ios".
 */
int lst_sample_check(const lst_sample *s, lst_err *err);

#endif
