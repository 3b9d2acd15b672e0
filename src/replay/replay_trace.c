/* Trace streams: bytes from a trace file (plain or gzip alike), libzip (an
 * archive's members) or memory, cut into lines in a fixed buffer, and each
 * line parsed as a teaching-format or lackey record. A stream's format is
 * decided by its first record and then held. */
#include "config.h"
#include "replay/replay_trace.h"
#include "base/input_file.h"
#include "replay/trace_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#define RT_BUF (256u << 10)

/* An archive opened once for all of its members: opening it per member
 * read its whole directory again each time (1024 members beside 10,000
 * other entries took 36 s and 3.3 GB). Every member is read by the one
 * thread that reads the traces, so the handle is never used at once. */
struct rt_zip {
	zip_t *z;
	int refs;
};
#define RT_MAX_LINE 4096

struct rt_stream {
	char name[512];
	struct trace_file *tf;      /* a file's bytes, inflated if gzip */
	struct rt_zip *zip;         /* a member's archive, shared by its members */
	zip_file_t *zf;
	const char *mem;            /* rt_open_buffer: the whole input */
	size_t mem_len;
	char *buf;
	size_t len, pos;            /* bytes in buf, next unread */
	int eof;
	uint64_t line;
	enum rt_format fmt;
	int has_pending;            /* lackey M: the store after its load */
	struct rt_rec pending;
	int failed;                 /* rt_next_batch met err after its last record */
	struct err err;
	/* How far through its input (rt_input): bytes delivered (an archive
	 * member's or a buffer's, uncompressed) of in_total, 0 when unknown; a
	 * file read through zlib says its own offset in the file instead. */
	uint64_t in_done, in_total;
};

static struct rt_stream *stream_new(const char *name, struct err *e)
{
	struct rt_stream *s = calloc(1, sizeof *s);
	if (s && !(s->buf = malloc(RT_BUF + 1))) {  /* + 1: a last line's NUL */
		free(s);
		s = NULL;
	}
	if (!s) {
		err_internal(e, "replay: out of memory");
		return NULL;
	}
	snprintf(s->name, sizeof s->name, "%s", name);
	return s;
}

void rt_close(struct rt_stream *s)
{
	if (!s)
		return;
	tf_close(s->tf);
	if (s->zf)
		zip_fclose(s->zf);
	if (s->zip && --s->zip->refs == 0) {
		zip_discard(s->zip->z);
		free(s->zip);
	}
	free(s->buf);
	free(s);
}

struct rt_stream *rt_open_buffer(const char *name, const char *data, size_t len, struct err *e)
{
	struct rt_stream *s = stream_new(name, e);
	if (s) {
		s->mem = data;
		s->mem_len = len;
		s->in_total = len;
	}
	return s;
}

void rt_input(const struct rt_stream *s, uint64_t *done, uint64_t *total)
{
	*total = s->in_total;
	*done = s->in_done;
	if (s->tf) /* the compressed file's offset: a gzip trace's uncompressed
		    * size is not known before its end */
		*done = tf_offset(s->tf);
	if (s->eof || *done > *total)
		*done = *total;
}

const char *rt_name(const struct rt_stream *s)
{
	return s->name;
}

uint64_t rt_line(const struct rt_stream *s)
{
	return s->line;
}

enum rt_format rt_format_of(const struct rt_stream *s)
{
	return s->fmt;
}

const char *rt_format_name(enum rt_format f)
{
	return f == RT_TEACHING ? "teaching" : f == RT_LACKEY ? "lackey" : "unknown";
}

/* ---- opening ---- */

static int is_zip(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char m[4] = {0};
	int zip = f && fread(m, 1, 4, f) == 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4;
	if (f)
		fclose(f);
	return zip;
}

/* Member numbers have at most 4 digits: 0..9999. */
#define RT_MAX_MEMBER 10000

/* The core number of a member named ..._N.data, or -1. */
static long member_core(const char *name)
{
	size_t n = strlen(name);
	if (n < 7 || strcmp(name + n - 5, ".data"))
		return -1;
	size_t end = n - 5, i = end;
	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == end || i == 0 || name[i - 1] != '_' || end - i > 4)
		return -1;
	return strtol(name + i, NULL, 10);
}

static zip_t *zip_open_or_say(const char *path, struct err *e)
{
	int zerr = 0;
	zip_t *z = zip_open(path, ZIP_RDONLY, &zerr);
	if (!z) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, zerr);
		if (zerr == ZIP_ER_MEMORY)
			err_internal(e, "%s: out of memory opening the zip archive", path);
		else
			err_set(e, path, 0, 0, "cannot open the zip archive: %s", zip_error_strerror(&ze));
		zip_error_fini(&ze);
	}
	return z;
}

/* The stream of member `index` of archive a, which it shares. */
static struct rt_stream *open_member(const char *path, struct rt_zip *a, zip_uint64_t index, struct err *e)
{
	char name[512];
	snprintf(name, sizeof name, "%s:%s", path, zip_get_name(a->z, index, 0));
	struct rt_stream *s = stream_new(name, e);
	if (!s)
		return NULL;
	s->zip = a;
	a->refs++;
	zip_stat_t st;
	zip_stat_init(&st);
	if (zip_stat_index(a->z, index, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE))
		s->in_total = st.size;
	if (!(s->zf = zip_fopen_index(a->z, index, 0))) {
		err_set(e, path, 0, 0, "cannot read member %s: %s", zip_get_name(a->z, index, 0), zip_strerror(a->z));
		rt_close(s);
		return NULL;
	}
	return s;
}

/* Members NAME_0.data, NAME_1.data, ..., found in one pass over the
 * archive's entries (the first of a number counts). A number missing
 * before a later one is refused: replaying only the traces before the gap
 * would answer for fewer cores than the archive holds. */
static int open_zip(const char *path, struct rt_stream **out, int room, struct err *e)
{
	struct rt_zip *a = calloc(1, sizeof *a);
	zip_int64_t *entry = malloc(RT_MAX_MEMBER * sizeof *entry);
	if (!a || !entry) {
		free(a);
		free(entry);
		return err_internal(e, "replay: out of memory");
	}
	if (!(a->z = zip_open_or_say(path, e))) {
		free(a);
		free(entry);
		return -1;
	}
	a->refs = 1;  /* this function's, dropped at its end */
	for (long k = 0; k < RT_MAX_MEMBER; k++)
		entry[k] = -1;
	zip_int64_t n = zip_get_num_entries(a->z, 0);
	int count = 0, rc = 0;
	for (zip_int64_t i = 0; i < n && !rc; i++) {
		const char *nm = zip_get_name(a->z, (zip_uint64_t)i, 0);
		long core = nm ? member_core(nm) : -1;
		if (core >= 0 && entry[core] < 0)
			entry[core] = i;
		if (!(i & 1023))
			rc = err_poll(e);
	}
	long gap = 0;
	while (gap < RT_MAX_MEMBER && entry[gap] >= 0)
		gap++;
	for (long later = gap + 1; !rc && gap > 0 && later < RT_MAX_MEMBER; later++)
		if (entry[later] >= 0)
			rc = err_set(e, path, 0, 0, "the archive holds %s but no member numbered %ld (expected the "
				     "per-core traces numbered 0, 1, 2, ... without a gap)",
				     zip_get_name(a->z, (zip_uint64_t)entry[later], 0), gap);
	for (long want = 0; !rc && want < RT_MAX_MEMBER && entry[want] >= 0; want++) {
		if (count == room)
			rc = err_set(e, path, 0, 0, "the archive holds more per-core traces than the %d cores left",
				     room);
		else if (!(out[count] = open_member(path, a, (zip_uint64_t)entry[want], e)))
			rc = -1;
		else
			count++;
	}
	free(entry);
	if (!rc && !count)
		rc = err_set(e, path, 0, 0, "the archive holds no member named NAME_0.data");
	if (rc)
		for (int i = 0; i < count; i++) {
			rt_close(out[i]);
			out[i] = NULL;
		}
	if (--a->refs == 0) {
		zip_discard(a->z);
		free(a);
	}
	return rc ? -1 : count;
}

int rt_open(char *const *paths, size_t n_paths, struct rt_stream **out, int max_streams,
	    struct err *e)
{
	int n = 0;
	for (size_t i = 0; i < n_paths; i++) {
		/* A trace is opened twice (its first bytes say zip or not): a
		 * pipe would lose to the first look what the second open reads,
		 * and a FIFO without a writer would block, so anything but a
		 * regular file is refused first, as every input is. */
		struct stat st;
		if (stat(paths[i], &st) != 0) {
			err_set(e, paths[i], 0, 0, "cannot open the trace: %s", strerror(errno));
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			err_set(e, paths[i], 0, 0, "is %s (expected a trace file; a gzip trace is read as it is)",
				input_kind(st.st_mode));
			goto fail;
		}
		if (is_zip(paths[i])) {
			int k = open_zip(paths[i], out + n, max_streams - n, e);
			if (k < 0)
				goto fail;
			n += k;
			continue;
		}
		if (n == max_streams) {
			err_set(e, paths[i], 0, 0, "more traces than the model's %d cores", max_streams);
			goto fail;
		}
		struct rt_stream *s = stream_new(paths[i], e);
		if (!s)
			goto fail;
		int errnum, fd = input_open(paths[i], &st, &errnum);
		if (fd < 0) {
			if (errnum)
				err_sys(e, paths[i], errnum, "cannot open the trace");
			else
				err_set(e, paths[i], 0, 0, "is %s (expected a trace file)", input_kind(st.st_mode));
			rt_close(s);
			goto fail;
		}
		if (!(s->tf = tf_open(fd))) {
			err_internal(e, "replay: out of memory");
			rt_close(s);
			goto fail;
		}
		if (st.st_size > 0)
			s->in_total = (uint64_t)st.st_size;
		out[n++] = s;
	}
	return n;
fail:
	while (n > 0)
		rt_close(out[--n]);
	return -1;
}

/* ---- lines ---- */

/* Called only once no newline is left in the buffer (next_line): data that
 * cannot be read (corrupt compressed data) begins on the next line, after
 * the s->len - s->pos bytes of it already read. */
static int refill(struct rt_stream *s, struct err *e)
{
	memmove(s->buf, s->buf + s->pos, s->len - s->pos);
	s->len -= s->pos;
	s->pos = 0;
	size_t room = RT_BUF - s->len;
	long long line = (long long)s->line + 1, col = (long long)s->len + 1;
	long got;
	/* Polled here, on whichever thread reads, not only per record: a
	 * trace of blank lines or Valgrind messages yields none for hours. */
	if (err_poll(e))
		return -1;
	if (s->tf) {
		const char *why;
		got = tf_read(s->tf, s->buf + s->len, room, &why);
		if (got < 0)
			return err_poll(e) ? -1 :
			       why ? err_set(e, s->name, line, col, "cannot read the trace from here on: %s", why) :
			       err_sys(e, s->name, EINTR, "cannot read the trace");
	} else if (s->zf) {
		got = (long)zip_fread(s->zf, s->buf + s->len, room);
		if (got < 0)
			return err_set(e, s->name, line, col, "cannot read the archive member from here on: %s",
				       zip_file_strerror(s->zf));
	} else {
		got = (long)(s->mem_len < room ? s->mem_len : room);
		memcpy(s->buf + s->len, s->mem, (size_t)got);
		s->mem += got;
		s->mem_len -= (size_t)got;
	}
	if (got == 0)
		s->eof = 1;
	s->in_done += (uint64_t)got;
	s->len += (size_t)got;
	s->buf[s->len] = 0;  /* a sentinel: scanning stops at the end */
	return 0;
}

/* The line's n bytes from start hold no NUL: the parsers stop at one as at
 * the line's end, so what followed it would pass unread. */
static int no_nul(const struct rt_stream *s, const char *start, size_t n, struct err *e)
{
	const char *nul = memchr(start, 0, n);
	if (nul)
		return err_set(e, s->name, (long long)s->line + 1, (int)(nul - start) + 1,
			       "NUL byte in the trace (expected text)");
	return 0;
}

/* The next line, NUL-terminated in place (without its newline); 0 at the end. */
static int next_line(struct rt_stream *s, char **line, struct err *e)
{
	for (;;) {
		char *start = s->buf + s->pos;
		char *nl = memchr(start, '\n', s->len - s->pos);
		if (nl) {
			if (no_nul(s, start, (size_t)(nl - start), e))
				return -1;
			*nl = 0;
			s->pos = (size_t)(nl - s->buf) + 1;
			s->line++;
			*line = start;
			return 1;
		}
		if (s->len - s->pos > RT_MAX_LINE)
			return err_set(e, s->name, (long long)s->line + 1, RT_MAX_LINE + 1, "line longer than %d bytes", RT_MAX_LINE);
		if (s->eof) {
			if (s->pos == s->len)
				return 0;
			/* a last line without its newline */
			if (no_nul(s, start, s->len - s->pos, e))
				return -1;
			s->buf[s->len] = 0;
			*line = s->buf + s->pos;
			s->pos = s->len;
			s->line++;
			return 1;
		}
		if (refill(s, e))
			return -1;
	}
}

/* ---- records ---- */

static const uint8_t hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Hex digits at *p into *v: 0, or -1 when there are none or more than 64 bits. */
static int parse_hex(const char **p, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;
	int n = 0;
	while (q[0] == '0' && q[1] == '0')  /* leading zeros do not count against 64 bits */
		q++;
	for (; hexval[(unsigned char)*q]; q++, n++) {
		if (n == 16)
			return -1;
		x = x << 4 | (uint64_t)(hexval[(unsigned char)*q] - 1);
	}
	if (!n)
		return -1;
	*v = x;
	*p = q;
	return 0;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int only_blank(const char *p)
{
	p = skip_blank(p);
	return !*p || (*p == '\r' && !p[1]);
}

/* `<label> <hex value>`: 0 load, 1 store, 2 cycles of computation. */
static int parse_teaching(struct rt_stream *s, const char *p, struct rt_rec *r, struct err *e)
{
	const char *start = p;
	p = skip_blank(p);
	if (*p < '0' || *p > '2' || (p[1] != ' ' && p[1] != '\t'))
		return err_set(e, s->name, (long long)s->line, (int)(p - start) + 1,
			       "expected a label 0 (load), 1 (store) or 2 (computation)");
	char label = *p;
	p = skip_blank(p + 1);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	const char *at = p;
	uint64_t v;
	if (parse_hex(&p, &v))
		return err_set(e, s->name, (long long)s->line, (int)(at - start) + 1,
			       "expected a hexadecimal value of at most 64 bits");
	if (!only_blank(p))
		return err_set(e, s->name, (long long)s->line, (int)(p - start) + 1, "unexpected text after the value");
	r->kind = label == '0' ? RT_LOAD : label == '1' ? RT_STORE : RT_COMPUTE;
	r->addr = v;
	r->col = (uint16_t)(at - start + 1);
	r->size = 1;
	r->cycles = label == '2' ? v : 0;
	return 0;
}

/* `I  ADDR,SIZE`, ` L ADDR,SIZE`, ` S ...`, ` M ...`. */
static int parse_lackey(struct rt_stream *s, const char *p, struct rt_rec *r, struct err *e)
{
	const char *start = p;
	char op;
	if (p[0] == 'I' && p[1] == ' ')
		op = 'I';
	else if (p[0] == ' ' && (p[1] == 'L' || p[1] == 'S' || p[1] == 'M') && p[2] == ' ')
		op = p[1];
	else
		return err_set(e, s->name, (long long)s->line, 1,
			       "expected a lackey record (\"I  ADDR,SIZE\" or \" L|S|M ADDR,SIZE\")");
	p = skip_blank(p + (op == 'I' ? 1 : 2));
	const char *at = p, *addr_at = p;
	uint64_t addr, size;
	if (parse_hex(&p, &addr))
		return err_set(e, s->name, (long long)s->line, (int)(at - start) + 1,
			       "expected a hexadecimal address of at most 64 bits");
	if (*p != ',')
		return err_set(e, s->name, (long long)s->line, (int)(p - start) + 1, "expected ',' and a size");
	at = ++p;
	for (size = 0; *p >= '0' && *p <= '9' && size <= RT_MAX_SIZE; p++)
		size = size * 10 + (uint64_t)(*p - '0');
	if (p == at || size < 1 || size > RT_MAX_SIZE)
		return err_set(e, s->name, (long long)s->line, (int)(at - start) + 1,
			       "expected a size of 1 to %d bytes", RT_MAX_SIZE);
	if (!only_blank(p))
		return err_set(e, s->name, (long long)s->line, (int)(p - start) + 1, "unexpected text after the size");
	r->addr = addr;
	r->col = (uint16_t)(addr_at - start + 1);
	r->size = (uint16_t)size;
	r->cycles = 0;
	if (op == 'I') {
		/* an instruction executed: one cycle of computation (its fetch is not simulated) */
		r->kind = RT_COMPUTE;
		r->cycles = 1;
	} else {
		r->kind = op == 'S' ? RT_STORE : RT_LOAD;
		if (op == 'M') {
			s->pending = *r;
			s->pending.kind = RT_STORE;
			s->has_pending = 1;
		}
	}
	return 0;
}

/* The fast paths' hex value at q: its end, or NULL when there are no
 * digits or more than 16 (the general path explains, or takes leading
 * zeros). The buffer's NUL sentinel stops a runaway value. */
static inline const char *fast_hex(const char *q, uint64_t *v)
{
	const char *digits = q;
	uint64_t x = 0;
	for (unsigned d; (d = hexval[(unsigned char)*q]); q++)
		x = x << 4 | (d - 1);
	*v = x;
	return q == digits || q - digits > 16 ? NULL : q;
}

/* Common teaching-format lines, `L 0xHEX\n` well inside the buffer (64
 * bytes or more left, so no line is cut and the NUL sentinel stops a
 * runaway value), decoded in one pass into out, at most max: how many.
 * Stops at the first other line, which the general path reads, refilling
 * and explaining errors. (A branch-free decoder of 8 digits at once was
 * measured slower here than this loop over a table.) */
static int fast_teaching(struct rt_stream *s, struct rt_rec *out, int max)
{
	if (s->len - s->pos < 64)
		return 0;
	const char *p = s->buf + s->pos;
	const char *stop = s->buf + s->len - 63;
	uint64_t line = s->line;
	int n = 0;
	while (n < max && p < stop) {
		unsigned label = (unsigned)(p[0] - '0');
		if (label > 2 || p[1] != ' ')
			break;
		const char *q = p + 2;
		if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
			q += 2;
		const char *digits = q;
		uint64_t v;
		if (!(q = fast_hex(q, &v)) || *q != '\n')
			break;
		struct rt_rec *r = &out[n++];
		r->kind = (enum rt_kind)label;   /* 0 RT_LOAD, 1 RT_STORE, 2 RT_COMPUTE */
		r->addr = v;
		r->col = (uint16_t)(digits - p + 1);
		r->size = 1;
		r->cycles = label == 2 ? v : 0;
		r->line = ++line;
		p = q + 1;
	}
	s->pos = (size_t)(p - s->buf);
	s->line = line;
	return n;
}

/* Common lackey lines, `I  HEX,N\n` and ` L|S|M HEX,N\n`, decoded the same
 * way (an `M` into its load and its store, so only with room for both). A
 * pending store (an `M` the general path split) goes first through it. */
static int fast_lackey(struct rt_stream *s, struct rt_rec *out, int max)
{
	if (s->has_pending || s->len - s->pos < 64)
		return 0;
	const char *p = s->buf + s->pos;
	const char *stop = s->buf + s->len - 63;
	uint64_t line = s->line;
	int n = 0;
	while (n + 1 < max && p < stop) {
		char op = p[0] == 'I' ? p[1] == ' ' && p[2] == ' ' ? 'I' : 0
			: p[0] == ' ' && p[2] == ' ' ? p[1] : 0;
		if (op != 'I' && op != 'L' && op != 'S' && op != 'M')
			break;
		uint64_t addr;
		const char *q = fast_hex(p + 3, &addr);
		if (!q || *q != ',')
			break;
		const char *digits = ++q;
		unsigned size = 0;
		for (; *q >= '0' && *q <= '9' && q - digits < 4; q++)
			size = size * 10 + (unsigned)(*q - '0');
		if (*q != '\n' || size < 1 || size > RT_MAX_SIZE)
			break;
		struct rt_rec *r = &out[n++];
		r->kind = op == 'I' ? RT_COMPUTE : op == 'S' ? RT_STORE : RT_LOAD;
		r->addr = addr;
		r->col = 4;
		r->size = (uint16_t)size;
		r->cycles = op == 'I';  /* an instruction: one cycle (its fetch is not simulated) */
		r->line = ++line;
		if (op == 'M') {
			out[n] = *r;
			out[n++].kind = RT_STORE;
		}
		p = q + 1;
	}
	s->pos = (size_t)(p - s->buf);
	s->line = line;
	return n;
}

static int next_record(struct rt_stream *s, struct rt_rec *r, struct err *e)
{
	if (s->fmt == RT_TEACHING && fast_teaching(s, r, 1))
		return 1;
	if (s->has_pending) {
		s->has_pending = 0;
		*r = s->pending;
		return 1;
	}
	for (;;) {
		char *line = NULL;
		int got = next_line(s, &line, e);
		if (got <= 0)
			return got;
		/* Valgrind's own messages, and blank lines, are not records */
		if ((line[0] == '=' && line[1] == '=') || only_blank(line))
			continue;
		if (s->fmt == RT_UNKNOWN) {
			const char *p = skip_blank(line);
			if (line[0] == 'I' || (line[0] == ' ' && (p[0] == 'L' || p[0] == 'S' || p[0] == 'M')))
				s->fmt = RT_LACKEY;
			else if (*p >= '0' && *p <= '9')
				s->fmt = RT_TEACHING;
			else
				return err_set(e, s->name, (long long)s->line, 1,
					       "not a trace record (expected \"LABEL HEX\" or a lackey record)");
		}
		if (s->fmt == RT_TEACHING ? parse_teaching(s, line, r, e) : parse_lackey(s, line, r, e))
			return -1;
		return 1;
	}
}

int rt_next(struct rt_stream *s, struct rt_rec *r, struct err *e)
{
	int got = next_record(s, r, e);
	if (got > 0)
		r->line = s->line;
	return got;
}

int rt_next_batch(struct rt_stream *s, struct rt_rec *out, int max, struct err *e)
{
	if (s->failed) {
		*e = s->err;
		return -1;
	}
	int n = 0;
	while (n < max) {
		if (s->fmt == RT_TEACHING && (n += fast_teaching(s, out + n, max - n)) == max)
			break;
		/* an M needs two places: with one left, the general path takes it */
		if (s->fmt == RT_LACKEY && (n += fast_lackey(s, out + n, max - n)) && n >= max - 1)
			break;
		int got = rt_next(s, &out[n], &s->err);
		if (got < 0) {
			if (!n) {
				*e = s->err;
				return -1;
			}
			s->failed = 1;
			break;
		}
		if (!got)
			break;
		n++;
	}
	return n;
}
