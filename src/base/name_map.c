/* The name map (name_map.h): FNV-1a hashes, linear probing, at most half
 * full, so a lookup compares the bytes of about one name. */
#include "config.h"
#include "base/name_map.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

void name_map_free(struct name_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* The slot holding key, or the empty one where it would go. */
static struct name_map_slot *probe(const struct name_map *m, const char *key, size_t len, uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct name_map_slot *s = &m->slots[i];
		if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

int name_map_reserve(struct name_map *m, size_t n)
{
	size_t cap = 16;
	while (cap / 2 < n) {
		if (cap > SIZE_MAX / 4 / sizeof *m->slots)
			return -1;
		cap *= 2;
	}
	if (cap <= m->cap)
		return 0;
	struct name_map grown = { calloc(cap, sizeof *m->slots), cap, m->n };
	if (!grown.slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*probe(&grown, m->slots[i].key, m->slots[i].len, m->slots[i].hash) = m->slots[i];
	free(m->slots);
	*m = grown;
	return 0;
}

int name_map_find(const struct name_map *m, const char *key, size_t len, size_t *value)
{
	if (!m->n)
		return 0;
	const struct name_map_slot *s = probe(m, key, len, hash_bytes(key, len));
	if (!s->key)
		return 0;
	*value = s->value;
	return 1;
}

int name_map_add(struct name_map *m, const char *key, size_t len, size_t *value)
{
	if (name_map_reserve(m, m->n + 1))
		return -1;
	uint64_t h = hash_bytes(key, len);
	struct name_map_slot *s = probe(m, key, len, h);
	if (s->key) {
		*value = s->value;
		return 0;
	}
	*s = (struct name_map_slot){ key, len, h, *value };
	m->n++;
	return 1;
}
