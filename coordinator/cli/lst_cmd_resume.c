/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep resume DIR [--plan FILE]`: finish a run whose coordinator died (kill -9, a reboot of
 * the workstation), appending to its results folder. Refuses a folder another lockstep writes
 * (its lock: the run itself, still alive, or another resume), a run that ended (status other
 * than interrupted), a plan other than the one the run started with, and agents serving another
 * coordinator; see lst_coord_resume for the rest.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lst_cli.h"
#include "lst_cli_results.h"
#include "lst_coord.h"
#include "lst_log.h"
#include "lst_plan.h"
#include "lst_results.h"
#include "lst_time.h"
#include "lst_util.h"

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	const char *plan;
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "plan",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, plan),
		   .help = "the plan (default: run.json's plan_file when it is still the same text, "
			   "else DIR/plan.yaml); it must be the plan the run started with (same "
			   "SHA-1 as run.json's plan_sha1)" },
	  .letter = 'p',
	  .arg = "FILE",
	  .complete = LST_FLAG_PLAN },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = {
	s_own, lst_cli_quiet_flags, lst_cli_metrics_flags, lst_cli_key_flags, lst_cli_log_flags,
	NULL
};

const struct lst_flag_cmd lst_cmd_resume_flags = {
	.name = "lockstep resume",
	.operands = "DIR",
	.operand = LST_FLAG_RESULTS,
	.groups = s_groups,
	.about =
		"Finish the run whose results are in DIR after its coordinator died (kill -9, a\n"
		"reboot): reach its agents again with the run's id, end what they still ran, keep\n"
		"every point DIR/points.jsonl has, run the interrupted point again, and go on to the\n"
		"end, appending to DIR. Suites keep their rounds. run.json gets a \"resumes\" entry.\n"
		"The agents know the run by its id and our key (--key, as for 'lockstep run').\n",
	.more = "Refused, with the folder left unchanged: a folder another lockstep is writing\n"
		"(the run itself, still alive, or another resume: its pid and host are named), a\n"
		"run that ended (run.json has a status other than interrupted), another plan, an\n"
		"agent serving another coordinator, a path that is not the drive run.json\n"
		"recorded (checked before any I/O).\n"
		"\n"
		"Exit status: as 'lockstep run': 0 complete, 1 failed (or an agent refused),\n"
		"2 bad usage or a folder that cannot be resumed, 130 interrupted.\n"
		"\n"
		"Example:\n"
		"  lockstep resume results/nightly-20260101-020000\n",
};

/* Read the text of path; NULL when it cannot be read. */
static char *s_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[8192];

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf = lst_realloc(buf, len + n + 1);
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (!buf)
		buf = lst_strdup("");
	buf[len] = 0;
	return buf;
}

static bool s_same_plan(const char *path, const char *sha1)
{
	char *text = s_slurp(path);
	char got[41];

	if (!text)
		return false;
	lst_coord_plan_hash(text, got);
	free(text);
	return !strcmp(got, sha1);
}

/*
 * dir's run.json, when it is a run that can be resumed: a run_id, no status or "interrupted",
 * and a plan_sha1. NULL when not (said).
 */
static json_t *s_load_run(const char *dir)
{
	char *path = lst_asprintf("%s/run.json", dir);
	const char *status;
	json_error_t je;
	json_t *run = json_load_file(path, 0, &je);

	if (!run || !json_is_object(run)) {
		fprintf(stderr, "lockstep resume: %s: %s\n", path,
			run ? "not a JSON object" : je.text);
		goto fail;
	}
	status = json_string_value(json_object_get(run, "status"));
	if (!json_string_value(json_object_get(run, "run_id"))) {
		fprintf(stderr, "lockstep resume: %s: no run_id: not a lockstep run.json\n", path);
		goto fail;
	}
	if (status && strcmp(status, "interrupted")) {
		fprintf(stderr,
			"lockstep resume: %s: the run ended (status %s); only a run whose "
			"coordinator died (no status) or that was interrupted can be resumed\n",
			dir, status);
		goto fail;
	}
	if (!json_string_value(json_object_get(run, "plan_sha1"))) {
		fprintf(stderr,
			"lockstep resume: %s: no plan_sha1 (a run from an older lockstep): cannot "
			"tell its plan\n",
			path);
		goto fail;
	}
	free(path);
	return run;
fail:
	json_decref(run);
	free(path);
	return NULL;
}

/*
 * The plan file the run started with (run.json's plan_sha1): --plan (plan_arg) when given,
 * else run.json's plan_file, else the copy in dir. The caller frees it; NULL when none is
 * (said).
 */
static char *s_find_plan(const char *dir, json_t *run, const char *plan_arg)
{
	const char *sha1 = json_string_value(json_object_get(run, "plan_sha1"));
	const char *file = json_string_value(json_object_get(run, "plan_file"));
	char *plan_path;

	if (plan_arg) {
		if (access(plan_arg, R_OK)) {
			fprintf(stderr, "lockstep resume: --plan %s: %s\n", plan_arg,
				strerror(errno));
			return NULL;
		}
		if (!s_same_plan(plan_arg, sha1)) {
			fprintf(stderr,
				"lockstep resume: %s is not the plan run %s started with (its text "
				"differs from the one run.json's plan_sha1 %s names; the run's plan is "
				"%s/plan.yaml)\n",
				plan_arg, json_string_value(json_object_get(run, "run_id")), sha1,
				dir);
			return NULL;
		}
		return lst_strdup(plan_arg);
	}
	if (file && s_same_plan(file, sha1))
		return lst_strdup(file);
	plan_path = lst_asprintf("%s/plan.yaml", dir);
	if (!s_same_plan(plan_path, sha1)) {
		fprintf(stderr,
			"lockstep resume: %s is missing or not the plan the run started with "
			"(plan_sha1 %s): give it with --plan FILE\n",
			plan_path, sha1);
		free(plan_path);
		return NULL;
	}
	return plan_path;
}

/* Resume the run in dir with plan and the journal read back; returns the exit status. */
static int s_resume(const char *dir, const lst_plan *plan, json_t *run, json_t *journal,
		    struct lst_coord_opts *opts)
{
	lst_coord *c;
	int rc;

	opts->outdir = dir;
	c = lst_cli_coord_new(plan, opts);
	if (!c)
		return 2;
	rc = lst_coord_resume(c, run, journal);
	if (!opts->quiet && rc != LST_RUN_USAGE)
		lst_cli_print_summary(stdout, dir); /* the whole run's, as `lockstep run` ends */
	if (!opts->quiet && rc != LST_RUN_USAGE)
		fprintf(stderr, "lockstep: %s; results in %s\n",
			rc == LST_RUN_OK	    ? "run complete"
			: rc == LST_RUN_INTERRUPTED ? "interrupted"
						    : "run failed",
			dir);
	lst_coord_destroy(&c);
	return rc;
}

int lst_cmd_resume(int argc, char **argv)
{
	struct lst_coord_opts opts = { 0 };
	struct s_flags fl = { 0 };
	const char *plan_arg, *dir;
	char *plan_path = NULL;
	lst_errlist errs = { 0 };
	json_t *run = NULL, *journal = NULL;
	lst_plan *plan = NULL;
	lst_folder_lock *lock = NULL;
	lst_err err;
	int first, cli, rc = 2;

	lst_cli_line_buffered();
	if ((cli = lst_cli_parse(&lst_cmd_resume_flags, argc, argv, &fl, &first)) >= 0)
		return cli;
	lst_cli_coord_opts(&fl.c, &opts);
	plan_arg = fl.plan;
	if (first != argc - 1) {
		fprintf(stderr, "lockstep resume: %s (see 'lockstep resume --help')\n",
			first == argc ? "which results folder? give one DIR"
				      : "give one folder only");
		return 2;
	}
	dir = argv[first];
	/* before run.json is read: a live run or another resume holds it (and a folder that is
	 * not there is not made) */
	if (access(dir, F_OK)) {
		fprintf(stderr, "lockstep resume: %s: %s\n", dir, strerror(errno));
		goto out;
	}
	if (!(lock = lst_cli_lock_dir("resume", dir)) || !(run = s_load_run(dir)) ||
	    !(plan_path = s_find_plan(dir, run, plan_arg)))
		goto out;
	journal = lst_results_read_journal(dir, &err);
	if (!journal) {
		fprintf(stderr, "lockstep resume: %s\n", err.msg);
		goto out;
	}
	plan = lst_plan_load(plan_path, &errs);
	if (!plan) {
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		goto out;
	}
	rc = s_resume(dir, plan, run, journal, &opts);
out:
	json_decref(run);
	json_decref(journal);
	lst_plan_destroy(&plan);
	free(plan_path);
	lst_folder_lock_release(&lock);
	return rc;
}
