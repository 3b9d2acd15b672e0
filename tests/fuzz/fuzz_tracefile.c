/* Fuzz target: a trace file's bytes (src/replay/trace_file.c), plain or
 * gzip, read from a memory file in small pieces. Plain input must come back
 * as it is; gzip input that is accepted must inflate to what zlib's own
 * gzread gives for it (gzread also takes what trace_file refuses: trailing
 * data after the last member, so only acceptance is compared one way). */
#include "config.h"
#include "fuzz.h"
#include "memfile.h"
#include "replay/trace_file.h"

#include <unistd.h>
#include <zlib.h>

/* All of fd's content through tf_read, in pieces of 1000 bytes: its
 * length, or -1 when refused. *out is malloc'd (NULL when out of memory). */
static long read_all(int fd, char **out)
{
	struct trace_file *t = tf_open(fd);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	long got = 0;
	const char *why;
	while (t) {
		if (cap - len < 1000) {
			char *nb = realloc(buf, cap = 2 * cap + 1000);
			if (!nb)
				break;
			buf = nb;
		}
		if ((got = tf_read(t, buf + len, 1000, &why)) <= 0)
			break;
		len += (size_t)got;
	}
	tf_close(t);
	*out = buf;
	return got < 0 || !t ? -1 : (long)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_memfile(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	char *got = NULL;
	long n = read_all(fd, &got);
	int gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	if (!gzip && n >= 0 && ((size_t)n != size || (size && memcmp(got, data, size))))
		abort();   /* a plain file not given back as it is */
	if (gzip && n >= 0) {
		int zfd = fuzz_memfile(data, size, path, sizeof path);
		gzFile z = zfd < 0 ? NULL : gzdopen(zfd, "rb");
		char *want = malloc((size_t)n + 1);
		if (z && want) {
			int k = gzread(z, want, (unsigned)n + 1);
			/* zlib inflates as much, and not one byte more */
			if (k != (int)n || memcmp(want, got, (size_t)n))
				abort();
		}
		free(want);
		if (z)
			gzclose(z);
		else if (zfd >= 0)
			close(zfd);
	}
	free(got);
	return 0;
}
