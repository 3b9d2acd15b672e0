/* The tests' failing allocator: linked with -Wl,--wrap for malloc, calloc,
 * realloc, free, strdup and strndup, it fails the call numbered
 * alloc_fail_at (counting from 0 in alloc_calls) and tracks every block it
 * handed out, so a test can see what a failure left allocated. */
#ifndef BOUNCE_TESTS_ALLOC_WRAP_H
#define BOUNCE_TESTS_ALLOC_WRAP_H

#include <stddef.h>

extern size_t alloc_live;    /* blocks handed out and not yet freed */
extern long alloc_calls;     /* allocation calls since the test reset it */
extern long alloc_fail_at;   /* the call that fails; -1: none */

#endif
