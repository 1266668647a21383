/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Structured workload values: where I/Os land in a region (an access distribution)
 * and how large they are (a block-size mix). Each has one text form, fio's, which plans, flags
 * and the wire all carry and which these parsers read everywhere, so a value means the same
 * thing on the coordinator and on every agent:
 *
 *   random_distribution  random | zipf:θ | pareto:h | normal:σ | zoned:A/S[:A/S...]
 *   bssplit              4k/70:64k/25:1m/5 (both directions) | READS,WRITES (each a list)
 *
 * zoned:A/S gives A% of the I/Os to the next S% of the region, in order from the region's
 * start (fio's zoned form; a plan's `hotband:` list is written as one). The values live in
 * fixed-size structs inside struct lst_workload (no allocation), option types LST_OPT_DIST and
 * LST_OPT_BSSPLIT (lst_opt.h).
 */
#ifndef LST_MIX_H
#define LST_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_opt.h"

enum lst_dist_kind {
	LST_DIST_RANDOM, /* uniform */
	LST_DIST_ZIPF,	 /* param θ, in (0, 100], not 1 */
	LST_DIST_PARETO, /* param h, in (0, 1) */
	LST_DIST_NORMAL, /* param σ, percent of the region, in (0, 100] */
	LST_DIST_ZONED,	 /* zones: shares of I/Os over consecutive slices of the region */
};

#define LST_ZONES_MAX 16

struct lst_zone {
	int64_t access_pct; /* of the I/Os; the zones' add up to 100 */
	int64_t size_pct;   /* of the region; the zones' add up to 100 */
};

struct lst_dist {
	int64_t kind; /* enum lst_dist_kind */
	double param; /* θ, h or σ; 0 for random and zoned */
	int64_t nzones;
	struct lst_zone zone[LST_ZONES_MAX];
};

extern const char *const lst_dist_names[]; /* "random", "zipf", "pareto", "normal", "zoned" */

/* Parse fio's text form into *d. Returns 0, or -EINVAL/-ERANGE with err saying what is wrong
 * (an unknown kind, a parameter out of range, zone shares not adding to 100). */
int lst_dist_parse(struct lst_dist *d, const char *text, lst_err *err);

/* The text form lst_dist_parse reads back. */
const char *lst_dist_format(const struct lst_dist *d, char *buf, size_t size);

/* LST_OPT_DIST's operations for an option table (lst_opt.h): lst_dist_parse and _format. */
extern const struct lst_opt_ops lst_dist_opt_ops;

#define LST_BSSPLIT_MAX 16

struct lst_bs_share {
	int64_t bs;  /* bytes, a multiple of 512 within LST_BS_MIN..LST_BS_MAX */
	int64_t pct; /* share of the direction's I/Os; a direction's add up to 100 */
};

struct lst_bssplit {
	int64_t n[2]; /* entries per direction (enum lst_dir); 0: the direction uses bs */
	struct lst_bs_share e[2][LST_BSSPLIT_MAX];
};

/* Parse fio's bssplit text ("" or "none": no mix). Returns 0, or -EINVAL/-ERANGE with err. */
int lst_bssplit_parse(struct lst_bssplit *b, const char *text, lst_err *err);

/* The text form lst_bssplit_parse reads back ("none" for no mix). */
const char *lst_bssplit_format(const struct lst_bssplit *b, char *buf, size_t size);

/* LST_OPT_BSSPLIT's operations for an option table (lst_opt.h). */
extern const struct lst_opt_ops lst_bssplit_opt_ops;

/*
 * Several weighted workloads in one job (vdbench's skew=): each I/O picks entry i
 * with probability share[i] / 100 (its own random stream, so the choice is reproducible), then
 * takes that entry's direction, size and offset from the entry's own sequence over its own
 * region. Options the entries do not set (iodepth, jobs, rate_iops, runtime, engine, pattern...)
 * are the job's. Text form, entries separated by ';', each a list of KEY=VALUE separated by
 * spaces, KEY one of share (required, percent), rw, rwmixread, bs, offset, size,
 * random_distribution (fio's names accepted), e.g.
 *   share=60 rw=randread bs=8k random_distribution=zoned:100/10:0/90; share=30 rw=write
 *   bs=64k; share=10 rw=randtrim bs=4k
 * "none" or "" is no mix (n == 0: the job's own rw, bs, region and distribution).
 */
#define LST_SKEW_MAX 8

struct lst_skew_entry {
	int64_t share;	   /* percent of the job's I/Os; the entries' add up to 100 */
	int64_t rw;	   /* enum lst_rw (lst_workload.h) */
	int64_t rwmixread; /* for rw randrw and rw */
	int64_t bs;	   /* bytes per I/O */
	int64_t offset;	   /* the entry's region on the path: start, bytes */
	int64_t size;	   /* and length, bytes; 0 = to the end of the path */
	struct lst_dist dist;
};

struct lst_skew {
	int64_t n; /* entries, 0 = no mix */
	struct lst_skew_entry e[LST_SKEW_MAX];
};

/* Parse the text form into *s (entries not named take the job's defaults for rw: randread,
 * rwmixread 50, bs 4k, offset 0, size 0, random). Returns 0, or -EINVAL/-ERANGE with err
 * saying which entry and key is wrong (an unknown key with "did you mean", a share missing,
 * shares not adding to 100, more than LST_SKEW_MAX entries, a value out of range). */
int lst_skew_parse(struct lst_skew *s, const char *text, lst_err *err);

/* The text form lst_skew_parse reads back ("none" for no mix). */
const char *lst_skew_format(const struct lst_skew *s, char *buf, size_t size);

/* LST_OPT_SKEW's operations for an option table (lst_opt.h). */
extern const struct lst_opt_ops lst_skew_opt_ops;

#endif
