/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_map tests: keys of any bytes (an empty key, keys with a NUL inside, numbers), the first
 * value of a key staying, growing through many keys with every one still found, and a miss on
 * NULL and on an empty map.
 */
#include <stdint.h>
#include <stdio.h>

#include "lst_map.h"
#include "lst_test.h"

static void s_basics(void)
{
	lst_map *m = lst_map_new();
	size_t v = 99;

	T_ASSERT(!lst_map_find_str(m, "a", &v));
	T_EQ_U64(v, 99);
	T_ASSERT(lst_map_add_str(m, "a", 1, NULL));
	T_ASSERT(lst_map_add_str(m, "", 2, NULL));
	T_ASSERT(lst_map_add(m, "a\0b", 3, 3, NULL));
	T_ASSERT(!lst_map_add_str(m, "a", 4, &v));
	T_EQ_U64(v, 1); /* the first value stays */
	T_ASSERT(lst_map_find_str(m, "", &v));
	T_EQ_U64(v, 2);
	T_ASSERT(lst_map_find(m, "a\0b", 3, &v));
	T_EQ_U64(v, 3);
	T_ASSERT(!lst_map_find(m, "a\0c", 3, NULL));
	T_EQ_U64(lst_map_count(m), 3);
	T_ASSERT(!lst_map_find_str(NULL, "a", NULL));
	lst_map_destroy(&m);
	T_ASSERT(m == NULL);
	lst_map_destroy(&m);
}

static void s_many(void)
{
	lst_map *m = lst_map_new();
	char key[32];
	size_t v;

	for (size_t i = 0; i < 100000; i++) {
		snprintf(key, sizeof(key), "agent-%zu", i);
		T_ASSERT(lst_map_add_str(m, key, i, NULL));
	}
	for (int64_t i = 0; i < 1000; i++)
		T_ASSERT(lst_map_add(m, &i, sizeof(i), (size_t)i, NULL));
	T_EQ_U64(lst_map_count(m), 101000);
	for (size_t i = 0; i < 100000; i++) {
		snprintf(key, sizeof(key), "agent-%zu", i);
		T_ASSERT(lst_map_find_str(m, key, &v));
		T_EQ_U64(v, i);
	}
	for (int64_t i = 0; i < 1000; i++) {
		T_ASSERT(!lst_map_add(m, &i, sizeof(i), 7, &v));
		T_EQ_U64(v, (size_t)i);
	}
	T_ASSERT(!lst_map_find_str(m, "agent-100000", NULL));
	lst_map_destroy(&m);
}

int main(void)
{
	s_basics();
	s_many();
	return 0;
}
