/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Error values with context.
 *
 * Functions that can fail for reasons outside the program (a plan, a device, a peer) return a
 * negative errno and fill a caller-owned lst_err with a readable message. Callers add context in
 * front as the error travels up ("agent b: ", "plan.yaml:12:7: "), and the code that knows the
 * operation prints it once. Messages follow one shape: what was being done, on what, and why:
 * `open("/dev/sdb") failed: Device or resource busy (-16)`.
 */
#ifndef LST_ERR_H
#define LST_ERR_H

#include <stddef.h>

#define LST_ERR_MAX 1024

typedef struct lst_err {
	int code;	       /* negative errno, 0 when no error */
	char msg[LST_ERR_MAX]; /* human-readable, no trailing newline */
} lst_err;

/* Clear an error value. */
void lst_err_clear(lst_err *err);

/*
 * Set code and message (printf-style). Returns code, so callers can write
 * `return lst_err_set(err, -EINVAL, "bs must be >= 512");`. err may be NULL.
 */
int lst_err_set(lst_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Like lst_err_set for a failed system call: appends ": <strerror> (<code>)". code is -errno.
 */
int lst_err_sys(lst_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Put context in front of the message: "agent b: " + old message. err may be NULL. */
void lst_err_prefix(lst_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
