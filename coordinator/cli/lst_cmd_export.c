/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep export fio|hdr DIR [-o OUT]`: a results folder in the file shapes other tools read.
 *
 * The export itself is the presentation layer's (lst_export.h); this command gives it the one
 * thing that layer may not do, decoding the samples files with the wire codec (lst_cli_samples,
 * frame by frame, so that memory stays one frame's bound however long the run was).
 */
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_cli_samples.h"
#include "lst_export.h"
#include "lst_log.h"
#include "lst_util.h"

struct s_args {
	struct lst_cli_flags c; /* first, as every command's: -o stores into c.out */
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_args, c.out),
		   .help = "the folder the files go to (default DIR/fio, DIR/hdr)" },
	  .letter = 'o',
	  .arg = "OUT",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, NULL };

const struct lst_flag_cmd lst_cmd_export_flags = {
	.name = "lockstep export",
	.operands = "fio|hdr DIR",
	.operand = LST_FLAG_RESULTS,
	.groups = s_groups,
	.about = "Write results folder DIR in the shape other tools read. 'fio' writes each\n"
		 "point as fio json+ output, its latency buckets mapped one to one onto fio's:\n"
		 "OUT/PHASE/BS/RW-iodepth-D-numjobs-N.json in fio's client/server shape (one\n"
		 "entry per agent, one per path, then \"All clients\"), the layout fio-plot\n"
		 "reads; beside it in jobs/ the standalone shape (\"jobs\") of all agents\n"
		 "(.all.json) and of each agent (.AGENT.json), which fio's own scripts read,\n"
		 "and in hist/ each agent's fio latency histogram log (STEM_clat_hist.N.log).\n"
		 "'hdr' writes every measured interval's read and write latency histograms\n"
		 "as HdrHistogram interval logs (V2 compressed encoding), OUT/AGENT.hlog per\n"
		 "agent and OUT/all.hlog for all agents, tagged PHASE:POINT:DIRECTION, their\n"
		 "times on the run's shared clock.\n",
	.more = "docs/fio.md says what each fio key holds. Exit status 2 when DIR cannot be\n"
		"read or OUT cannot be written.\n"
		"\n"
		"Examples:\n"
		"  lockstep export fio results/today -o today-fio\n"
		"  lockstep export hdr results/today -o today-hdr\n",
};

/* `export FORMAT DIR [-o OUT]`: OUT defaults to DIR/FORMAT. */
static int s_export(const char *format, const char *dir, const char *out)
{
	char *def = out ? NULL : lst_asprintf("%s/%s", dir, format);
	size_t n;
	lst_err err;
	int rc = lst_export_write(strcmp(format, "fio") ? LST_EXPORT_HDR : LST_EXPORT_FIO, dir,
				  out ?: def, lst_cli_samples, &n, &err);

	if (rc)
		lst_log_error("export: %s", err.msg);
	else
		printf("%zu point%s written to %s\n", n, n == 1 ? "" : "s", out ?: def);
	free(def);
	return rc ? 2 : 0;
}

int lst_cmd_export(int argc, char **argv)
{
	struct s_args a = { 0 };
	int first, rc;

	if ((rc = lst_cli_parse(&lst_cmd_export_flags, argc, argv, &a, &first)) >= 0)
		return rc;
	if (argc - first != 2 || (strcmp(argv[first], "fio") && strcmp(argv[first], "hdr"))) {
		fprintf(stderr,
			"lockstep export: give a format (fio or hdr) and one results folder "
			"(see 'lockstep export --help')\n");
		return 2;
	}
	return s_export(argv[first], argv[first + 1], a.c.out);
}
