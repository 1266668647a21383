/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one wording of a disk-safety refusal, "LABEL: refused (RULE): DETAIL; FIX", shared by the
 * policy (lst_dev.c), identity (lst_dev_identity.c) and the in-use walk (lst_dev_inuse.c). It
 * sits below all three, so none of them calls back up into the top file for its messages.
 */

#include "lst_dev_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lst_text.h"

void lst_dev__label(const char *given, const char *real, char *buf, size_t size)
{
	if (!real || !real[0] || !strcmp(given, real))
		lst_copy(buf, size, given);
	else
		snprintf(buf, size, "%s (-> %s)", given, real);
}

int lst_dev__refuse(lst_err *err, int code, const char *given, const char *real, const char *rule,
		    const char *fix, const char *fmt, ...)
{
	char label[2 * PATH_MAX + 8], detail[LST_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	lst_dev__label(given, real, label, sizeof(label));
	return lst_err_set(err, code, "%s: refused (%s): %s; %s", label, rule, detail, fix);
}
