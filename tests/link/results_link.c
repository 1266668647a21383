/*
 * Link rule: the results library (writer, merge, CSV, steady state, report reader, plots) links
 * alone, with no ZeroMQ, czmq or msgpack. This program is linked against lockstep::results and
 * nothing else; a reference to each module pulls every object of the library into the link, so
 * an undefined symbol fails the build, and tests/integration/link_results.sh fails when ldd or
 * the link line shows libzmq, libczmq or libmsgpackc.
 */
#include <stdio.h>

#include "lst_csv.h"
#include "lst_merge.h"
#include "lst_plot.h"
#include "lst_report.h"
#include "lst_results.h"
#include "lst_steady.h"

int main(void)
{
	void (*const used[])(void) = {
		(void (*)(void))lst_results_new, (void (*)(void))lst_merge_new,
		(void (*)(void))lst_csv_load,	 (void (*)(void))lst_steady_eval,
		(void (*)(void))lst_report_load, (void (*)(void))lst_plot_all,
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++)
		n += used[i] != NULL;
	printf("results_link: %zu modules linked\n", n);
	return n == sizeof(used) / sizeof(used[0]) ? 0 : 1;
}
