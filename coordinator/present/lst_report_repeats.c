/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Repeated points in `lockstep report` (lst_report_repeats.h): each repeated point's figures,
 * mean and 95% interval over its repeats, as --json gives them and as text, from the one table
 * of figures of lst_repeats.h that repeats.csv is written from too.
 */
#include "lst_report_repeats.h"

#include <stdio.h>

#include "lst_assert.h"
#include "lst_repeats.h"
#include "lst_report_text.h"

static void s_json_point(const lst_report *r, const struct lst_rpt_point *p, void *arg)
{
	json_t *figs = json_object();

	for (size_t s = 0; s < lst_point_nstats; s++) {
		struct lst_noise n;

		lst_repeats_noise(r, p, s, &n);
		json_object_set_new(figs, lst_point_stats[s].key,
				    json_pack("{s:o, s:o, s:o, s:o}", "mean",
					      lst_report_json_num(n.mean), "sd",
					      lst_report_json_num(n.sd), "ci95_low",
					      lst_report_json_num(n.ci_low), "ci95_high",
					      lst_report_json_num(n.ci_high)));
	}
	json_array_append_new(arg, json_pack("{s:s, s:o, s:s, s:I, s:o}", "phase", p->phase, "test",
					     lst_report_json_str(p->test), "label", p->name,
					     "repeats", (json_int_t)p->repeats, "figures", figs));
}

json_t *lst_repeats_json(const lst_report *r)
{
	json_t *a = json_array();

	lst_repeats_each(r, s_json_point, a);
	return a;
}

/* The figures the text shows (the files have them all). */
static const char *const s_text_stats[] = { "iops", "mbps", "lat_mean_us", "lat_p99_us" };

static void s_text_point(const lst_report *r, const struct lst_rpt_point *p, void *arg)
{
	(void)arg;
	printf("  %s / %s (%ld repeats)\n", p->phase, p->name, p->repeats);
	for (size_t k = 0; k < LST_ARRAY_SIZE(s_text_stats); k++) {
		size_t s = lst_point_stat_index(s_text_stats[k]);
		const char *fmt = s ? "%.1f" : "%.0f";
		char m[32], lo[32], hi[32];
		struct lst_noise n;

		lst_repeats_noise(r, p, s, &n);
		printf("    %-10s %10s  [%s, %s]\n", lst_point_stats[s].head,
		       lst_report_fmt(n.mean, fmt, m, sizeof(m)),
		       lst_report_fmt(n.ci_low, fmt, lo, sizeof(lo)),
		       lst_report_fmt(n.ci_high, fmt, hi, sizeof(hi)));
	}
}

void lst_repeats_print(const lst_report *r)
{
	if (!lst_repeats_any(r))
		return;
	printf("\nrepeats: each figure's mean over the point's repeats [95%% Student t interval]; "
	       "every figure in repeats.csv\n");
	lst_repeats_each(r, s_text_point, NULL);
}
