/* Errors as values: every failure in the engine is recorded in a struct
 * err with the file, line and column it points at, and travels up to the
 * caller. Nothing in the engine prints or exits. */
#ifndef BOUNCE_ERROR_H
#define BOUNCE_ERROR_H

#include <stdarg.h>
#include <stdio.h>

enum err_kind {
	ERR_NONE = 0,
	ERR_INPUT = 2,    /* bad scenario, assembly, CPU model, file: exit status 2 */
	ERR_INTERNAL = 3, /* out of memory, broken invariant: exit status 3 */
	ERR_INTERRUPTED = 130, /* SIGINT/SIGTERM or an interrupted system call: 130 */
};

/* Called by the program's signal handler (async-signal-safe: it sets one
 * flag). Every long loop of the engine (loading, assembling) polls the
 * flag through err_poll, so a signal is honoured at every stage, not only
 * while simulating. */
void err_request_interrupt(void);

struct err {
	enum err_kind kind;
	char file[512]; /* "" when the error is not about a file */
	long long line, col;  /* 1-based; 0 when unknown (64-bit: a trace may have 2^32 lines and more) */
	char msg[1024];
};

/* Record an input error at file:line:col (file may be NULL). Returns -1 so
 * callers can write `return err_set(...)`. Only the first error is kept. */
int err_set(struct err *e, const char *file, long long line, long long col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int err_internal(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* -1 with an ERR_INTERRUPTED error when a signal asked to stop, else 0. */
int err_poll(struct err *e);
/* A failed system call on `file`: "what: strerror(errnum)", recorded as
 * ERR_INTERRUPTED when errnum is EINTR (a signal), as ERR_INTERNAL when it
 * is a resource of the machine running out (ENOMEM, EMFILE, ENFILE), else
 * as input. */
int err_sys(struct err *e, const char *file, int errnum, const char *what);
#ifdef __clang_analyzer__
/* The static analyzer (make lint) looks at one file at a time: show it that
 * these always return -1, so `return err_set(...)` is seen to end a path. */
#define err_set(...) (err_set(__VA_ARGS__), -1)
#define err_internal(...) (err_internal(__VA_ARGS__), -1)
#define err_sys(...) (err_sys(__VA_ARGS__), -1)
#endif
int err_vset(struct err *e, enum err_kind kind, const char *file, long long line, long long col,
	     const char *fmt, va_list ap);
void err_clear(struct err *e);
static inline int err_is_set(const struct err *e) { return e->kind != ERR_NONE; }

/* "file:line:col: msg" (omitting the parts that are unknown) into buf. */
void err_format(const struct err *e, char *buf, size_t n);
void err_print(const struct err *e, FILE *f);

#endif
