/* Errors as values (see error.h). The first error recorded wins, because the
 * first thing that went wrong is the one the user has to fix. */
#include "config.h"
#include "base/error.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupt_requested;

void err_request_interrupt(void)
{
	interrupt_requested = 1;
}

/* A message is one line: control characters that came in with the input
 * it quotes (a name holding a tab or a newline, a file name) are written as
 * C escapes, so that the line still says where the problem is and nothing
 * after it can pass for another message. Cut, if need be, at n - 1 bytes,
 * never inside an escape. */
static void one_line(char *dst, size_t n, const char *src)
{
	size_t k = 0;
	for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
		char esc[5];
		size_t len = 1;
		esc[0] = (char)*s;
		if (*s == '\n' || *s == '\t' || *s == '\r') {
			esc[0] = '\\';
			esc[1] = *s == '\n' ? 'n' : *s == '\t' ? 't' : 'r';
			len = 2;
		} else if (*s < 0x20 || *s == 0x7f) {
			snprintf(esc, sizeof esc, "\\x%02x", *s);
			len = 4;
		}
		if (k + len >= n)
			break;
		memcpy(dst + k, esc, len);
		k += len;
	}
	dst[k] = 0;
}

int err_vset(struct err *e, enum err_kind kind, const char *file, long long line, long long col,
	     const char *fmt, va_list ap)
{
	if (!e || e->kind != ERR_NONE)
		return -1;
	char raw[sizeof e->msg];
	e->kind = kind;
	one_line(e->file, sizeof e->file, file ? file : "");
	e->line = line;
	/* A message about a line points at a column: the line's start when
	 * nothing narrower is known. */
	e->col = line > 0 && col <= 0 ? 1 : col;
	vsnprintf(raw, sizeof raw, fmt, ap);
	one_line(e->msg, sizeof e->msg, raw);
	return -1;
}

int (err_set)(struct err *e, const char *file, long long line, long long col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, ERR_INPUT, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int (err_internal)(struct err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, ERR_INTERNAL, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int err_poll(struct err *e)
{
	if (!interrupt_requested)
		return 0;
	if (e && e->kind == ERR_NONE) {
		e->kind = ERR_INTERRUPTED;
		snprintf(e->msg, sizeof e->msg, "interrupted; no output written");
	}
	return -1;
}

static int err_resource(struct err *e, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int err_resource(struct err *e, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, ERR_INTERNAL, file, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int (err_sys)(struct err *e, const char *file, int errnum, const char *what)
{
	if (errnum == EINTR) {
		interrupt_requested = 1;
		return err_poll(e);
	}
	/* Out of memory or descriptors is the machine's limit, not bad input. */
	if (errnum == ENOMEM || errnum == EMFILE || errnum == ENFILE)
		return err_resource(e, file, "%s: %s", what, strerror(errnum));
	return (err_set)(e, file, 0, 0, "%s: %s", what, strerror(errnum));
}

void err_clear(struct err *e)
{
	memset(e, 0, sizeof *e);
}

void err_format(const struct err *e, char *buf, size_t n)
{
	if (e->file[0] && e->line > 0)
		snprintf(buf, n, "%s:%lld:%lld: %s", e->file, e->line, e->col, e->msg);
	else if (e->file[0])
		snprintf(buf, n, "%s: %s", e->file, e->msg);
	else
		snprintf(buf, n, "%s", e->msg);
}

void err_print(const struct err *e, FILE *f)
{
	char buf[2048];
	err_format(e, buf, sizeof buf);
	/* Positioned messages start with the position so editors can jump to it. */
	fprintf(f, "%s%s\n", e->file[0] ? "" : "bounce: ", buf);
}
