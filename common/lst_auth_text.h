/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text form of a CURVE key: 40 characters of the Z85 alphabet. Plans accept an agent's key
 * either as this text or as a file name, and tell the two apart with lst_auth_is_key_text
 * without linking the protocol library (proto/lst_auth.h, which reads and writes key files,
 * includes this header).
 */
#ifndef LST_AUTH_TEXT_H
#define LST_AUTH_TEXT_H

#include <stdbool.h>

#define LST_KEY_TEXT 41 /* a Z85 CURVE key: 40 characters and a NUL */

/* Is s exactly 40 characters of the Z85 alphabet (a CURVE key as text)? false for NULL. */
bool lst_auth_is_key_text(const char *s);

#endif
