/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep export fio|hdr DIR [-o OUT]`: a results folder in the file shapes other tools read.
 *
 * The export itself is the presentation layer's (lst_export.h); this command gives it the one
 * thing that layer may not do, decoding the samples files with the wire codec, and reads each
 * one frame by frame so that memory stays one frame's bound however long the run was.
 */
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lst_cli.h"
#include "lst_export.h"
#include "lst_log.h"
#include "lst_msg.h"
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

/* A samples file being read: a window of at most one frame's bound over it. */
struct s_frames {
	FILE *f;
	uint8_t *buf; /* LST_MSG_MAX_BYTES */
	size_t pos, have;
	uint64_t at; /* the file offset of buf[0] */
	bool eof;
};

/* Keep the unread bytes and fill the window up to its bound (or the end of the file). */
static int s_fill(struct s_frames *fr)
{
	size_t got;

	memmove(fr->buf, fr->buf + fr->pos, fr->have - fr->pos);
	fr->at += fr->pos;
	fr->have -= fr->pos;
	fr->pos = 0;
	got = fread(fr->buf + fr->have, 1, LST_MSG_MAX_BYTES - fr->have, fr->f);
	fr->have += got;
	if (ferror(fr->f))
		return -EIO;
	fr->eof = feof(fr->f);
	return 0;
}

/* The length of the next whole frame into *flen: 0, 1 at the end of the file, or -EBADMSG
 * with err when the bytes left do not scan as a frame (one cut short at the end of the file). */
static int s_next(struct s_frames *fr, size_t *flen, lst_err *err)
{
	int rc;

	if (fr->pos == fr->have && fr->eof)
		return 1;
	if (!lst_msg_frame_len(fr->buf + fr->pos, fr->have - fr->pos, flen, err))
		return 0;
	if (fr->eof || (fr->pos == 0 && fr->have == LST_MSG_MAX_BYTES))
		return -EBADMSG; /* no more bytes would make it a frame */
	if ((rc = s_fill(fr)))
		return lst_err_sys(err, rc, "read failed");
	if (fr->pos == fr->have && fr->eof)
		return 1;
	return lst_msg_frame_len(fr->buf, fr->have, flen, err) ? -EBADMSG : 0;
}

/*
 * lst_export_samples_fn: dir/samples/AGENT.msgpack frame by frame, each SAMPLE to fn. Bytes at
 * the end that are not a whole frame (a write cut short when the coordinator stopped: see
 * docs/results.md) are left out with a warning, never dropped unseen.
 */
static int s_samples(const char *dir, const char *agent, lst_export_sample_fn fn, void *arg,
		     lst_err *err)
{
	char *path = lst_asprintf("%s/samples/%s.msgpack", dir, agent);
	struct s_frames fr = { .f = fopen(path, "rb") };
	lst_msg *m = NULL;
	size_t flen;
	int rc;

	if (!fr.f) {
		rc = lst_err_sys(err, -errno, "%s", path);
		goto out_path;
	}
	fr.buf = lst_malloc(LST_MSG_MAX_BYTES);
	m = lst_msg_new(LST_MSG_SAMPLE);
	while (!(rc = s_next(&fr, &flen, err))) {
		const struct lst_msg_sample *sm = &m->u.sample;

		if ((rc = lst_msg_decode_into(m, fr.buf + fr.pos, flen, err))) {
			lst_err_prefix(err, "%s: frame at byte %llu: ", path,
				       (unsigned long long)(fr.at + fr.pos));
			goto out;
		}
		fr.pos += flen;
		if (m->type != LST_MSG_SAMPLE)
			continue;
		rc = fn(arg,
			&(struct lst_export_sample){ .phase = sm->phase,
						     .point = sm->point,
						     .s = &sm->s,
						     .nparts = sm->nparts,
						     .parts = sm->parts },
			err);
		if (rc)
			goto out;
	}
	if (rc == -EBADMSG) { /* said, so that bytes that do not scan are never dropped unseen */
		struct stat st;
		uint64_t size = fstat(fileno(fr.f), &st) ? 0 : (uint64_t)st.st_size;

		lst_log_warn("export: %s: the last %llu bytes are not a whole frame (%s); ignored",
			     path, (unsigned long long)(size - fr.at - fr.pos), err->msg);
	} else if (rc < 0) {
		lst_err_prefix(err, "%s: ", path);
		goto out;
	}
	rc = 0;
out:
	lst_msg_destroy(&m);
	free(fr.buf);
	fclose(fr.f);
out_path:
	free(path);
	return rc;
}

/* `export FORMAT DIR [-o OUT]`: OUT defaults to DIR/FORMAT. */
static int s_export(const char *format, const char *dir, const char *out)
{
	char *def = out ? NULL : lst_asprintf("%s/%s", dir, format);
	size_t n;
	lst_err err;
	int rc = lst_export_write(strcmp(format, "fio") ? LST_EXPORT_HDR : LST_EXPORT_FIO, dir,
				  out ?: def, s_samples, &n, &err);

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
