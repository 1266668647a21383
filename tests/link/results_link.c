/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Link rules of the results' three libraries: each is linked alone into this program, built
 * once per library (LST_LINK_MEASURE, LST_LINK_FOLDER or LST_LINK_PRESENT), and a reference to
 * each of its modules pulls every object into the link, so a call into a library it does not
 * link (folder calling present, measure calling folder) is an undefined symbol and fails the
 * build. tests/link/link_results.sh then fails when ldd or the link line shows what the
 * library must not link (ZeroMQ, czmq, msgpack; for measure also jansson and libyaml).
 */
#include <stdio.h>

#include "lst_balance.h"
#include "lst_curves.h"
#include "lst_failover.h"
#include "lst_headline.h"
#include "lst_merge.h"
#include "lst_noise.h"
#include "lst_steady.h"
#if defined(LST_LINK_FOLDER) || defined(LST_LINK_PRESENT)
#include "lst_csv.h"
#include "lst_events.h"
#include "lst_failover_json.h"
#include "lst_folder_lock.h"
#include "lst_integrity.h"
#include "lst_repeats.h"
#include "lst_report.h"
#include "lst_results.h"
#include "lst_steady_read.h"
#endif
#ifdef LST_LINK_PRESENT
#include "lst_compare.h"
#include "lst_plot.h"
#include "lst_report_html.h"
#include "lst_report_plan.h"
#include "lst_report_show.h"
#endif

int main(void)
{
	void (*const used[])(void) = {
		(void (*)(void))lst_merge_new,
		(void (*)(void))lst_steady_eval,
		(void (*)(void))lst_failover_add,
		(void (*)(void))lst_noise_of,
		(void (*)(void))lst_curves_group,
		(void (*)(void))lst_headline_figures,
		(void (*)(void))lst_balance_shares,
#if defined(LST_LINK_FOLDER) || defined(LST_LINK_PRESENT)
		(void (*)(void))lst_results_new,
		(void (*)(void))lst_csv_load,
		(void (*)(void))lst_report_load,
		(void (*)(void))lst_failover_json,
		(void (*)(void))lst_steady_read,
		(void (*)(void))lst_results_event,
		(void (*)(void))lst_journal_open,
		(void (*)(void))lst_folder_lock_take,
		(void (*)(void))lst_repeats_write_dir,
#endif
#ifdef LST_LINK_PRESENT
		(void (*)(void))lst_plot_all,
		(void (*)(void))lst_report_print,
		(void (*)(void))lst_report_html_write,
		(void (*)(void))lst_compare_print,
		(void (*)(void))lst_report_plan_read,
#endif
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++)
		n += used[i] != NULL;
	printf("results_link: %zu modules linked\n", n);
	return n == sizeof(used) / sizeof(used[0]) ? 0 : 1;
}
