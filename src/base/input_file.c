/* Input files opened without blocking (see input_file.h). The type is
 * checked with stat() first, so a FIFO is never opened, and again on the
 * descriptor, opened O_NONBLOCK, in case the path changed in between. */
#include "config.h"
#include "base/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ends_in(const char *path, const char *const *ext, size_t n_ext)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < n_ext; i++) {
		size_t k = strlen(ext[i]);
		if (n > k && strcmp(path + n - k, ext[i]) == 0 && path[n - k - 1] != '/')
			return 1;
	}
	return 0;
}

int input_is_workload_name(const char *path)
{
	static const char *const ext[] = { ".s", ".S", ".inc" };
	return ends_in(path, ext, sizeof ext / sizeof ext[0]);
}

int input_is_program_name(const char *path)
{
	static const char *const ext[] = { ".c" };
	return input_is_workload_name(path) || ends_in(path, ext, sizeof ext / sizeof ext[0]);
}

const char *input_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" :
	       S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device" :
	       S_ISSOCK(mode) ? "a socket" : S_ISREG(mode) ? "a regular file" : "a special file";
}

int input_open(const char *path, struct stat *st, int *errnum)
{
	*errnum = 0;
	if (stat(path, st) != 0) {
		*errnum = errno;
		return -1;
	}
	if (!S_ISREG(st->st_mode))
		return -1;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		*errnum = errno;
		return -1;
	}
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		*errnum = S_ISREG(st->st_mode) ? errno : 0;
		close(fd);
		return -1;
	}
	/* Regular files never block; clear the flag for plain reads anyway. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

char *input_read_all(FILE *f, size_t max, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		if (max && n > max)
			break;
		char *bigger = realloc(buf, 2 * cap + 1);
		if (!bigger) {
			free(buf);
			return NULL;
		}
		buf = bigger;
		cap *= 2;
	}
	if (!buf)
		return NULL;
	buf[n] = 0;
	*len = n;
	return buf;
}
