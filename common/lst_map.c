/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Maps from short keys to a size_t (lst_map.h). Each slot keeps the key's hash (FNV-1a 64), so
 * a probe compares bytes only when the hashes agree and growing never hashes a key again. The
 * table is kept at most 3/4 full, which bounds the length of a probe on average.
 */
#include "lst_map.h"

#include <stdint.h>
#include <stdlib.h>

#include "lst_util.h"

struct s_slot {
	uint64_t hash;
	char *key; /* NULL: empty */
	size_t len;
	size_t value;
};

struct lst_map {
	struct s_slot *slots;
	size_t cap; /* a power of two */
	size_t n;
};

static uint64_t s_hash(const void *key, size_t len)
{
	const unsigned char *b = key;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

lst_map *lst_map_new(void)
{
	lst_map *m = lst_calloc(1, sizeof(*m));

	m->cap = 16;
	m->slots = lst_calloc(m->cap, sizeof(*m->slots));
	return m;
}

void lst_map_destroy(lst_map **pm)
{
	lst_map *m;

	if (!pm || !*pm)
		return;
	m = *pm;
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	free(m);
	*pm = NULL;
}

/* The slot that holds key, or the empty slot where it would go. */
static struct s_slot *s_probe(const lst_map *m, uint64_t hash, const void *key, size_t len)
{
	size_t i = (size_t)hash & (m->cap - 1);

	for (;;) {
		struct s_slot *s = &m->slots[i];

		if (!s->key || (s->hash == hash && s->len == len && !memcmp(s->key, key, len)))
			return s;
		i = (i + 1) & (m->cap - 1);
	}
}

static void s_grow(lst_map *m)
{
	struct s_slot *old = m->slots;
	size_t old_cap = m->cap;

	m->cap *= 2;
	m->slots = lst_calloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*s_probe(m, old[i].hash, old[i].key, old[i].len) = old[i];
	free(old);
}

bool lst_map_add(lst_map *m, const void *key, size_t len, size_t value, size_t *first)
{
	uint64_t hash = s_hash(key, len);
	struct s_slot *s;

	if ((m->n + 1) * 4 > m->cap * 3)
		s_grow(m);
	s = s_probe(m, hash, key, len);
	if (s->key) {
		if (first)
			*first = s->value;
		return false;
	}
	/* one byte more, so a key of zero bytes still marks its slot taken */
	s->key = lst_malloc(len + 1);
	memcpy(s->key, key, len);
	s->key[len] = '\0';
	s->hash = hash;
	s->len = len;
	s->value = value;
	m->n++;
	return true;
}

bool lst_map_find(const lst_map *m, const void *key, size_t len, size_t *value)
{
	const struct s_slot *s;

	if (!m)
		return false;
	s = s_probe(m, s_hash(key, len), key, len);
	if (!s->key)
		return false;
	if (value)
		*value = s->value;
	return true;
}

size_t lst_map_count(const lst_map *m)
{
	return m->n;
}
