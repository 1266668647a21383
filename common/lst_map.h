/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A map from short keys (bytes: a name, a number, an agent index with a path) to a size_t,
 * for the readers of files people write: a plan names its agents, targets and phases and refers
 * to them by name, and with a hundred thousand of them a look-up by scan made reading quadratic.
 *
 * Open addressing with linear probing, grown by doubling, so adding and finding take constant
 * time on average and memory stays proportional to the keys. Keys are copied in; the first value
 * given a key stays (duplicates are what readers report, with the place of the first).
 *
 * An opaque class: lst_map_new, lst_map_destroy. Not thread-safe; out of memory aborts.
 */
#ifndef LST_MAP_H
#define LST_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct lst_map lst_map;

/* An empty map; never NULL (out of memory aborts). */
lst_map *lst_map_new(void);

/* Free the map and its copies of the keys, and NULL *pm; safe on NULL and twice. */
void lst_map_destroy(lst_map **pm);

/*
 * Give key (len bytes, copied) the value value unless it has one. Returns true when it was
 * added; false when the key was there already, with its first value in *first (may be NULL).
 */
bool lst_map_add(lst_map *m, const void *key, size_t len, size_t value, size_t *first);

/* The value of key in *value (may be NULL): true when the key is there. m may be NULL. */
bool lst_map_find(const lst_map *m, const void *key, size_t len, size_t *value);

/* The number of keys. */
size_t lst_map_count(const lst_map *m);

/* The same for a NUL-terminated string key (its bytes without the NUL). */
static inline bool lst_map_add_str(lst_map *m, const char *key, size_t value, size_t *first)
{
	return lst_map_add(m, key, strlen(key), value, first);
}

static inline bool lst_map_find_str(const lst_map *m, const char *key, size_t *value)
{
	return lst_map_find(m, key, strlen(key), value);
}

#endif
