/* Plausibility of samples from the wire (lst_sample.h): the coordinator merges nothing that no
 * agent could have measured. */
#include "lst_sample.h"

#include <errno.h>

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

int lst_sample_check(const lst_sample *s, lst_err *err)
{
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
	return s_health_check(s, err);
}
