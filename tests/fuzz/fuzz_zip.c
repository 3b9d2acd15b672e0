/* Fuzz target: a trace archive (zip) as replay opens it (rt_open, libzip,
 * a stream per NAME_i.data member), replayed on a small MESI machine with
 * the coherence checker on. Overlapping members, members sharing one
 * deflate stream and archives of many other entries are its regression
 * inputs: each must be refused or read within its size, never hang. */
#include "config.h"
#include "fuzz.h"
#include "memfile.h"
#include "replay/replay_run.h"
#include "replay/replay_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_memfile(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct cpu_model m;
	cpu_model_default(&m);
	m.l1_size = 1024;
	m.l1_assoc = 2;
	m.line_size = 32;
	struct rt_stream *s[4];
	struct err e = {0};
	char *paths[] = {path};
	int n = rt_open(paths, 1, s, 4, &e);
	if (n > 0) {
		struct replay r;
		if (replay_create(&r, &m, s, n, &e) == 0) {
			ms_set_checking(r.ms, 1);
			if (replay_run(&r, &e) == 0 && ms_check_all(r.ms, &e))
				abort(); /* a trace broke a coherence invariant */
			replay_free(&r);
		}
	}
	/* bad input is refused as bad input, never as an internal error */
	if (err_is_set(&e) && e.kind == ERR_INTERNAL)
		abort();
	close(fd);
	return 0;
}
