/* SPDX-License-Identifier: Apache-2.0 */
/* Utilities: allocation, parsers for user-typed quantities, small file helpers. */
#include "lst_util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_time.h"

static void s_oom(size_t n)
{
	fprintf(stderr, "lockstep: out of memory allocating %zu bytes\n", n);
	abort();
}

void *lst_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		s_oom(n);
	return p;
}

void *lst_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		s_oom(n * size);
	return p;
}

void *lst_realloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		s_oom(n);
	return q;
}

char *lst_strdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		s_oom(strlen(s) + 1);
	return p;
}

char *lst_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		s_oom(0);
	return p;
}

void *lst_aligned_alloc(size_t align, size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, align, n ? n : align))
		s_oom(n);
	return p;
}

/* Split "12.5kib" into a number and a suffix; the number must be finite and >= 0. */
static int s_number(const char *s, double *num, const char **suffix)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*num = strtod(s, &end);
	if (end == s || errno || !isfinite(*num) || *num < 0)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	*suffix = end;
	return 0;
}

int lst_parse_size(const char *s, uint64_t *out, lst_err *err)
{
	static const struct {
		const char *sfx;
		double mult;
	} sfx[] = {
		{ "", 1 },
		{ "b", 1 },
		{ "k", 1024.0 },
		{ "kb", 1024.0 },
		{ "kib", 1024.0 },
		{ "m", 1048576.0 },
		{ "mb", 1048576.0 },
		{ "mib", 1048576.0 },
		{ "g", 1073741824.0 },
		{ "gb", 1073741824.0 },
		{ "gib", 1073741824.0 },
		{ "t", 1099511627776.0 },
		{ "tb", 1099511627776.0 },
		{ "tib", 1099511627776.0 },
	};
	const char *suffix;
	double num;

	if (!s || s_number(s, &num, &suffix))
		return lst_err_set(err, -EINVAL, "'%s' is not a size (examples: 4096, 4k, 1m, 2g)",
				   s ? s : "");
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcasecmp(suffix, sfx[i].sfx))
			continue;
		num *= sfx[i].mult;
		if (num >= 18446744073709551615.0 || num != floor(num))
			return lst_err_set(err, -EINVAL, "'%s' is not a whole number of bytes", s);
		*out = (uint64_t)num;
		return 0;
	}
	return lst_err_set(err, -EINVAL, "'%s': unknown size suffix '%s' (use k, m, g or t)", s,
			   suffix);
}

int lst_parse_duration(const char *s, int64_t *ns, lst_err *err)
{
	static const struct {
		const char *sfx;
		double mult;
	} sfx[] = {
		{ "", 1e9 }, { "s", 1e9 },  { "sec", 1e9 },  { "ms", 1e6 },   { "us", 1e3 },
		{ "ns", 1 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
	};
	const char *suffix;
	double num;

	if (!s || s_number(s, &num, &suffix))
		return lst_err_set(err, -EINVAL,
				   "'%s' is not a duration (examples: 30s, 100ms, 5m, 2h)",
				   s ? s : "");
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcasecmp(suffix, sfx[i].sfx))
			continue;
		num *= sfx[i].mult;
		if (num > 9.2e18)
			return lst_err_set(err, -EINVAL, "'%s' is too long", s);
		*ns = (int64_t)llround(num);
		return 0;
	}
	return lst_err_set(err, -EINVAL, "'%s': unknown time unit '%s' (use ms, s, m or h)", s,
			   suffix);
}

int lst_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out, lst_err *err)
{
	char *end;
	long long v;

	if (!s || !*s)
		return lst_err_set(err, -EINVAL, "empty value where a number is expected");
	/* Decimal, so "010" is ten as users mean it; hex only with an explicit 0x. */
	{
		const char *d = s + (*s == '-' || *s == '+');

		errno = 0;
		v = strtoll(s, &end, d[0] == '0' && (d[1] == 'x' || d[1] == 'X') ? 16 : 10);
	}
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno == ERANGE)
		return lst_err_set(err, -EINVAL, "'%s' is not a whole number", s);
	if (v < lo || v > hi)
		return lst_err_set(err, -ERANGE, "%lld is out of range [%lld, %lld]", v,
				   (long long)lo, (long long)hi);
	*out = v;
	return 0;
}

int lst_parse_double(const char *s, double lo, double hi, double *out, lst_err *err)
{
	char *end;
	double v;

	if (!s || !*s)
		return lst_err_set(err, -EINVAL, "empty value where a number is expected");
	errno = 0;
	v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return lst_err_set(err, -EINVAL, "'%s' is not a number", s);
	if (v < lo || v > hi)
		return lst_err_set(err, -ERANGE, "%g is out of range [%g, %g]", v, lo, hi);
	*out = v;
	return 0;
}

int lst_parse_bool(const char *s, bool *out, lst_err *err)
{
	static const char *yes[] = { "true", "yes", "on", "1" };
	static const char *no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; s && i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return lst_err_set(err, -EINVAL, "'%s' is not a boolean (use true or false)", s ? s : "");
}

const char *lst_fmt_size(uint64_t bytes, char *buf, size_t size)
{
	static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	unsigned u = 0;

	/* Move up a unit before rounding could print "1024.0". */
	while (v >= 1023.95 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	if (v == floor(v))
		snprintf(buf, size, "%.0f %s", v, units[u]);
	else
		snprintf(buf, size, "%.1f %s", v, units[u]);
	return buf;
}

const char *lst_fmt_duration(int64_t ns, char *buf, size_t size)
{
	if (ns < LST_NS_PER_MS)
		snprintf(buf, size, "%.0f us", (double)ns / 1e3);
	else if (ns < LST_NS_PER_S)
		snprintf(buf, size, "%.0f ms", (double)ns / 1e6);
	else if (ns < 120 * LST_NS_PER_S)
		snprintf(buf, size, "%.1f s", (double)ns / 1e9);
	else if (ns < 7200 * LST_NS_PER_S)
		snprintf(buf, size, "%lld m %02lld s", (long long)(ns / LST_NS_PER_S / 60),
			 (long long)(ns / LST_NS_PER_S % 60));
	else
		snprintf(buf, size, "%lld h %02lld m", (long long)(ns / LST_NS_PER_S / 3600),
			 (long long)(ns / LST_NS_PER_S / 60 % 60));
	return buf;
}

int lst_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int lst_mkdir_p(const char *path)
{
	return lst_mkdir_mode_p(path, 0755);
}

int lst_mkdir_mode_p(const char *path, mode_t mode)
{
	char *p;
	int rc = 0;

	if (!path[0])
		return -ENOENT;
	p = lst_strdup(path);
	for (char *s = p + 1;; s++) {
		bool last = *s == '\0';
		struct stat st;

		if (*s != '/' && !last)
			continue;
		*s = '\0';
		if (mkdir(p, mode) && errno != EEXIST) {
			rc = -errno;
			break;
		}
		if (stat(p, &st)) {
			rc = -errno;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc = -ENOTDIR;
			break;
		}
		if (last)
			break;
		*s = '/';
	}
	free(p);
	return rc;
}

/* ---------------------------------------------------------------- strings from outside */

/*
 * The unit at p (left > 0 bytes): its length, and whether it is unsafe (lst_util.h). A byte
 * that does not start a well-formed UTF-8 sequence is a unit of one unsafe byte.
 */
static size_t s_unit(const unsigned char *p, size_t left, bool *unsafe)
{
	unsigned c = p[0], cp;
	size_t n;

	*unsafe = true;
	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c < 0x80) {
		*unsafe = false;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 1;
	if (left < n)
		return 1;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 1;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 1;
	*unsafe = (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
		  (cp >= 0x2066 && cp <= 0x2069);
	return n;
}

size_t lst_str_sanitize(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;
	size_t left = strlen(s), count = 0;

	while (left) {
		bool unsafe;
		size_t n = s_unit(r, left, &unsafe);

		if (unsafe) {
			*w++ = '?';
			count++;
		} else {
			memmove(w, r, n);
			w += n;
		}
		r += n;
		left -= n;
	}
	*w = 0;
	return count;
}

bool lst_str_is_safe(const char *s, size_t len, size_t *bad)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t off = 0; off < len;) {
		bool unsafe;
		size_t n = s_unit(p + off, len - off, &unsafe);

		if (unsafe) {
			if (bad)
				*bad = off;
			return false;
		}
		off += n;
	}
	return true;
}
