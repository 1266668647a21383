/* SPDX-License-Identifier: Apache-2.0 */
/* Error values: fixed-size messages in caller memory, so failing never allocates. */
#include "lst_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void lst_err_clear(lst_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int lst_err_set(lst_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int lst_err_sys(lst_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, ": %s (%d)", strerror(-code), code);
	return code;
}

void lst_err_prefix(lst_err *err, const char *fmt, ...)
{
	char prefix[256], old[LST_ERR_MAX];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s%s", prefix, old);
}
