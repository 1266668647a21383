/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small utilities: allocation that aborts on out-of-memory, and the parsers for the quantities
 * users type (sizes, durations, percentages) shared by flags, configs and plans.
 */
#ifndef LST_UTIL_H
#define LST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lst_err.h"
#include "lst_file.h" /* lst_read_file, which lives with the rest of lst_file */

/* Allocation: out of memory aborts with a message (sizes from outside are checked first). */
void *lst_malloc(size_t n);
void *lst_calloc(size_t n, size_t size);
void *lst_realloc(void *p, size_t n);
char *lst_strdup(const char *s);
char *lst_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Aligned allocation for O_DIRECT buffers; free with free(). */
void *lst_aligned_alloc(size_t align, size_t n);

/*
 * Parse a byte size: "4096", "4k", "4K", "4KiB", "128k", "1m", "1MiB", "2g", "0.5k", "1t".
 * Suffixes are binary (k = 1024), as in fio. Returns 0 or -EINVAL with err saying why.
 */
int lst_parse_size(const char *s, uint64_t *out, lst_err *err);

/*
 * Parse a duration: "30" (seconds), "30s", "100ms", "250us", "5m", "2h", "1.5s".
 * Returns 0 or -EINVAL with err saying why.
 */
int lst_parse_duration(const char *s, int64_t *ns, lst_err *err);

/* Parse an integer in [lo, hi]: decimal ("16", "010" is ten) or hex with 0x ("0x10").
 * Returns 0 or -EINVAL / -ERANGE with err. */
int lst_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out, lst_err *err);

/* Parse a floating-point number in [lo, hi]. */
int lst_parse_double(const char *s, double lo, double hi, double *out, lst_err *err);

/* Parse a boolean: true/false, yes/no, on/off, 1/0. */
int lst_parse_bool(const char *s, bool *out, lst_err *err);

/* Format a size for humans ("4 KiB", "1.5 GiB") into buf. */
const char *lst_fmt_size(uint64_t bytes, char *buf, size_t size);

/* Format a duration for humans ("1.5 s", "250 ms", "62 m 00 s", "3 h 05 m") into buf. */
const char *lst_fmt_duration(int64_t ns, char *buf, size_t size);

/* Write all of buf to fd, retrying short writes and EINTR. Returns 0 or -errno. */
int lst_write_all(int fd, const void *buf, size_t len);

/* Create a directory and its parents (mode 0755), like mkdir -p. Returns 0, or -errno
 * (-ENOTDIR when a part exists and is not a directory, -ENOENT for ""). */
int lst_mkdir_p(const char *path);

/* The same with the mode of each directory it makes (0750 for a folder others may not read). */
int lst_mkdir_mode_p(const char *path, mode_t mode);

/*
 * Strings from outside (an agent's WELCOME, ERROR and DONE texts, identities, plan names and
 * paths) are never printed raw: a terminal obeys escape sequences, and a newline forges a log
 * line. "Unsafe" here is, in a string meant to be read as UTF-8:
 *   - every C0 control byte 0x00..0x1f (tab and newline too: these fields are one line) and
 *     DEL 0x7f; ESC 0x1b among them, so an escape sequence loses its power;
 *   - the UTF-8 encodings of the C1 controls U+0080..U+009F (U+009B is a one-character CSI);
 *   - the bidirectional overrides and isolates U+202A..U+202E and U+2066..U+2069, which make a
 *     terminal show text in another order than it is;
 *   - any byte that does not start a well-formed UTF-8 sequence (a stray 0x9b is a C1 CSI on
 *     an 8-bit terminal), including overlong forms and surrogates.
 * Everything else, printable ASCII and well-formed UTF-8 (names in any script), passes.
 */

/*
 * Replace, in place, each unsafe unit of the NUL-terminated s (one byte, or one whole UTF-8
 * sequence) with a single '?'. The string never grows. Returns the number of replacements.
 */
size_t lst_str_sanitize(char *s);

/*
 * Is s[0..len) free of unsafe units? len counts, so a NUL byte inside it is found (a plan's
 * "p\0x"). On false, *bad (may be NULL) is the offset of the first unsafe unit.
 */
bool lst_str_is_safe(const char *s, size_t len, size_t *bad);

#endif
