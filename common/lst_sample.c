/* SPDX-License-Identifier: Apache-2.0 */
/* Plausibility of samples from the wire (lst_sample.h): the coordinator merges nothing that no
 * agent could have measured. */
#include "lst_sample.h"

#include <errno.h>

#include "lst_verify.h"

const char *const lst_err_class_names[LST_ERRC_N] = { "eio", "enospc", "etimedout", "ebade",
						      "other" };

enum lst_err_class lst_err_class_of(int err)
{
	switch (err < 0 ? -err : err) {
	case EIO:
		return LST_ERRC_EIO;
	case ENOSPC:
		return LST_ERRC_ENOSPC;
	case ETIMEDOUT:
		return LST_ERRC_ETIMEDOUT;
	case EBADE:
		return LST_ERRC_EBADE;
	default:
		return LST_ERRC_OTHER;
	}
}

/* Errors by class add up to the directions' errors, unless the sample has none by class (an
 * agent that predates them). Each count is at most 2^41 (lst_msg's bound), so no overflow. */
static int s_health_check(const lst_sample *s, lst_err *err)
{
	uint64_t by_class = 0, errors = s->dir[LST_DIR_READ].errors + s->dir[LST_DIR_WRITE].errors;

	for (int c = 0; c < LST_ERRC_N; c++)
		by_class += s->health.err_class[c];
	if (by_class && by_class != errors)
		return lst_err_set(err, -EBADMSG,
				   "health: %llu errors by class, %llu read+write errors",
				   (unsigned long long)by_class, (unsigned long long)errors);
	if (s->health.oldest_inflight_ns < 0)
		return lst_err_set(err, -EBADMSG, "health: negative oldest in-flight age");
	return 0;
}

/*
 * Verify counts are 4 KiB units read in the interval: at most LST_SAMPLE_IOS_MAX
 * reads of LST_BS_MAX bytes each (2^52 units) in all. They are not tied to the interval's read
 * bytes: a unit is counted when its check ends, which need not be the interval its read
 * completed in, and a reader may check the same unit twice. Each count is checked before
 * the sum, so the sum cannot overflow.
 */
#define S_VERIFY_UNITS_MAX (LST_SAMPLE_IOS_MAX * (LST_BS_MAX / LST_VERIFY_UNIT))

static int s_verify_check(const lst_sample *s, lst_err *err)
{
	const struct lst_sample_verify *v = &s->verify;

	if (v->ok > S_VERIFY_UNITS_MAX || v->pending > S_VERIFY_UNITS_MAX ||
	    v->unwritten > S_VERIFY_UNITS_MAX || v->bad > S_VERIFY_UNITS_MAX ||
	    v->ok + v->pending + v->unwritten + v->bad > S_VERIFY_UNITS_MAX)
		return lst_err_set(err, -EBADMSG,
				   "verify: %llu/%llu/%llu/%llu units ok/pending/unwritten/bad, "
				   "more than 2^52 in one interval",
				   (unsigned long long)v->ok, (unsigned long long)v->pending,
				   (unsigned long long)v->unwritten, (unsigned long long)v->bad);
	return 0;
}

/* Trims bound as a direction's counts are (no histogram). */
static int s_trim_check(const lst_sample *s, lst_err *err)
{
	const struct lst_sample_trim *t = &s->trim;

	if (t->ios > LST_SAMPLE_IOS_MAX)
		return lst_err_set(err, -EBADMSG, "trim: %llu ios, more than 2^40 in one interval",
				   (unsigned long long)t->ios);
	if (t->errors > t->ios)
		return lst_err_set(err, -EBADMSG, "trim: %llu errors > %llu ios",
				   (unsigned long long)t->errors, (unsigned long long)t->ios);
	if (t->bytes / LST_BS_MAX > t->ios - t->errors ||
	    (t->bytes / LST_BS_MAX == t->ios - t->errors && t->bytes % LST_BS_MAX))
		return lst_err_set(err, -EBADMSG,
				   "trim: %llu bytes from %llu ios without error, more than %u "
				   "bytes each",
				   (unsigned long long)t->bytes,
				   (unsigned long long)(t->ios - t->errors), (unsigned)LST_BS_MAX);
	return 0;
}

int lst_sample_check(const lst_sample *s, lst_err *err)
{
	int rc;

	if (s->interval < 0)
		return lst_err_set(err, -EBADMSG, "negative interval %lld", (long long)s->interval);
	if (s->end_ns < s->start_ns)
		return lst_err_set(err, -EBADMSG, "ends at %lld ns, before its start at %lld ns",
				   (long long)s->end_ns, (long long)s->start_ns);
	for (int d = 0; d < LST_DIR_N; d++) {
		const struct lst_dir_stats *ds = &s->dir[d];
		const char *dir = lst_dir_names[d];

		if (ds->ios > LST_SAMPLE_IOS_MAX)
			return lst_err_set(err, -EBADMSG,
					   "%s: %llu ios, more than 2^40 in one interval", dir,
					   (unsigned long long)ds->ios);
		if (ds->errors > ds->ios)
			return lst_err_set(err, -EBADMSG, "%s: %llu errors > %llu ios", dir,
					   (unsigned long long)ds->errors,
					   (unsigned long long)ds->ios);
		if (ds->bytes / LST_BS_MAX > ds->ios - ds->errors ||
		    (ds->bytes / LST_BS_MAX == ds->ios - ds->errors && ds->bytes % LST_BS_MAX))
			return lst_err_set(err, -EBADMSG,
					   "%s: %llu bytes from %llu ios without error, more than "
					   "%u bytes each",
					   dir, (unsigned long long)ds->bytes,
					   (unsigned long long)(ds->ios - ds->errors),
					   (unsigned)LST_BS_MAX);
		if (ds->lat.count != ds->ios)
			return lst_err_set(
				err, -EBADMSG,
				"%s: the latency histogram holds %llu values for %llu ios", dir,
				(unsigned long long)ds->lat.count, (unsigned long long)ds->ios);
	}
	if ((rc = s_health_check(s, err)))
		return rc;
	if ((rc = s_trim_check(s, err)))
		return rc;
	return s_verify_check(s, err);
}
