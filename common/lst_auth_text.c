/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CURVE keys as text (lst_auth_text.h): the Z85 alphabet of ZeroMQ's RFC 32, checked by hand so
 * that nothing here needs libzmq.
 */
#include "lst_auth_text.h"

#include <string.h>

static const char s_z85[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    ".-:+=^!/*?&<>()[]{}@%$#";

bool lst_auth_is_key_text(const char *s)
{
	if (!s || strlen(s) != LST_KEY_TEXT - 1)
		return false;
	for (size_t i = 0; i < LST_KEY_TEXT - 1; i++)
		if (!strchr(s_z85, s[i]))
			return false;
	return true;
}
