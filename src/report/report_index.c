/* Lookups by name into a report (report.h, rep_index): an object or array
 * of many children is indexed the first time a lookup goes through it, so
 * that a scenario's hundred thousand expectations on as many symbols, or
 * on as many variants, are each found in constant time. The answers are
 * exactly cJSON's searches: the first member of a key, the first element
 * of a "name", elements by position. */
#include "config.h"
#include "report/report.h"
#include "base/name_map.h"

#include <stdlib.h>
#include <string.h>

/* Below this many children a search is as quick as the index. */
#define REP_INDEX_MIN 16

struct node_ix {
	const cJSON *node;        /* NULL: an empty slot */
	const cJSON *last;        /* the node's last child when indexed */
	const cJSON **items;      /* the children in order */
	size_t n;
	struct name_map names;    /* keys (objects), "name"s (arrays) to positions */
};

struct rep_index {
	struct node_ix *slots;    /* open addressing by node address */
	size_t cap, n;
};

struct rep_index *rep_index_new(void)
{
	return calloc(1, sizeof(struct rep_index));
}

static void node_ix_clear(struct node_ix *ix)
{
	free(ix->items);
	name_map_free(&ix->names);
	ix->items = NULL;
	ix->n = 0;
}

void rep_index_free(struct rep_index *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->cap; i++)
		node_ix_clear(&x->slots[i]);
	free(x->slots);
	free(x);
}

static struct node_ix *slot_of(const struct rep_index *x, const cJSON *node)
{
	size_t mask = x->cap - 1;
	size_t h = (size_t)(((uintptr_t)node >> 4) * 0x9e3779b97f4a7c15ull);
	for (size_t i = h & mask;; i = (i + 1) & mask)
		if (!x->slots[i].node || x->slots[i].node == node)
			return &x->slots[i];
}

static int grow(struct rep_index *x)
{
	struct rep_index g = { calloc(x->cap ? 2 * x->cap : 64, sizeof *x->slots), x->cap ? 2 * x->cap : 64, x->n };
	if (!g.slots)
		return -1;
	for (size_t i = 0; i < x->cap; i++)
		if (x->slots[i].node)
			*slot_of(&g, x->slots[i].node) = x->slots[i];
	free(x->slots);
	*x = g;
	return 0;
}

/* The children of `node` in order, and their names: for an object its
 * members' keys up to the first without one (where cJSON's search stops),
 * for an array its elements' "name" strings. The first of a name wins. */
static int build(struct node_ix *ix, const cJSON *node)
{
	size_t n = 0, at;
	const cJSON *c;
	cJSON_ArrayForEach(c, node)
		n++;
	if (!(ix->items = calloc(n ? n : 1, sizeof(const cJSON *))) || name_map_reserve(&ix->names, n))
		return -1;
	int named = cJSON_IsObject(node);
	cJSON_ArrayForEach(c, node) {
		const char *name = c->string;
		if (!named) {
			const cJSON *nm = cJSON_GetObjectItemCaseSensitive(c, "name");
			name = cJSON_IsString(nm) ? nm->valuestring : NULL;
		} else if (!name) {
			named = 0; /* cJSON's search ends here: no later key is found */
		}
		at = ix->n;
		if (name && name_map_add(&ix->names, name, strlen(name), &at) < 0)
			return -1;
		ix->items[ix->n++] = c;
	}
	ix->last = node->child ? node->child->prev : NULL;
	return 0;
}

/* The index of `node`, built on first use; NULL for a small node or when
 * memory is short (the caller then searches). A node that grew since it
 * was indexed (its last child changed) is indexed again. */
static const struct node_ix *index_of(struct rep_index *x, const cJSON *node)
{
	if (!x || !node)
		return NULL;
	if (x->cap) {
		struct node_ix *ix = slot_of(x, node);
		if (ix->node && ix->items && ix->last == (node->child ? node->child->prev : NULL))
			return ix;
	}
	size_t n = 0;
	for (const cJSON *c = node->child; c && n < REP_INDEX_MIN; c = c->next)
		n++;
	if (n < REP_INDEX_MIN || (2 * (x->n + 1) > x->cap && grow(x)))
		return NULL;
	struct node_ix *ix = slot_of(x, node);
	if (ix->node)
		node_ix_clear(ix);
	else
		x->n++;
	ix->node = node;
	if (build(ix, node)) {
		node_ix_clear(ix); /* the slot stays the node's: the next lookup tries again */
		return NULL;
	}
	return ix;
}

const cJSON *rep_index_item(struct rep_index *x, const cJSON *obj, const char *key)
{
	const struct node_ix *ix = cJSON_IsObject(obj) ? index_of(x, obj) : NULL;
	size_t at;
	if (!ix)
		return cJSON_GetObjectItemCaseSensitive(obj, key);
	return name_map_find(&ix->names, key, strlen(key), &at) ? ix->items[at] : NULL;
}

const cJSON *rep_index_element(struct rep_index *x, const cJSON *arr, const char *name, long pos)
{
	const struct node_ix *ix = cJSON_IsArray(arr) ? index_of(x, arr) : NULL;
	size_t at;
	if (!ix) {
		const cJSON *it;
		cJSON_ArrayForEach(it, arr) {
			const cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name");
			if (cJSON_IsString(nm) && strcmp(nm->valuestring, name) == 0)
				return it;
		}
		return pos < 0 ? NULL : cJSON_GetArrayItem(arr, (int)pos);
	}
	if (name_map_find(&ix->names, name, strlen(name), &at))
		return ix->items[at];
	if (pos < 0 || (int)pos < 0)
		return NULL;
	/* as cJSON_GetArrayItem, which takes an int */
	return (size_t)(int)pos < ix->n ? ix->items[(int)pos] : NULL;
}
