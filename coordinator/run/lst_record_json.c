/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The record's formats in JSON that need no run: a path's identity as run.json lists it, a
 * step as a point of run.json shows it, a point's result as its journal entry keeps it (and
 * back, for a resume), and the boot a time base belongs to.
 */
#include "lst_record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_domain.h"
#include "lst_hist.h"
#include "lst_util.h"
#include "lst_workload.h"

json_t *lst_record_identity_json(const struct lst_path_identity *id)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:i, s:i, s:I, "
			 "s:I}",
			 "target", id->target, "path", id->path, "real_path", id->real_path, "kind",
			 id->kind, "wwn", id->wwn, "serial", id->serial, "model", id->model,
			 "vendor", id->vendor, "firmware", id->firmware, "backing_file",
			 id->backing_file, "size", (json_int_t)id->size, "logical_block_size",
			 (int)id->lbs, "physical_block_size", (int)id->pbs, "dev",
			 (json_int_t)id->dev, "ino", (json_int_t)id->ino);
}

/* The coordinator's boot, so a resume knows whether our monotonic clock is still the same. */
void lst_record_boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/* A histogram as the hex of its lst_hist_encode (the caller frees it). */
static char *s_hist_hex(const lst_hist *h)
{
	uint8_t buf[LST_HIST_ENC_MAX];
	size_t n = lst_hist_encode(h, buf, sizeof(buf));
	char *hex = lst_malloc(2 * n + 1);

	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf[i]);
	hex[2 * n] = 0;
	return hex;
}

/* The hex string at o.key back into *h (s_hist_hex). Returns 0 or -EINVAL with err. */
static int s_hist_of_hex(json_t *o, const char *key, lst_hist *h, lst_err *err)
{
	const char *hex = json_string_value(json_object_get(o, key));
	uint8_t buf[LST_HIST_ENC_MAX];
	size_t n = hex ? strlen(hex) / 2 : 0;

	lst_hist_init(h);
	if (!hex || strlen(hex) % 2 || n > sizeof(buf))
		return lst_err_set(err, -EINVAL, "result.%s: not a histogram in hex", key);
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return lst_err_set(err, -EINVAL, "result.%s: not a histogram in hex", key);
		buf[i] = (uint8_t)v;
	}
	return lst_hist_decode(h, buf, n, err);
}

/*
 * A point's result as its journal entry's "result": rates, counts and time, and the combined,
 * read and write histograms ("lat", "lat_read", "lat_write") in hex, so a resume's suite sees
 * what the run's would have. New reference.
 */
json_t *lst_record_result_json(const struct lst_step_result *r)
{
	static const char *const keys[] = { "lat", "lat_read", "lat_write" };
	const lst_hist *h[] = { &r->lat, &r->lat_dir[LST_DIR_READ], &r->lat_dir[LST_DIR_WRITE] };
	json_t *o = json_pack("{s:[f,f], s:[f,f], s:[I,I], s:[I,I], s:f, s:f, s:b}", "iops",
			      r->iops[0], r->iops[1], "mbps", r->mbps[0], r->mbps[1], "ios",
			      (json_int_t)r->ios[0], (json_int_t)r->ios[1], "bytes",
			      (json_int_t)r->bytes[0], (json_int_t)r->bytes[1], "seconds",
			      r->seconds, "t_s", r->t_s, "partial", r->partial);

	if (r->discarded) /* a purge's bytes, for the record its suite writes after a resume */
		json_object_set_new(o, "discarded", json_integer((json_int_t)r->discarded));
	for (size_t i = 0; i < LST_ARRAY_SIZE(keys); i++) {
		char *hex = s_hist_hex(h[i]);

		json_object_set_new(o, keys[i], json_string(hex));
		free(hex);
	}
	return o;
}

/* rw is null with a skew (several workloads) and for a purge (no workload: discards), as
 * summary.csv's rw is empty then. */
json_t *lst_record_step_json(const struct lst_step *step)
{
	const char *rw =
		step->w.skew.n || step->action != LST_ACTION_IO ? NULL : lst_rw_names[step->w.rw];
	json_t *o = json_pack(
		"{s:s, s:i, s:{s:s?, s:I, s:I, s:I, s:i, s:I}}", "test", step->test, "round",
		(int)step->round, "workload", "rw", rw, "jobs", (json_int_t)step->w.jobs, "iodepth",
		(json_int_t)step->w.iodepth, "bs", (json_int_t)step->w.bs, "rwmixread",
		lst_workload_read_pct(&step->w), "rate_iops", (json_int_t)step->w.rate_iops);

	if (step->repeats) /* a repeated point: which run of how many (docs/results.md) */
		json_object_update_new(o,
				       json_pack("{s:I, s:I}", "repeat", (json_int_t)step->repeat,
						 "repeats", (json_int_t)step->repeats));
	return o;
}

/*
 * A journaled point's result back into r. Journals written before results kept the directions
 * apart have no "lat_read"/"lat_write": r->lat_dir stay empty (the per-direction columns of
 * such points' curves.csv rows are then empty).
 */
int lst_record_result_of(json_t *o, struct lst_step_result *r, lst_err *err)
{
	static const char *const dir_keys[LST_DIR_N] = { "lat_read", "lat_write" };
	int rc;

	memset(r, 0, sizeof(*r));
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&r->lat_dir[d]);
	rc = s_hist_of_hex(o, "lat", &r->lat, err);
	for (int d = 0; !rc && d < LST_DIR_N; d++)
		if (json_object_get(o, dir_keys[d]))
			rc = s_hist_of_hex(o, dir_keys[d], &r->lat_dir[d], err);
	if (rc)
		return rc;
	for (int d = 0; d < LST_DIR_N; d++) {
		r->iops[d] = json_number_value(json_array_get(json_object_get(o, "iops"), d));
		r->mbps[d] = json_number_value(json_array_get(json_object_get(o, "mbps"), d));
		r->ios[d] =
			(uint64_t)json_integer_value(json_array_get(json_object_get(o, "ios"), d));
		r->bytes[d] = (uint64_t)json_integer_value(
			json_array_get(json_object_get(o, "bytes"), d));
	}
	r->seconds = json_number_value(json_object_get(o, "seconds"));
	r->t_s = json_number_value(json_object_get(o, "t_s"));
	r->partial = json_is_true(json_object_get(o, "partial"));
	r->discarded = (uint64_t)json_integer_value(json_object_get(o, "discarded"));
	return 0;
}
