/* Fuzz target: `bounce merge` on the fuzzer's bytes as the parts of one
 * sweep (a form feed separates one part from the next, at most four), run
 * as the command line runs it: each input is merged or refused with exit
 * status 2, never 3 (an internal error) or a crash. */
#include "config.h"
#include "fuzz.h"
#include "memfile.h"
#include "cli/cli.h"

#include <fcntl.h>
#include <signal.h>

volatile sig_atomic_t cli_interrupted; /* the program's entry point owns it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;
	if (!quiet++) { /* merge prints the merged CSV: not what is tested */
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
	}
	char paths[4][64];
	int fds[4], n = 0;
	size_t at = 0;
	while (n < 4 && at <= size) {
		size_t end = at;
		while (end < size && (data[end] != '\f' || n == 3))
			end++;
		if ((fds[n] = fuzz_memfile(data + at, end - at, paths[n], sizeof paths[n])) < 0)
			break;
		n++;
		at = end + 1;
	}
	char *argv[8] = {"bounce", "merge", "-q"};
	int argc = 3;
	for (int i = 0; i < n; i++)
		argv[argc++] = paths[i];
	argv[argc] = NULL;
	int rc = n ? cli_main(argc, argv, NULL) : 0;
	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (rc == 3)
		abort();
	return 0;
}
