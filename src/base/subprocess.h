/* Running another program (the host's C compiler) and collecting what it
 * prints: both streams are read together so that neither pipe can fill and
 * stall the child, and each is kept up to a bound so that a runaway child
 * cannot exhaust the host's memory. */
#ifndef BOUNCE_SUBPROCESS_H
#define BOUNCE_SUBPROCESS_H

#include <stddef.h>

struct subprocess_result {
	int exec_errno;    /* non-zero: the program could not be started (ENOENT...) */
	int status;        /* exit status; 128+N when killed by signal N */
	char *out, *err;   /* NUL-terminated, malloc'd; cut at the bound */
	size_t out_len, err_len;
	int out_cut, err_cut; /* more was printed than was kept */
};

/* Run argv (argv[0] looked up in PATH) with no standard input. Keeps at
 * most out_max bytes of its standard output and err_max of its standard
 * error. Returns 0 when it ran (whatever its exit status), -1 when out of
 * memory or a pipe could not be made (errno set); an interrupting signal
 * (err_poll) ends the child and returns -1 with errno EINTR. */
int subprocess_run(char *const argv[], size_t out_max, size_t err_max, struct subprocess_result *r);
void subprocess_result_free(struct subprocess_result *r);

#endif
