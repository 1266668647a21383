/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog's query language (docs/catalog.md, "Queries"): `--where 'model=PX05SRB040
 * firmware>=AS0C'`, terms KEY OP VALUE separated by white space, all of which must hold. OP is
 * = != < <= > >= or ~ (VALUE an extended regular expression). A VALUE with white space is
 * written in double quotes. Keys of the devices (model, vendor, serial, firmware, wwn, target)
 * and of the agents (host, kernel, agent) hold when one device or agent matches (!=: when none
 * equals). firmware, kernel and version compare as version strings (AS0C < AS10, 6.1.0-18 <
 * 6.1.0-21), the other keys as text (dates are ISO 8601, so text order is time order).
 *
 * A bad term is an error naming its column in the text: "--where: column 9: 'modle=X': no
 * key modle (keys: ...)".
 */
#ifndef LST_CATWHERE_H
#define LST_CATWHERE_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"

struct lst_cat_run;
typedef struct lst_catwhere lst_catwhere;

/* Parse text (may be empty: everything matches). Returns the query (the caller's,
 * lst_catwhere_destroy) or NULL with err. */
lst_catwhere *lst_catwhere_parse(const char *text, lst_err *err);
/* Free the query *p and set *p to NULL; safe on NULL and twice. */
void lst_catwhere_destroy(lst_catwhere **p);

/* Does run r satisfy every term of w? */
bool lst_catwhere_match(const lst_catwhere *w, const struct lst_cat_run *r);

/* Is key one of the language's keys? */
bool lst_catwhere_is_key(const char *key);

/*
 * The i-th value of key for run r (devices and agents have one each; others only i = 0), ""
 * when the catalog has none, or NULL past the last. Borrowed from r. "date" is the start's day (the first 10 characters of
 * started): the caller passes buf (room 11) for it.
 */
const char *lst_catwhere_value(const struct lst_cat_run *r, const char *key, size_t i, char *buf);

/* Compare two values of key as the language does (<0, 0, >0). */
int lst_catwhere_cmp(const char *key, const char *a, const char *b);

#endif
