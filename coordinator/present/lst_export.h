/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep export fio|hdr`: a results folder in the file shapes other tools read.
 *
 * The latency buckets of a point are in its samples only (samples/AGENT.msgpack: the CSV files
 * keep percentiles, not buckets), so the export reads every measured (not ramp) interval of
 * each point and adds them up per agent, per path and for all agents, exactly as the
 * coordinator merged them for summary.csv; the per-interval rates (fio's bw and iops
 * statistics) come from timeseries.csv's rows. Which phase a sample's index names comes from
 * the folder's plan.yaml; each point's workload from run.json, read through the report model.
 * The writers (lst_export_fio.h, lst_export_hdr.h) turn the sums into files.
 *
 * Decoding a samples file needs the wire codec, which this library must not link (no msgpack
 * in the presentation layer), so the caller hands in a reader of one agent's samples file that
 * gives each sample as plain figures (struct lst_export_sample): the `lockstep` command reads
 * the file frame by frame with proto's codec.
 */
#ifndef LST_EXPORT_H
#define LST_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_sample.h"

/* One SAMPLE of a samples file as the export reads it; the pointers are borrowed for the
 * duration of the callback only. */
struct lst_export_sample {
	uint32_t phase; /* the phase's index in plan.yaml */
	uint32_t point;
	const lst_sample *s;
	uint32_t nparts; /* the sample split by job spec (lst_sample_part.path), 0 when not */
	const struct lst_sample_part *parts;
};

/* What the export does with one sample; returns 0 or -errno with err. */
typedef int (*lst_export_sample_fn)(void *arg, const struct lst_export_sample *m, lst_err *err);

/*
 * A reader of agent's samples file in results folder dir: calls fn(arg, ...) for every SAMPLE
 * in file order (ramp ones included: the export skips them) and returns 0, fn's error, or
 * -errno with err naming the file and the byte where it cannot be read.
 */
typedef int (*lst_export_samples_fn)(const char *dir, const char *agent, lst_export_sample_fn fn,
				     void *arg, lst_err *err);

struct lst_report;

/* The formats lst_export_write writes. */
enum lst_export_format {
	LST_EXPORT_FIO, /* fio json+ in both shapes and fio's latency histogram logs */
	LST_EXPORT_HDR, /* HdrHistogram interval logs */
};

/*
 * Write results folder dir in format into folder out (made when missing), each agent's samples
 * read through samples. Returns 0 with the number of points written in *npoints, or -errno with
 * err: the folder is not a results folder, its plan does not load, a samples file or
 * timeseries.csv cannot be read, a file under out cannot be written.
 */
int lst_export_write(enum lst_export_format format, const char *dir, const char *out,
		     lst_export_samples_fn samples, size_t *npoints, lst_err *err);

#endif
