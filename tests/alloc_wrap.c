/* The tests' failing allocator (alloc_wrap.h): the wrapped allocation
 * calls, a counter that picks the one to fail, and the set of live blocks. */
#include "config.h"
#include "alloc_wrap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t max);

/* The blocks the wrapped allocator handed out and not yet freed, in an
 * open-addressing set that itself allocates nothing. */
#define LIVE_SLOTS (1u << 21)
static void *live[LIVE_SLOTS];
size_t alloc_live;
long alloc_calls, alloc_fail_at = -1;

static size_t slot_of(const void *p)
{
	size_t h = ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull;
	return (h >> 11) & (LIVE_SLOTS - 1);
}

static void track(void *p)
{
	if (!p)
		return;
	size_t i = slot_of(p);
	while (live[i])
		i = (i + 1) & (LIVE_SLOTS - 1);
	live[i] = p;
	alloc_live++;
}

/* Remove p if the wrapper gave it out (libc may free its own blocks). */
static void untrack(void *p)
{
	if (!p)
		return;
	size_t i = slot_of(p);
	while (live[i] && live[i] != p)
		i = (i + 1) & (LIVE_SLOTS - 1);
	if (!live[i])
		return;
	live[i] = NULL;
	alloc_live--;
	/* re-place the run after the hole */
	for (size_t j = (i + 1) & (LIVE_SLOTS - 1); live[j]; j = (j + 1) & (LIVE_SLOTS - 1)) {
		void *q = live[j];
		live[j] = NULL;
		alloc_live--;
		track(q);
	}
}

static int fails_now(void)
{
	return alloc_calls++ == alloc_fail_at;
}

void *__wrap_malloc(size_t n)
{
	if (fails_now())
		return NULL;
	void *p = __real_malloc(n);
	track(p);
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	if (fails_now())
		return NULL;
	void *p = __real_calloc(n, size);
	track(p);
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	if (fails_now())
		return NULL;
	void *q = __real_realloc(p, n);
	if (q || !n) {
		untrack(p);
		track(q);
	}
	return q;
}

void __wrap_free(void *p)
{
	untrack(p);
	__real_free(p);
}

char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = __wrap_malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

char *__wrap_strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *p = __wrap_malloc(n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

