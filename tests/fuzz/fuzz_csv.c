/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the results CSV readers, the parsers of outside input next to the wire
 * decoder: any bytes go to lst_csv_parse() (the strict reader of the results folder's files),
 * which must return an error or a table whose every field, column name and number can be read;
 * and, as a stream, to lst_steady_read() (the loose reader of `lockstep steady`, splitting with
 * lst_csv_next_field), with and without a chosen column. Never a crash, an out-of-bounds read
 * or a leak. Built only with LST_FUZZ=ON and clang; tests/fuzz/fuzz_csv.sh runs it for a
 * bounded time.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_csv.h"
#include "lst_log.h"
#include "lst_steady_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_die(const char *what)
{
	fprintf(stderr, "fuzz_csv: %s\n", what);
	abort();
}

/* Read back everything a parsed table offers; check what must hold. */
static void s_walk(const lst_csv *t)
{
	size_t ncols = lst_csv_ncols(t);
	long last = 0;

	if (!ncols)
		s_die("a table without columns");
	for (size_t c = 0; c < ncols; c++) {
		int found = lst_csv_col(t, lst_csv_colname(t, c));

		if (found < 0 || (size_t)found > c)
			s_die("a column name that lst_csv_col does not find first");
	}
	for (size_t i = 0; i < lst_csv_nrows(t); i++) {
		long line = lst_csv_line(t, i);

		if (line <= last)
			s_die("data rows whose lines do not increase");
		last = line;
		for (size_t c = 0; c < ncols; c++) {
			const char *f = lst_csv_field(t, i, (int)c);
			double v;
			lst_err err;
			int rc = lst_csv_num(t, i, (int)c, &v, &err);

			(void)strlen(f);
			if (!rc && !isfinite(v))
				s_die("a number that is not finite");
			if (rc && !isnan(v))
				s_die("a failed number that is not NAN");
		}
	}
}

static void s_steady(const uint8_t *data, size_t size, long column)
{
	struct lst_steady_series s = { 0 };
	FILE *f = fmemopen((void *)data, size, "r");
	lst_err err;

	if (!f)
		return;
	if (!lst_steady_read(f, "fuzz", column, &s, &err)) {
		for (size_t i = 0; i < s.n; i++)
			if (!isfinite(s.v[i]))
				s_die("lst_steady_read kept a value that is not finite");
	}
	fclose(f);
	lst_steady_series_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	lst_csv *t = NULL;
	lst_err err;

	lst_log_set_level(LST_LOG_ERROR); /* the cut-last-line warning would flood the output */
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (!lst_csv_parse("fuzz.csv", buf, size, &t, &err))
		s_walk(t);
	lst_csv_destroy(&t);
	if (size) {
		s_steady(data, size, 0);
		s_steady(data, size, 1 + data[0] % 4);
	}
	return 0;
}
