/* Trace files read plain or inflated (see trace_file.h). Input comes in
 * blocks of TF_IN bytes; a plain file is read straight into the caller's
 * buffer once the bytes looked at to tell gzip from plain are handed out. */
#include "config.h"
#include "replay/trace_file.h"
#include "base/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define TF_IN (64u << 10)

enum { TF_UNKNOWN, TF_PLAIN, TF_GZIP };

struct trace_file {
	int fd;
	int mode;
	int eof;          /* the file has no more bytes */
	int in_member;    /* inflating a gzip member (else between members) */
	int zinit;
	z_stream zs;      /* next_in/avail_in: the bytes read, not yet used */
	uint64_t off;
	unsigned char in[TF_IN];
};

struct trace_file *tf_open(int fd)
{
	struct trace_file *t = calloc(1, sizeof *t);
	if (!t) {
		close(fd);
		return NULL;
	}
	t->fd = fd;
	t->zs.next_in = t->in;
	return t;
}

/* At least k bytes unused in t->in, unless the file ends first. */
static int need(struct trace_file *t, unsigned k, const char **why)
{
	while (t->zs.avail_in < k && !t->eof) {
		memmove(t->in, t->zs.next_in, t->zs.avail_in);
		t->zs.next_in = t->in;
		ssize_t got = read(t->fd, t->in + t->zs.avail_in, TF_IN - t->zs.avail_in);
		if (got < 0) {
			*why = errno == EINTR ? NULL : strerror(errno);
			return -1;
		}
		t->eof = got == 0;
		t->off += (uint64_t)got;
		t->zs.avail_in += (unsigned)got;
	}
	return 0;
}

static int gzip_magic(const struct trace_file *t)
{
	return t->zs.avail_in >= 2 && t->zs.next_in[0] == 0x1f && t->zs.next_in[1] == 0x8b;
}

static long read_plain(struct trace_file *t, char *buf, size_t n, const char **why)
{
	if (t->zs.avail_in) {
		size_t k = n < t->zs.avail_in ? n : t->zs.avail_in;
		memcpy(buf, t->zs.next_in, k);
		t->zs.next_in += k;
		t->zs.avail_in -= (unsigned)k;
		return (long)k;
	}
	ssize_t got = read(t->fd, buf, n);
	if (got < 0) {
		*why = errno == EINTR ? NULL : strerror(errno);
		return -1;
	}
	t->off += (uint64_t)got;
	return (long)got;
}

/* A member starts: its magic, then inflate set up for it. */
static int start_member(struct trace_file *t, const char **why)
{
	if (!gzip_magic(t)) {
		*why = "trailing data after the gzip data (expected another gzip member or the end)";
		return -1;
	}
	int rc = t->zinit ? inflateReset(&t->zs) : inflateInit2(&t->zs, 16 + MAX_WBITS);
	if (rc != Z_OK) {
		*why = "out of memory";
		return -1;
	}
	t->zinit = 1;
	t->in_member = 1;
	return 0;
}

long tf_read(struct trace_file *t, char *buf, size_t n, const char **why)
{
	if (t->mode == TF_UNKNOWN) {
		if (need(t, 2, why))
			return -1;
		t->mode = gzip_magic(t) ? TF_GZIP : TF_PLAIN;
	}
	if (t->mode == TF_PLAIN)
		return read_plain(t, buf, n, why);
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	t->zs.next_out = (unsigned char *)buf;
	t->zs.avail_out = (unsigned)n;
	/* Until some output: members of nothing yield none, so a signal is
	 * polled between members too. */
	while (t->zs.avail_out == n) {
		if (err_poll(NULL)) {
			*why = NULL;
			return -1;
		}
		if (!t->in_member) {
			if (need(t, 2, why))
				return -1;
			if (!t->zs.avail_in)
				return 0;
			if (start_member(t, why))
				return -1;
		}
		if (need(t, 1, why))
			return -1;
		int rc = inflate(&t->zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			t->in_member = 0;
		} else if (rc == Z_BUF_ERROR && !t->zs.avail_in && t->eof) {
			*why = "unexpected end of file";
			return -1;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			*why = rc == Z_MEM_ERROR ? "out of memory" : t->zs.msg ? t->zs.msg : "corrupt data";
			return -1;
		}
	}
	return (long)(n - t->zs.avail_out);
}

uint64_t tf_offset(const struct trace_file *t)
{
	return t->off - t->zs.avail_in;
}

void tf_close(struct trace_file *t)
{
	if (!t)
		return;
	if (t->zinit)
		inflateEnd(&t->zs);
	close(t->fd);
	free(t);
}
