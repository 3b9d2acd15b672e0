/* Shared by the fuzz targets and the replay driver: the libFuzzer entry
 * point every target defines, and a helper that turns the fuzzer's bytes
 * (not NUL-terminated, may contain NULs) into the C string the loaders take. */
#ifndef BOUNCE_FUZZ_H
#define BOUNCE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy; the loaders stop at an embedded NUL as a caller's
 * C string would. NULL when out of memory (the target then does nothing). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = 0;
	}
	return s;
}

#endif
