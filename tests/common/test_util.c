/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_util tests: the parsers for what users type (sizes, durations, numbers, booleans) with
 * good and bad inputs and the messages users see, the formatters, lst_mkdir_p, and the size
 * limit of lst_read_file. Expected values are written out by hand (4k = 4096, 1.5s = 1.5e9 ns).
 *
 * Some checks are regression tests for bugs these tests found (octal parsing, read_file limits,
 * mkdir_p on a file and on "").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_time.h"
#include "lst_util.h"
#include "lst_test.h"

static uint64_t s_size(const char *s)
{
	lst_err err;
	uint64_t v = 0;
	int rc = lst_parse_size(s, &v, &err);

	if (rc)
		T_FAIL("lst_parse_size(\"%s\") failed: %s", s, err.msg);
	return v;
}

static void s_size_bad(const char *s, const char *msg)
{
	lst_err err;
	uint64_t v = 12345;

	lst_err_clear(&err);
	T_EQ_INT(lst_parse_size(s, &v, &err), -EINVAL);
	T_EQ_INT(err.code, -EINVAL);
	T_EQ_STR(err.msg, msg);
	T_EQ_U64(v, 12345); /* untouched on error */
}

static void s_parse_size(void)
{
	T_EQ_U64(s_size("0"), 0);
	T_EQ_U64(s_size("4096"), 4096);
	T_EQ_U64(s_size("4k"), 4096);
	T_EQ_U64(s_size("4K"), 4096);
	T_EQ_U64(s_size("4KiB"), 4096);
	T_EQ_U64(s_size("4kb"), 4096);
	T_EQ_U64(s_size("128k"), 131072);
	T_EQ_U64(s_size("1m"), 1048576);
	T_EQ_U64(s_size("1MiB"), 1048576);
	T_EQ_U64(s_size("2g"), 2147483648ull);
	T_EQ_U64(s_size("0.5k"), 512);
	T_EQ_U64(s_size("1.5m"), 1572864);
	T_EQ_U64(s_size("1t"), 1099511627776ull);
	T_EQ_U64(s_size("512b"), 512);
	T_EQ_U64(s_size(" 4 k"), 4096);
	T_EQ_U64(s_size("16384t"), 16384ull << 40);

	s_size_bad("", "'' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_size_bad("-4k", "'-4k' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_size_bad("+4k", "'+4k' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_size_bad("k", "'k' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_size_bad("nan", "'nan' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_size_bad("inf", "'inf' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_size_bad("4x", "'4x': unknown size suffix 'x' (use k, m, g or t)");
	s_size_bad("4p", "'4p': unknown size suffix 'p' (use k, m, g or t)");
	s_size_bad("4kk", "'4kk': unknown size suffix 'kk' (use k, m, g or t)");
	s_size_bad("100.5", "'100.5' is not a whole number of bytes");
	s_size_bad("0.3k", "'0.3k' is not a whole number of bytes");	       /* 307.2 bytes */
	s_size_bad("16777216t", "'16777216t' is not a whole number of bytes"); /* 2^64 */
	{
		lst_err err;
		uint64_t v;

		T_EQ_INT(lst_parse_size(NULL, &v, &err), -EINVAL);
		T_EQ_INT(lst_parse_size("bad", &v, NULL), -EINVAL); /* err may be NULL */
	}
}

static int64_t s_dur(const char *s)
{
	lst_err err;
	int64_t v = 0;

	if (lst_parse_duration(s, &v, &err))
		T_FAIL("lst_parse_duration(\"%s\") failed: %s", s, err.msg);
	return v;
}

static void s_dur_bad(const char *s, const char *msg)
{
	lst_err err;
	int64_t v = -7;

	T_EQ_INT(lst_parse_duration(s, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, msg);
	T_EQ_INT(v, -7);
}

static void s_parse_duration(void)
{
	T_EQ_INT(s_dur("30"), 30 * LST_NS_PER_S);
	T_EQ_INT(s_dur("30s"), 30 * LST_NS_PER_S);
	T_EQ_INT(s_dur("30sec"), 30 * LST_NS_PER_S);
	T_EQ_INT(s_dur("100ms"), 100 * LST_NS_PER_MS);
	T_EQ_INT(s_dur("250us"), 250 * LST_NS_PER_US);
	T_EQ_INT(s_dur("10ns"), 10);
	T_EQ_INT(s_dur("5m"), 300 * LST_NS_PER_S);
	T_EQ_INT(s_dur("5min"), 300 * LST_NS_PER_S);
	T_EQ_INT(s_dur("2h"), 7200 * LST_NS_PER_S);
	T_EQ_INT(s_dur("1d"), 86400 * LST_NS_PER_S);
	T_EQ_INT(s_dur("1.5s"), 1500 * LST_NS_PER_MS);
	T_EQ_INT(s_dur("0.5ms"), 500 * LST_NS_PER_US);
	T_EQ_INT(s_dur("35S"), 35 * LST_NS_PER_S);
	T_EQ_INT(s_dur("0"), 0);
	/* 20 h of write saturation, in ns, is exact */
	T_EQ_INT(s_dur("1200m"), 72000 * LST_NS_PER_S);

	s_dur_bad("", "'' is not a duration (examples: 30s, 100ms, 5m, 2h)");
	s_dur_bad("-1s", "'-1s' is not a duration (examples: 30s, 100ms, 5m, 2h)");
	s_dur_bad("s", "'s' is not a duration (examples: 30s, 100ms, 5m, 2h)");
	s_dur_bad("5x", "'5x': unknown time unit 'x' (use ms, s, m or h)");
	s_dur_bad("5 weeks", "'5 weeks': unknown time unit 'weeks' (use ms, s, m or h)");
	s_dur_bad("1e10h", "'1e10h' is too long");
}

static void s_parse_int(void)
{
	lst_err err;
	int64_t v = 0;

	T_EQ_INT(lst_parse_int("16", 1, 4096, &v, &err), 0);
	T_EQ_INT(v, 16);
	T_EQ_INT(lst_parse_int("0x10", 1, 4096, &v, &err), 0);
	T_EQ_INT(v, 16);
	T_EQ_INT(lst_parse_int(" 7 ", 0, 10, &v, &err), 0);
	T_EQ_INT(v, 7);
	T_EQ_INT(lst_parse_int("-3", -5, 5, &v, &err), 0);
	T_EQ_INT(v, -3);
	T_EQ_INT(lst_parse_int("9223372036854775807", INT64_MIN, INT64_MAX, &v, &err), 0);
	T_EQ_INT(v, INT64_MAX);
	T_EQ_INT(lst_parse_int("-9223372036854775808", INT64_MIN, INT64_MAX, &v, &err), 0);
	T_ASSERT(v == INT64_MIN);
	/* the range is inclusive */
	T_EQ_INT(lst_parse_int("4096", 1, 4096, &v, &err), 0);
	T_EQ_INT(lst_parse_int("1", 1, 4096, &v, &err), 0);

	v = 99;
	T_EQ_INT(lst_parse_int("", 0, 10, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "empty value where a number is expected");
	T_EQ_INT(lst_parse_int(NULL, 0, 10, &v, &err), -EINVAL);
	T_EQ_INT(lst_parse_int("abc", 0, 10, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "'abc' is not a whole number");
	T_EQ_INT(lst_parse_int("1.5", 0, 10, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "'1.5' is not a whole number");
	T_EQ_INT(lst_parse_int("4k", 0, 10000, &v, &err), -EINVAL);
	T_EQ_INT(lst_parse_int("9223372036854775808", INT64_MIN, INT64_MAX, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "'9223372036854775808' is not a whole number");
	T_EQ_INT(lst_parse_int("5000", 1, 4096, &v, &err), -ERANGE);
	T_EQ_STR(err.msg, "5000 is out of range [1, 4096]");
	T_EQ_INT(lst_parse_int("0", 1, 4096, &v, &err), -ERANGE);
	T_EQ_STR(err.msg, "0 is out of range [1, 4096]");
	T_EQ_INT(lst_parse_int("-1", 0, 10, &v, &err), -ERANGE);
	T_EQ_INT(v, 99); /* untouched on every error */

	/* Regression: a leading zero once meant octal ("010" was 8). Users write decimal. */
	T_EQ_INT(lst_parse_int("010", 0, 100, &v, &err), 0);
	T_EQ_INT(v, 10);
	T_EQ_INT(lst_parse_int("08", 0, 100, &v, &err), 0);
	T_EQ_INT(v, 8);
}

static void s_parse_double(void)
{
	lst_err err;
	double v = 0;

	T_EQ_INT(lst_parse_double("1.5", 0, 10, &v, &err), 0);
	T_NEAR(v, 1.5, 0);
	T_EQ_INT(lst_parse_double("1e3", 0, 1e4, &v, &err), 0);
	T_NEAR(v, 1000, 0);
	T_EQ_INT(lst_parse_double(" 2.25 ", 0, 10, &v, &err), 0);
	T_NEAR(v, 2.25, 0);
	T_EQ_INT(lst_parse_double("-0.5", -1, 1, &v, &err), 0);
	T_NEAR(v, -0.5, 0);
	T_EQ_INT(lst_parse_double("10", 0, 10, &v, &err), 0); /* inclusive */

	v = 42;
	T_EQ_INT(lst_parse_double("", 0, 10, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "empty value where a number is expected");
	T_EQ_INT(lst_parse_double("x", 0, 10, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "'x' is not a number");
	T_EQ_INT(lst_parse_double("1.5x", 0, 10, &v, &err), -EINVAL);
	T_EQ_INT(lst_parse_double("nan", 0, 10, &v, &err), -EINVAL);
	T_EQ_STR(err.msg, "'nan' is not a number");
	T_EQ_INT(lst_parse_double("inf", 0, 1e300, &v, &err), -EINVAL);
	T_EQ_INT(lst_parse_double("1e999", 0, 1e300, &v, &err), -EINVAL);
	T_EQ_INT(lst_parse_double("10.5", 0, 10, &v, &err), -ERANGE);
	T_EQ_STR(err.msg, "10.5 is out of range [0, 10]");
	T_NEAR(v, 42, 0);
}

static void s_parse_bool(void)
{
	static const char *yes[] = { "true", "yes", "on", "1", "TRUE", "Yes" };
	static const char *no[] = { "false", "no", "off", "0", "FALSE", "Off" };
	static const char *bad[] = { "", "maybe", "2", "truee", " true", "y" };
	lst_err err;
	bool b;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		T_EQ_INT(lst_parse_bool(yes[i], &b, &err), 0);
		T_ASSERT(b);
		T_EQ_INT(lst_parse_bool(no[i], &b, &err), 0);
		T_ASSERT(!b);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];

		b = true;
		T_EQ_INT(lst_parse_bool(bad[i], &b, &err), -EINVAL);
		snprintf(want, sizeof(want), "'%s' is not a boolean (use true or false)", bad[i]);
		T_EQ_STR(err.msg, want);
		T_ASSERT(b);
	}
	T_EQ_INT(lst_parse_bool(NULL, &b, &err), -EINVAL);
}

static void s_fmt(void)
{
	char buf[64];

	T_EQ_STR(lst_fmt_size(0, buf, sizeof(buf)), "0 B");
	T_EQ_STR(lst_fmt_size(512, buf, sizeof(buf)), "512 B");
	T_EQ_STR(lst_fmt_size(1023, buf, sizeof(buf)), "1023 B");
	T_EQ_STR(lst_fmt_size(1024, buf, sizeof(buf)), "1 KiB");
	T_EQ_STR(lst_fmt_size(1536, buf, sizeof(buf)), "1.5 KiB");
	T_EQ_STR(lst_fmt_size(4096, buf, sizeof(buf)), "4 KiB");
	T_EQ_STR(lst_fmt_size(131072, buf, sizeof(buf)), "128 KiB");
	T_EQ_STR(lst_fmt_size(16 * 1048576, buf, sizeof(buf)), "16 MiB");
	T_EQ_STR(lst_fmt_size(1610612736ull, buf, sizeof(buf)), "1.5 GiB");
	T_EQ_STR(lst_fmt_size(480ull * 1000000000, buf, sizeof(buf)), "447.0 GiB");
	T_EQ_STR(lst_fmt_size(64ull << 40, buf, sizeof(buf)), "64 TiB");
	T_EQ_STR(lst_fmt_size(1ull << 50, buf, sizeof(buf)), "1 PiB");
	T_EQ_STR(lst_fmt_size(UINT64_MAX, buf, sizeof(buf)), "16384 PiB");
	/* the caller's buffer size is respected */
	T_EQ_STR(lst_fmt_size(1536, buf, 4), "1.5");

	T_EQ_STR(lst_fmt_duration(0, buf, sizeof(buf)), "0 us");
	T_EQ_STR(lst_fmt_duration(250 * LST_NS_PER_US, buf, sizeof(buf)), "250 us");
	T_EQ_STR(lst_fmt_duration(100 * LST_NS_PER_MS, buf, sizeof(buf)), "100 ms");
	T_EQ_STR(lst_fmt_duration(1500 * LST_NS_PER_MS, buf, sizeof(buf)), "1.5 s");
	T_EQ_STR(lst_fmt_duration(35 * LST_NS_PER_S, buf, sizeof(buf)), "35.0 s");
	T_EQ_STR(lst_fmt_duration(119 * LST_NS_PER_S, buf, sizeof(buf)), "119.0 s");
	T_EQ_STR(lst_fmt_duration(120 * LST_NS_PER_S, buf, sizeof(buf)), "2 m 00 s");
	T_EQ_STR(lst_fmt_duration(1805 * LST_NS_PER_S, buf, sizeof(buf)), "30 m 05 s");
	T_EQ_STR(lst_fmt_duration(7200 * LST_NS_PER_S, buf, sizeof(buf)), "2 h 00 m");
	T_EQ_STR(lst_fmt_duration(72000 * LST_NS_PER_S + 62 * LST_NS_PER_S, buf, sizeof(buf)),
		 "20 h 01 m");
}

/* A fresh directory under /tmp for the file tests, removed at the end. */
static char s_tmp[64];

static void s_write_n(const char *path, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char c = 'x';

	T_ASSERT(fd >= 0);
	for (size_t i = 0; i < n; i++)
		T_EQ_INT(write(fd, &c, 1), 1);
	close(fd);
}

static bool s_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void s_mkdir_p(void)
{
	char path[256], file[256];

	snprintf(path, sizeof(path), "%s/a/b/c", s_tmp);
	T_EQ_INT(lst_mkdir_p(path), 0);
	T_ASSERT(s_is_dir(path));
	T_EQ_INT(lst_mkdir_p(path), 0); /* exists: fine */
	snprintf(path, sizeof(path), "%s/a//d/", s_tmp);
	T_EQ_INT(lst_mkdir_p(path), 0);
	snprintf(path, sizeof(path), "%s/a/d", s_tmp);
	T_ASSERT(s_is_dir(path));

	/* a file in the way of a parent */
	snprintf(file, sizeof(file), "%s/file", s_tmp);
	s_write_n(file, 1);
	snprintf(path, sizeof(path), "%s/file/sub", s_tmp);
	T_EQ_INT(lst_mkdir_p(path), -ENOTDIR);
	T_EQ_INT(lst_mkdir_p("/"), 0);

	/* Regression: an existing regular file in the way is an error, as with mkdir -p. */
	T_ASSERT(lst_mkdir_p(file) < 0);
	/* Regression: "" once read past its terminator; mkdir("") fails with ENOENT. */
	T_EQ_INT(lst_mkdir_p(""), -ENOENT);
}

static void s_read_file(void)
{
	char path[256];
	char *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/small", s_tmp);
	s_write_n(path, 100);
	T_EQ_INT(lst_read_file(path, 1 << 20, &buf, &len), 0);
	T_EQ_INT(len, 100);
	T_EQ_INT(strlen(buf), 100); /* NUL-terminated */
	free(buf);
	T_EQ_INT(lst_read_file(path, 1 << 20, &buf, NULL), 0); /* len may be NULL */
	free(buf);

	/* larger than one read buffer, under the limit */
	snprintf(path, sizeof(path), "%s/big", s_tmp);
	s_write_n(path, 10000);
	T_EQ_INT(lst_read_file(path, 1 << 20, &buf, &len), 0);
	T_EQ_INT(len, 10000);
	T_EQ_INT(buf[9999], 'x');
	T_EQ_INT(buf[10000], '\0');
	free(buf);
	/* over the limit */
	buf = NULL;
	T_EQ_INT(lst_read_file(path, 5000, &buf, &len), -EFBIG);
	T_ASSERT(buf == NULL);
	T_EQ_INT(lst_read_file(path, 9999, &buf, &len), -EFBIG);

	/* empty file */
	snprintf(path, sizeof(path), "%s/empty", s_tmp);
	s_write_n(path, 0);
	T_EQ_INT(lst_read_file(path, 100, &buf, &len), 0);
	T_EQ_INT(len, 0);
	T_EQ_STR(buf, "");
	free(buf);

	snprintf(path, sizeof(path), "%s/missing", s_tmp);
	T_EQ_INT(lst_read_file(path, 100, &buf, &len), -ENOENT);
	T_EQ_INT(lst_read_file(s_tmp, 100, &buf, &len), -EISDIR);

	/* Regression: the limit holds below the first buffer size, and a file of exactly max
	 * bytes is accepted. */
	snprintf(path, sizeof(path), "%s/small", s_tmp);
	T_EQ_INT(lst_read_file(path, 10, &buf, &len), -EFBIG); /* 100 bytes, max 10 */
	snprintf(path, sizeof(path), "%s/big", s_tmp);
	T_EQ_INT(lst_read_file(path, 10000, &buf, &len), 0);
	T_EQ_INT(len, 10000);
	free(buf);
}

static void s_rm_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_tmp);
	T_EQ_INT(system(cmd), 0);
}

static void s_alloc(void)
{
	char *s = lst_asprintf("%s-%d", "sdb", 3);
	void *p = lst_aligned_alloc(4096, 8192);

	T_EQ_STR(s, "sdb-3");
	T_EQ_INT((uintptr_t)p % 4096, 0);
	free(s);
	free(p);
	s = lst_strdup("x");
	T_EQ_STR(s, "x");
	free(s);
	p = lst_calloc(0, 8); /* zero sizes still return memory the caller frees */
	T_ASSERT(p != NULL);
	free(p);
}

/* sanitize s (a copy) and compare; also the replacement count */
static void s_san(const char *in, const char *want, size_t count)
{
	char buf[256];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", in);
	n = lst_str_sanitize(buf);
	if (n != count)
		T_FAIL("'%s': %zu replacements, want %zu", buf, n, count);
	T_EQ_STR(buf, want);
	T_EQ_INT(lst_str_is_safe(in, strlen(in), NULL), count == 0);
}

static void s_sanitize(void)
{
	size_t bad = 99;

	/* printable ASCII and well-formed UTF-8 in any script pass */
	s_san("host-a.example.com", "host-a.example.com", 0);
	s_san("\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x92\xbe \xc2\xa0",
	      "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x92\xbe \xc2\xa0", 0);
	s_san("", "", 0);
	/* ESC sequences lose their ESC; C0, DEL, newline, tab */
	s_san("a\x1b[2J\x1b]0;owned\x07"
	      "b",
	      "a?[2J?]0;owned?b", 3);
	s_san("line\nagent x lost\r\t\x7f", "line?agent x lost???", 4);
	/* C1 controls as UTF-8 (U+0085 NEL, U+009B CSI), one '?' for the two bytes */
	s_san("x\xc2\x9b"
	      "31mred\xc2\x85y",
	      "x?31mred?y", 2);
	/* raw C1 bytes and other ill-formed UTF-8: stray continuation, truncated, overlong,
	 * surrogate, beyond U+10FFFF */
	s_san("\x9b"
	      "31m",
	      "?31m", 1);
	s_san("a\xe6\x97", "a??", 2);
	s_san("\xc0\xaf", "??", 2);
	s_san("\xe0\x80\xaf", "???", 3);
	s_san("\xed\xa0\x80", "???", 3);
	s_san("\xf4\x90\x80\x80", "????", 4);
	s_san("\xff", "?", 1);
	/* bidi overrides (U+202E) and isolates (U+2066) reorder what a terminal shows */
	s_san("abc\xe2\x80\xaegnp.exe", "abc?gnp.exe", 1);
	s_san("\xe2\x81\xa6x\xe2\x81\xa9", "?x?", 2);
	s_san("\xe2\x80\x94", "\xe2\x80\x94", 0); /* an em dash is fine */

	/* lst_str_is_safe counts len: a NUL inside is found, and where */
	T_ASSERT(!lst_str_is_safe("p\0x", 3, &bad));
	T_EQ_INT(bad, 1);
	T_ASSERT(lst_str_is_safe("p\0x", 1, &bad));
	T_ASSERT(!lst_str_is_safe("ab\xc2\x9b", 4, &bad));
	T_EQ_INT(bad, 2);
	T_ASSERT(!lst_str_is_safe("ab\xc2", 3, &bad)); /* truncated at len */
	T_EQ_INT(bad, 2);
}

int main(void)
{
	snprintf(s_tmp, sizeof(s_tmp), "/tmp/lst_test_util.XXXXXX");
	if (!mkdtemp(s_tmp)) {
		fprintf(stderr, "skip: mkdtemp failed\n");
		return LST_TEST_SKIP;
	}
	s_parse_size();
	s_parse_duration();
	s_parse_int();
	s_parse_double();
	s_parse_bool();
	s_fmt();
	s_alloc();
	s_mkdir_p();
	s_read_file();
	s_rm_tree();
	s_sanitize();
	return 0;
}
