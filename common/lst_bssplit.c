/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block-size mixes: fio's bssplit text to struct lst_bssplit and back.
 *
 * A list is SIZE/PCT entries joined by ':' ("4k/70:64k/25:1m/5"); alone it serves both
 * directions, "READS,WRITES" gives each its own and an empty side means that direction uses
 * bs. "" and "none" mean no mix. Sizes are multiples of 512 within LST_BS_MIN..LST_BS_MAX,
 * listed once per direction; shares are whole percents (0..100) adding to exactly 100. We are
 * stricter than fio, which lets an entry leave out its share: a mix that does not say its
 * shares is easy to misread, so every entry states one. Formatting writes sizes with the
 * largest binary suffix that divides them (k, m) and collapses equal directions to one list,
 * so format(parse(x)) parses back to an equal struct.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lst_mix.h"
#include "lst_util.h"
#include "lst_workload.h"

/* Longest text one entry may take ("16384k/100"), with room to spare. */
#define S_ENTRY_MAX 64

/* Parse one "SIZE/PCT" entry of len bytes at s into *e. */
static int s_parse_entry(struct lst_bs_share *e, const char *s, size_t len, lst_err *err)
{
	char buf[S_ENTRY_MAX], *slash;
	uint64_t bs;
	lst_err perr;

	if (len == 0)
		return lst_err_set(err, -EINVAL, "an empty entry (write SIZE/PCT, e.g. 4k/70)");
	if (len >= sizeof(buf))
		return lst_err_set(err, -EINVAL, "entry '%.*s...' is too long", 16, s);
	memcpy(buf, s, len);
	buf[len] = '\0';
	slash = strchr(buf, '/');
	if (!slash)
		return lst_err_set(err, -EINVAL,
				   "entry '%s' has no share (write SIZE/PCT, e.g. 4k/70)", buf);
	*slash = '\0';
	if (lst_parse_size(buf, &bs, &perr))
		return lst_err_set(err, -EINVAL, "%s", perr.msg);
	if (bs < LST_BS_MIN || bs > LST_BS_MAX)
		return lst_err_set(err, -ERANGE, "size %s is outside 512..16m", buf);
	if (bs % 512)
		return lst_err_set(err, -EINVAL, "size %s is not a multiple of 512 bytes", buf);
	if (lst_parse_int(slash + 1, 0, 100, &e->pct, &perr))
		return lst_err_set(err, -EINVAL, "share '%s' of %s is not a percent 0..100",
				   slash + 1, buf);
	e->bs = (int64_t)bs;
	return 0;
}

/* Parse one direction's list (len bytes at s) into e[], *n entries. */
static int s_parse_list(struct lst_bs_share *e, int64_t *n, const char *s, size_t len, lst_err *err)
{
	int64_t sum = 0;
	size_t i = 0;

	*n = 0;
	while (i <= len) {
		size_t j = i;
		int rc;

		while (j < len && s[j] != ':')
			j++;
		if (*n == LST_BSSPLIT_MAX)
			return lst_err_set(err, -EINVAL, "more than %d sizes in one direction",
					   LST_BSSPLIT_MAX);
		rc = s_parse_entry(&e[*n], s + i, j - i, err);
		if (rc)
			return rc;
		for (int64_t k = 0; k < *n; k++)
			if (e[k].bs == e[*n].bs)
				return lst_err_set(err, -EINVAL, "size %lld is listed twice",
						   (long long)e[k].bs);
		sum += e[*n].pct;
		(*n)++;
		i = j + 1;
	}
	if (sum != 100)
		return lst_err_set(err, -EINVAL, "shares add to %lld, not 100", (long long)sum);
	return 0;
}

int lst_bssplit_parse(struct lst_bssplit *b, const char *text, lst_err *err)
{
	const char *comma;
	size_t len;
	int rc;

	memset(b, 0, sizeof(*b));
	if (!text)
		return lst_err_set(err, -EINVAL, "no value");
	len = strlen(text);
	if (len == 0 || !strcmp(text, "none"))
		return 0;
	comma = strchr(text, ',');
	if (!comma) {
		rc = s_parse_list(b->e[0], &b->n[0], text, len, err);
		if (!rc) {
			b->n[1] = b->n[0];
			memcpy(b->e[1], b->e[0], sizeof(b->e[0]));
		}
	} else if (strchr(comma + 1, ',')) {
		rc = lst_err_set(err, -EINVAL, "more than one ',' (write READS,WRITES)");
	} else if (comma == text && !comma[1]) {
		rc = lst_err_set(err, -EINVAL, "',' alone gives no sizes (write none)");
	} else {
		rc = 0;
		if (comma > text)
			rc = s_parse_list(b->e[0], &b->n[0], text, (size_t)(comma - text), err);
		if (!rc && comma[1])
			rc = s_parse_list(b->e[1], &b->n[1], comma + 1, strlen(comma + 1), err);
	}
	if (rc)
		memset(b, 0, sizeof(*b));
	return rc;
}

/* Append one direction's list to buf at *at (bounded by size). */
static void s_format_list(const struct lst_bs_share *e, int64_t n, char *buf, size_t size,
			  size_t *at)
{
	for (int64_t i = 0; i < n; i++) {
		int64_t bs = e[i].bs;
		const char *sfx = "";
		int w;

		if (bs % (1024 * 1024) == 0) {
			bs /= 1024 * 1024;
			sfx = "m";
		} else if (bs % 1024 == 0) {
			bs /= 1024;
			sfx = "k";
		}
		w = snprintf(buf + *at, *at < size ? size - *at : 0, "%s%lld%s/%lld", i ? ":" : "",
			     (long long)bs, sfx, (long long)e[i].pct);
		if (w > 0)
			*at += (size_t)w;
	}
}

static int s_list_equal(const struct lst_bssplit *b)
{
	return b->n[0] == b->n[1] &&
	       !memcmp(b->e[0], b->e[1], (size_t)b->n[0] * sizeof(b->e[0][0]));
}

const char *lst_bssplit_format(const struct lst_bssplit *b, char *buf, size_t size)
{
	size_t at = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!b->n[0] && !b->n[1]) {
		snprintf(buf, size, "none");
		return buf;
	}
	s_format_list(b->e[0], b->n[0], buf, size, &at);
	if (s_list_equal(b))
		return buf;
	if (at < size - 1)
		buf[at] = ',';
	at++;
	if (at < size)
		buf[at] = '\0';
	s_format_list(b->e[1], b->n[1], buf, size, &at);
	return buf;
}

static int s_opt_parse(void *val, const char *text, lst_err *err)
{
	return lst_bssplit_parse(val, text, err);
}

static const char *s_opt_format(const void *val, char *buf, size_t size)
{
	return lst_bssplit_format(val, buf, size);
}

const struct lst_opt_ops lst_bssplit_opt_ops = {
	.size = sizeof(struct lst_bssplit),
	.parse = s_opt_parse,
	.format = s_opt_format,
	.range = "none|BS/PCT:BS/PCT...[,BS/PCT...]",
};
