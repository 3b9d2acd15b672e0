/* Running another program and collecting its output (see subprocess.h).
 * posix_spawnp rather than fork: the sweep's worker threads call it, and a
 * spawn is safe from any thread where a fork of a threaded process is not. */
#include "config.h"
#include "base/subprocess.h"
#include "base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct sink {
	int fd;
	char *buf;
	size_t len, cap, max;
	int cut;
};

/* 0 while the stream is open, 1 at its end, -1 out of memory. Bytes past
 * the bound are read and dropped so that the child never blocks on us. */
static int drain(struct sink *s)
{
	char tmp[8192];
	ssize_t n = read(s->fd, tmp, sizeof tmp);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : 1;
	if (n == 0)
		return 1;
	size_t keep = (size_t)n;
	if (s->len + keep > s->max) {
		keep = s->max - s->len;
		s->cut = 1;
	}
	if (!keep)
		return 0;
	if (!s->buf || s->len + keep + 1 > s->cap) {
		size_t c = s->cap ? s->cap : 4096;
		while (c < s->len + keep + 1)
			c *= 2;
		char *p = realloc(s->buf, c);
		if (!p)
			return -1;
		s->buf = p;
		s->cap = c;
	}
	memcpy(s->buf + s->len, tmp, keep);
	s->len += keep;
	return 0;
}

static int interrupted(void)
{
	struct err e;
	err_clear(&e);
	return err_poll(&e) != 0;
}

int subprocess_run(char *const argv[], size_t out_max, size_t err_max, struct subprocess_result *r)
{
	memset(r, 0, sizeof *r);
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		int en = errno;
		for (int i = 0; i < 2; i++) {
			if (po[i] >= 0)
				close(po[i]);
			if (pe[i] >= 0)
				close(pe[i]);
		}
		errno = en;
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (rc) {
		close(po[0]);
		close(pe[0]);
		r->exec_errno = rc;
		r->status = 127;
		return 0;
	}
	struct sink s[2] = { { .fd = po[0], .max = out_max }, { .fd = pe[0], .max = err_max } };
	int open_[2] = { 1, 1 }, fail = 0, stop = 0;
	while ((open_[0] || open_[1]) && !fail) {
		struct pollfd p[2];
		nfds_t n = 0;
		int which[2];
		for (int i = 0; i < 2; i++)
			if (open_[i]) {
				p[n] = (struct pollfd){ .fd = s[i].fd, .events = POLLIN };
				which[n++] = i;
			}
		/* A bounded wait, so that a signal that arrives while the
		 * child is quiet is still seen within a fraction of a second. */
		int k = poll(p, n, 200);
		if (interrupted()) {
			stop = 1;
			break;
		}
		if (k <= 0)
			continue;
		for (nfds_t j = 0; j < n; j++) {
			if (!(p[j].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int d = drain(&s[which[j]]);
			if (d < 0)
				fail = 1;
			else if (d > 0)
				open_[which[j]] = 0;
		}
	}
	close(po[0]);
	close(pe[0]);
	if (stop || fail)
		kill(pid, SIGKILL);
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 255;
	for (int i = 0; i < 2; i++)
		if (!s[i].buf && !(s[i].buf = calloc(1, 1)))
			fail = 1;
	if (stop || fail) {
		free(s[0].buf);
		free(s[1].buf);
		errno = stop ? EINTR : ENOMEM;
		return -1;
	}
	s[0].buf[s[0].len] = 0;
	s[1].buf[s[1].len] = 0;
	r->out = s[0].buf;
	r->out_len = s[0].len;
	r->out_cut = s[0].cut;
	r->err = s[1].buf;
	r->err_len = s[1].len;
	r->err_cut = s[1].cut;
	return 0;
}

void subprocess_result_free(struct subprocess_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
}
