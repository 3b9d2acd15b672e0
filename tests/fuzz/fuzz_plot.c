/* Fuzz target: `bounce plot`'s CSV reader (ui/plot/plot_csv.c) on the fuzzer's
 * bytes, with the default columns and again with a baseline: every input
 * is read or refused with a message, within memory of the order of its
 * size, and the series it gives are sorted by x as the chart needs. */
#include "config.h"
#include "fuzz.h"
#include "memfile.h"
#include "base/error.h"
#include "../../ui/plot/plot_int.h"

static void read_once(const char *path, const char *baseline)
{
	struct plot_spec spec = {.csv = path, .baseline = baseline};
	struct plot_data d = {0};
	struct err e = {0};
	if (plot_read(&spec, &d, &e) == 0) {
		for (size_t i = 0; i < d.ns; i++)
			for (size_t j = 1; j < d.s[i].n; j++)
				if (!(d.s[i].x[j - 1] < d.s[i].x[j]))
					abort(); /* two points at one x, or out of order */
	} else if (!e.msg[0]) {
		abort(); /* refused without a message */
	}
	plot_data_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_memfile(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	read_once(path, NULL);
	read_once(path, "base");
	close(fd);
	return 0;
}
