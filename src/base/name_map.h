/* Names to indices in an open-addressing hash table: the lookup behind
 * every list a scenario may make long (defines, reported symbols, report
 * keys), so that loading, assembling and checking stay linear in inputs
 * of a few hundred thousand names. The map points at the caller's names
 * and does not copy them: they must outlive it. */
#ifndef BOUNCE_NAME_MAP_H
#define BOUNCE_NAME_MAP_H

#include <stddef.h>
#include <stdint.h>

struct name_map_slot {
	const char *key;       /* NULL: empty */
	size_t len;
	uint64_t hash;
	size_t value;
};

struct name_map {
	struct name_map_slot *slots;
	size_t cap;            /* a power of two, or 0 before the first add */
	size_t n;
};

/* An empty map is all zeros; name_map_free makes it so again. */
void name_map_free(struct name_map *m);
/* Room for n names without growing. 0, or -1 out of memory. */
int name_map_reserve(struct name_map *m, size_t n);
/* The value of the `len` bytes at key: 1 and *value, or 0 when absent. */
int name_map_find(const struct name_map *m, const char *key, size_t len, size_t *value);
/* Add key with `value` unless it is present: 1 when added, 0 when it was
 * there already (*value then holds the value it has), -1 out of memory. */
int name_map_add(struct name_map *m, const char *key, size_t len, size_t *value);

#endif
