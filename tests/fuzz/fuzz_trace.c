/* Fuzz target: the trace parser and the replay driver on one in-memory
 * trace (rt_open_buffer), replayed on one core of a small MESI bus machine
 * with the coherence checker on. The first byte picks the cores (1..4): the
 * input is then every core's trace, so cores share lines. Seeded with the
 * replay fixtures (tests/fixtures/replay). */
#include "config.h"
#include "fuzz.h"
#include "replay/replay_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int n = size ? 1 + data[0] % 4 : 1;
	struct cpu_model m;
	cpu_model_default(&m);
	m.l1_size = 1024;
	m.l1_assoc = 2;
	m.line_size = 32;
	m.lat_l1_hit = 1;
	m.lat_writeback = 100;
	m.c2c_clean = data && size > 1 ? data[1] & 1 : 0;
	struct rt_stream *s[4];
	struct err e = {0};
	for (int i = 0; i < n; i++)
		if (!(s[i] = rt_open_buffer("fuzz.trace", (const char *)data, size, &e))) {
			while (i > 0)
				rt_close(s[--i]);
			return 0;
		}
	struct replay r;
	if (replay_create(&r, &m, s, n, &e))
		return 0;
	ms_set_checking(r.ms, 1);
	if (replay_run(&r, &e) == 0 && ms_check_all(r.ms, &e))
		abort();   /* a trace broke a coherence invariant */
	if (err_is_set(&e) && e.kind == ERR_INTERNAL)
		abort();
	replay_free(&r);
	return 0;
}
