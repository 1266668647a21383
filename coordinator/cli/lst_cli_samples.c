/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A results folder's samples files read frame by frame (lst_cli_samples.h): a window of at most
 * one frame's bound slides over the file, each frame is decoded into one reused message.
 */
#include "lst_cli_samples.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lst_log.h"
#include "lst_msg.h"
#include "lst_util.h"

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
 * Has the cut end of the file at path been warned about already? Marks it when not. A command
 * may read a file more than once (the report's tail attribution reads each twice), and one
 * warning says it all; the names live as long as the process, which reads a few files.
 */
static bool s_warned(const char *path)
{
	static char *names[64];
	static size_t n;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], path))
			return true;
	if (n < sizeof(names) / sizeof(names[0]))
		names[n++] = lst_strdup(path);
	return false;
}

int lst_cli_samples(const char *dir, const char *agent, lst_export_sample_fn fn, void *arg,
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

		if (!s_warned(path))
			lst_log_warn("%s: the last %llu bytes are not a whole frame (%s); ignored",
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
