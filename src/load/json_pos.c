/* JSON with positions. A strict, depth-bounded scan validates the text first
 * (UTF-8, grammar, nesting), so cJSON only ever sees good JSON of bounded
 * depth; then a second walk pairs each cJSON node, in the order cJSON built
 * them, with the offsets of its key and value in the text. */
#include "config.h"
#include "load/json_pos.h"
#include "base/suggest.h"

#include "base/input_file.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct node_pos {
	const cJSON *node;
	int parent;           /* entry index, -1 for the root */
	int index;            /* position in the parent array/object */
	uint32_t key_off;     /* == val_off when the node has no key */
	uint32_t val_off;
};

struct jpos_doc {
	char *name;
	char *text;           /* NUL-terminated copy */
	size_t len;
	cJSON *root;
	uint32_t *line_start; /* offset of the first byte of each line */
	size_t n_lines;
	uint32_t *chunk_chars; /* characters before each JPOS_CHUNK-byte chunk */
	int bom;              /* the text starts with a UTF-8 byte-order mark */
	struct node_pos *nodes; /* document order */
	size_t n_nodes, cap_nodes;
	int *hash;            /* open addressing: node pointer -> entry index, -1 empty */
	size_t hash_size;
};

/* ---- positions ---- */

/* Characters (UTF-8 sequence starts) in text[0, off): a checkpoint every
 * JPOS_CHUNK bytes and a scan of at most that many, so a column costs the
 * same on a line of a million nodes as on a short one. */
#define JPOS_CHUNK 256

static size_t chars_before(const struct jpos_doc *d, size_t off)
{
	size_t c = d->chunk_chars[off / JPOS_CHUNK];
	for (size_t i = off / JPOS_CHUNK * JPOS_CHUNK; i < off; i++)
		c += ((unsigned char)d->text[i] & 0xC0) != 0x80;
	return c;
}

static void off_to_linecol(const struct jpos_doc *d, size_t off, int *line, int *col)
{
	size_t lo = 0, hi = d->n_lines;
	if (off > d->len)
		off = d->len;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (d->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = (int)lo + 1;
	*col = (int)(chars_before(d, off) - chars_before(d, d->line_start[lo])) + 1;
	if (lo == 0 && d->bom && off >= 3)
		(*col)--; /* the byte-order mark is not a column, as in .s files */
}

static int build_lines(struct jpos_doc *d)
{
	size_t n = 1;
	for (size_t i = 0; i < d->len; i++)
		n += d->text[i] == '\n';
	d->line_start = malloc(n * sizeof *d->line_start);
	d->chunk_chars = malloc((d->len / JPOS_CHUNK + 1) * sizeof *d->chunk_chars);
	if (!d->line_start || !d->chunk_chars)
		return -1;
	d->line_start[0] = 0;
	d->n_lines = 1;
	uint32_t chars = 0;
	for (size_t i = 0; i < d->len; i++) {
		if (i % JPOS_CHUNK == 0)
			d->chunk_chars[i / JPOS_CHUNK] = chars;
		chars += ((unsigned char)d->text[i] & 0xC0) != 0x80;
		if (d->text[i] == '\n')
			d->line_start[d->n_lines++] = (uint32_t)(i + 1);
	}
	if (d->len % JPOS_CHUNK == 0)
		d->chunk_chars[d->len / JPOS_CHUNK] = chars;
	return 0;
}

static int errf_at(const struct jpos_doc *d, size_t off, struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int errf_at(const struct jpos_doc *d, size_t off, struct err *e, const char *fmt, ...)
{
	int line, col;
	char msg[900];
	va_list ap;
	off_to_linecol(d, off, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(e, d->name, line, col, "%s", msg);
}

/* ---- strict scan: grammar, UTF-8, depth ---- */

struct scan {
	const struct jpos_doc *d;
	const unsigned char *s;
	size_t n, i;
	int depth;
	struct err *e;
};

static int sc_fail(struct scan *sc, size_t off, const char *what)
{
	char near[16];
	if (off >= sc->n)
		return errf_at(sc->d, off, sc->e, "syntax error: unexpected end of input (expected %s)", what);
	unsigned char c = sc->s[off];
	if (c >= 0x20 && c < 0x7f)
		snprintf(near, sizeof near, "'%c'", c);
	else
		snprintf(near, sizeof near, "byte 0x%02x", c);
	return errf_at(sc->d, off, sc->e, "syntax error: unexpected %s (expected %s)", near, what);
}

static void sc_ws(struct scan *sc)
{
	while (sc->i < sc->n && (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' ||
				 sc->s[sc->i] == '\n' || sc->s[sc->i] == '\r'))
		sc->i++;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* The four hex digits of a \\u escape at `at`, or -1 (error recorded). */
static int sc_hex4(struct scan *sc, size_t at)
{
	int v = 0;
	for (size_t k = 0; k < 4; k++) {
		int h = at + k < sc->n ? hexval(sc->s[at + k]) : -1;
		if (h < 0)
			return sc_fail(sc, at + k, "four hex digits after \\u");
		v = v << 4 | h;
	}
	return v;
}

static int sc_string(struct scan *sc)
{
	size_t start = sc->i++;
	for (;;) {
		if (sc->i >= sc->n)
			return errf_at(sc->d, start, sc->e, "syntax error: unterminated string (expected a closing '\"')");
		unsigned char c = sc->s[sc->i];
		if (c == '"') {
			sc->i++;
			return 0;
		}
		if (c < 0x20)
			return errf_at(sc->d, sc->i, sc->e,
				       "syntax error: control character 0x%02x in string (expected an escape such as \\n)", c);
		if (c != '\\') {
			sc->i++;
			continue;
		}
		if (sc->i + 1 >= sc->n)
			return sc_fail(sc, sc->i + 1, "an escape character");
		c = sc->s[sc->i + 1];
		if (strchr("\"\\/bfnrt", c) && c) {
			sc->i += 2;
		} else if (c == 'u') {
			int cp = sc_hex4(sc, sc->i + 2);
			if (cp < 0)
				return -1;
			if (cp == 0)
				return errf_at(sc->d, sc->i, sc->e,
					       "\\u0000 (a NUL character) in a string (expected text: no name or path can hold NUL)");
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return errf_at(sc->d, sc->i, sc->e,
					       "\\u%04x is the second half of a UTF-16 surrogate pair with no first half (expected \\uD800-\\uDBFF before it)", cp);
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				int lo = sc->i + 7 < sc->n && sc->s[sc->i + 6] == '\\' && sc->s[sc->i + 7] == 'u' ?
					 sc_hex4(sc, sc->i + 8) : -2;
				if (lo == -1)
					return -1;
				if (lo < 0xDC00 || lo > 0xDFFF)
					return errf_at(sc->d, sc->i, sc->e,
						       "\\u%04x is a lone UTF-16 surrogate (expected a \\uDC00-\\uDFFF escape right after it, or the character itself in UTF-8)", cp);
				sc->i += 6;
			}
			sc->i += 6;
		} else {
			return errf_at(sc->d, sc->i, sc->e,
				       "syntax error: invalid escape '\\%c' (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", c);
		}
	}
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int sc_number(struct scan *sc)
{
	size_t st = sc->i;
	if (sc->i < sc->n && sc->s[sc->i] == '-')
		sc->i++;
	if (sc->i >= sc->n || !is_digit(sc->s[sc->i]))
		return sc_fail(sc, sc->i, "a digit");
	if (sc->s[sc->i] == '0') {
		sc->i++;
		if (sc->i < sc->n && is_digit(sc->s[sc->i]))
			return errf_at(sc->d, st, sc->e, "syntax error: number with a leading zero (expected a decimal number without one)");
	} else {
		while (sc->i < sc->n && is_digit(sc->s[sc->i]))
			sc->i++;
	}
	if (sc->i < sc->n && sc->s[sc->i] == '.') {
		sc->i++;
		if (sc->i >= sc->n || !is_digit(sc->s[sc->i]))
			return sc_fail(sc, sc->i, "a digit after '.'");
		while (sc->i < sc->n && is_digit(sc->s[sc->i]))
			sc->i++;
	}
	if (sc->i < sc->n && (sc->s[sc->i] == 'e' || sc->s[sc->i] == 'E')) {
		sc->i++;
		if (sc->i < sc->n && (sc->s[sc->i] == '+' || sc->s[sc->i] == '-'))
			sc->i++;
		if (sc->i >= sc->n || !is_digit(sc->s[sc->i]))
			return sc_fail(sc, sc->i, "a digit in the exponent");
		while (sc->i < sc->n && is_digit(sc->s[sc->i]))
			sc->i++;
	}
	/* cJSON reads at most 63 characters of a number; a longer one would be
	 * cut short and fail later with a message about memory. */
	if (sc->i - st > JPOS_MAX_NUMBER)
		return errf_at(sc->d, st, sc->e, "number of %zu characters is too long (expected at most %d)",
			       sc->i - st, JPOS_MAX_NUMBER);
	return 0;
}

static int sc_value(struct scan *sc);

static int sc_open(struct scan *sc)
{
	if (++sc->depth > JPOS_MAX_DEPTH)
		return errf_at(sc->d, sc->i, sc->e, "nesting deeper than %d levels (expected a flatter document)",
			       JPOS_MAX_DEPTH);
	sc->i++;
	sc_ws(sc);
	return 0;
}

/* The closing bracket of the innermost open container, if it is next. */
static int sc_close(struct scan *sc, unsigned char close)
{
	if (sc->i < sc->n && sc->s[sc->i] == close) {
		sc->i++;
		sc->depth--;
		return 1;
	}
	return 0;
}

/* After a member or element: 1 when a ',' says another follows, 0 when the
 * container closed, -1 (error recorded) on anything else. */
static int sc_next(struct scan *sc, unsigned char close)
{
	if (err_poll(sc->e))
		return -1;  /* a signal: every element is a place to stop */
	sc_ws(sc);
	if (sc->i < sc->n && sc->s[sc->i] == ',') {
		sc->i++;
		sc_ws(sc);
		return 1;
	}
	if (sc_close(sc, close))
		return 0;
	return sc_fail(sc, sc->i, close == '}' ? "',' or '}'" : "',' or ']'");
}

static int sc_object(struct scan *sc)
{
	if (sc_open(sc))
		return -1;
	if (sc_close(sc, '}'))
		return 0;
	for (;;) {
		if (sc->i >= sc->n || sc->s[sc->i] != '"')
			return sc_fail(sc, sc->i, "a string key");
		if (sc_string(sc))
			return -1;
		sc_ws(sc);
		if (sc->i >= sc->n || sc->s[sc->i] != ':')
			return sc_fail(sc, sc->i, "':' after the key");
		sc->i++;
		sc_ws(sc);
		if (sc_value(sc))
			return -1;
		int more = sc_next(sc, '}');
		if (more <= 0)
			return more;
	}
}

static int sc_array(struct scan *sc)
{
	if (sc_open(sc))
		return -1;
	if (sc_close(sc, ']'))
		return 0;
	for (;;) {
		if (sc_value(sc))
			return -1;
		int more = sc_next(sc, ']');
		if (more <= 0)
			return more;
	}
}

static int sc_literal(struct scan *sc, const char *word)
{
	size_t k = strlen(word);
	if (sc->n - sc->i < k || memcmp(sc->s + sc->i, word, k))
		return sc_fail(sc, sc->i, "a value (object, array, string, number, true, false or null)");
	sc->i += k;
	return 0;
}

static int sc_value(struct scan *sc)
{
	if (sc->i >= sc->n)
		return sc_fail(sc, sc->i, "a value");
	switch (sc->s[sc->i]) {
	case '{': return sc_object(sc);
	case '[': return sc_array(sc);
	case '"': return sc_string(sc);
	case 't': return sc_literal(sc, "true");
	case 'f': return sc_literal(sc, "false");
	case 'n': return sc_literal(sc, "null");
	default:
		if (sc->s[sc->i] == '-' || is_digit(sc->s[sc->i]))
			return sc_number(sc);
		return sc_fail(sc, sc->i, "a value (object, array, string, number, true, false or null)");
	}
}

/* Returns the offset of the first byte that is not valid UTF-8 (or is NUL), or len. */
static size_t utf8_check(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = s[i];
		size_t k;
		uint32_t cp;
		if (c == 0)
			return i;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			k = 1, cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			k = 2, cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			k = 3, cp = c & 0x07;
		} else {
			return i;
		}
		for (size_t j = 1; j <= k; j++) {
			if (i + j >= len || (s[i + j] & 0xC0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
		    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += k + 1;
	}
	return len;
}

/* ---- index: pair cJSON nodes with offsets ---- */

static int idx_add(struct jpos_doc *d, const cJSON *node, int parent, int index, size_t key_off,
		   size_t val_off)
{
	if (d->n_nodes == d->cap_nodes) {
		size_t cap = d->cap_nodes ? 2 * d->cap_nodes : 64;
		struct node_pos *p = realloc(d->nodes, cap * sizeof *p);
		if (!p)
			return -1;
		d->nodes = p;
		d->cap_nodes = cap;
	}
	d->nodes[d->n_nodes] = (struct node_pos){ node, parent, index, (uint32_t)key_off, (uint32_t)val_off };
	return (int)d->n_nodes++;
}

static size_t ptr_hash(const void *p, size_t mask)
{
	uintptr_t v = (uintptr_t)p;
	v ^= v >> 17;
	v *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(v >> 7) & mask;
}

static int find_entry(const struct jpos_doc *d, const cJSON *n)
{
	if (!d || !d->hash || !n)
		return -1;
	size_t mask = d->hash_size - 1;
	for (size_t h = ptr_hash(n, mask);; h = (h + 1) & mask) {
		int k = d->hash[h];
		if (k < 0)
			return -1;
		if (d->nodes[k].node == n)
			return k;
	}
}

static int build_hash(struct jpos_doc *d)
{
	size_t size = 16;
	while (size < 2 * d->n_nodes)
		size *= 2;
	d->hash = malloc(size * sizeof *d->hash);
	if (!d->hash)
		return -1;
	d->hash_size = size;
	memset(d->hash, 0xff, size * sizeof *d->hash);
	for (size_t k = 0; k < d->n_nodes; k++) {
		size_t h = ptr_hash(d->nodes[k].node, size - 1);
		while (d->hash[h] >= 0)
			h = (h + 1) & (size - 1);
		d->hash[h] = (int)k;
	}
	return 0;
}

struct walk {
	struct jpos_doc *d;
	size_t i;
};

static void wk_ws(struct walk *w)
{
	const char *s = w->d->text;
	while (w->i < w->d->len && (s[w->i] == ' ' || s[w->i] == '\t' || s[w->i] == '\n' || s[w->i] == '\r'))
		w->i++;
}

/* The text is known to be valid JSON here, so skipping is simple. */
static void wk_skip_string(struct walk *w)
{
	const char *s = w->d->text;
	w->i++;
	while (s[w->i] != '"')
		w->i += s[w->i] == '\\' ? 2 : 1;
	w->i++;
}

static int wk_value(struct walk *w, const cJSON *node, int parent, int index, size_t key_off)
{
	wk_ws(w);
	size_t val_off = w->i;
	int me = idx_add(w->d, node, parent, index, key_off == (size_t)-1 ? val_off : key_off, val_off);
	if (me < 0)
		return -1;
	const char *s = w->d->text;
	char c = s[w->i];
	if (c == '{' || c == '[') {
		w->i++;
		int k = 0;
		for (const cJSON *ch = node->child; ch; ch = ch->next, k++) {
			wk_ws(w);
			size_t ko = (size_t)-1;
			if (c == '{') {
				ko = w->i;
				wk_skip_string(w);
				wk_ws(w);
				w->i++; /* ':' */
			}
			if (wk_value(w, ch, me, k, ko))
				return -1;
			wk_ws(w);
			if (s[w->i] == ',')
				w->i++;
		}
		wk_ws(w);
		w->i++; /* closing bracket */
	} else if (c == '"') {
		wk_skip_string(w);
	} else {
		while (w->i < w->d->len && !strchr(" \t\r\n,]}", s[w->i]))
			w->i++;
	}
	return 0;
}

struct keyref {
	const char *key;
	int entry;
};

static int keyref_cmp(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->entry - y->entry;
}

/* Duplicate keys: cJSON keeps both and lookups find the first, which would
 * silently ignore the second; the user meant one of them. */
static int check_duplicates(struct jpos_doc *d, struct err *e)
{
	struct keyref *refs = NULL;
	size_t cap = 0;
	int ret = 0;
	for (size_t k = 0; k < d->n_nodes && !ret; k++) {
		const cJSON *obj = d->nodes[k].node;
		if (err_poll(e)) {
			ret = -1;
			break;
		}
		if (!cJSON_IsObject(obj) || !obj->child || !obj->child->next)
			continue;
		size_t n = 0;
		for (size_t j = k + 1; j < d->n_nodes; j++) {
			if (d->nodes[j].parent < (int)k)
				break;
			if (d->nodes[j].parent != (int)k)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 32;
				struct keyref *r = realloc(refs, cap * sizeof *r);
				if (!r) {
					free(refs);
					return err_internal(e, "out of memory indexing %s", d->name);
				}
				refs = r;
			}
			refs[n++] = (struct keyref){ d->nodes[j].node->string, (int)j };
		}
		if (n > 1)
			qsort(refs, n, sizeof *refs, keyref_cmp);
		int worst = -1, first = -1;
		for (size_t j = 1; j < n; j++)
			if (!strcmp(refs[j].key, refs[j - 1].key) && (worst < 0 || refs[j].entry < worst)) {
				worst = refs[j].entry;
				first = refs[j - 1].entry;
			}
		if (worst >= 0) {
			int l, c;
			off_to_linecol(d, d->nodes[first].key_off, &l, &c);
			ret = jpos_key_error(d, d->nodes[worst].node, e, "duplicate key \"%s\" (first at line %d, column %d)",
					     d->nodes[worst].node->string, l, c);
		}
	}
	free(refs);
	return ret;
}

/* ---- loading ---- */

void jpos_free(struct jpos_doc *d)
{
	if (!d)
		return;
	cJSON_Delete(d->root);
	free(d->name);
	free(d->text);
	free(d->line_start);
	free(d->chunk_chars);
	free(d->nodes);
	free(d->hash);
	free(d);
}

struct jpos_doc *jpos_parse(const char *name, const char *text, size_t len, struct err *e)
{
	struct jpos_doc *d = calloc(1, sizeof *d);
	if (!d) {
		err_internal(e, "out of memory");
		return NULL;
	}
	d->name = strdup(name ? name : "<json>");
	if (len > JPOS_MAX_BYTES) {
		err_set(e, d->name, 0, 0, "file is larger than %u MiB (expected a smaller JSON document)",
			JPOS_MAX_BYTES >> 20);
		goto fail;
	}
	d->text = malloc(len + 1);
	if (!d->name || !d->text) {
		err_internal(e, "out of memory reading %s", name);
		goto fail;
	}
	memcpy(d->text, text, len);
	d->text[len] = 0;
	d->len = len;
	if (build_lines(d)) {
		err_internal(e, "out of memory reading %s", name);
		goto fail;
	}

	size_t bad = utf8_check((const unsigned char *)d->text, len);
	if (bad < len) {
		errf_at(d, bad, e, "%s byte 0x%02x (expected UTF-8 text)",
			d->text[bad] ? "not UTF-8:" : "NUL", (unsigned char)d->text[bad]);
		goto fail;
	}
	struct scan sc = { d, (const unsigned char *)d->text, len, 0, 0, e };
	if (len >= 3 && !memcmp(d->text, "\xEF\xBB\xBF", 3))
		sc.i = 3, d->bom = 1; /* a byte-order mark is harmless */
	sc_ws(&sc);
	if (sc.i == len) {
		/* at the end, where the document should have begun */
		errf_at(d, len, e, "file is empty (expected a JSON document)");
		goto fail;
	}
	size_t start = sc.i;
	if (sc_value(&sc))
		goto fail;
	sc_ws(&sc);
	if (sc.i < len) {
		sc_fail(&sc, sc.i, "end of input after the document");
		goto fail;
	}

	const char *end = NULL;
	d->root = jpos_cjson_parse(d->text + start, len - start, &end);
	if (!d->root) {
		/* The strict scan passed, so this is cJSON's own limit or memory. */
		size_t off = end ? (size_t)(end - d->text) : start;
		errf_at(d, off, e, "JSON parser failed here (out of memory?)");
		goto fail;
	}
	struct walk w = { d, start };
	if (wk_value(&w, d->root, -1, 0, (size_t)-1) || build_hash(d)) {
		err_internal(e, "out of memory indexing %s", d->name);
		goto fail;
	}
	if (check_duplicates(d, e))
		goto fail;
	return d;
fail:
	jpos_free(d);
	return NULL;
}

static pthread_mutex_t cjson_lock = PTHREAD_MUTEX_INITIALIZER;

cJSON *jpos_cjson_parse(const char *text, size_t len, const char **end)
{
	pthread_mutex_lock(&cjson_lock);
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, end, 0);
	pthread_mutex_unlock(&cjson_lock);
	return root;
}

struct jpos_doc *jpos_load(const char *path, struct err *e)
{
	struct stat st;
	int errnum;
	int fd = input_open(path, &st, &errnum);
	if (fd < 0) {
		if (errnum)
			err_sys(e, path, errnum, "cannot open");
		else
			err_set(e, path, 0, 0, "is %s (expected a JSON file)", input_kind(st.st_mode));
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		err_sys(e, path, errno, "cannot open");
		return NULL;
	}
	/* Stop past the limit: the file may grow meanwhile. */
	size_t len = 0;
	char *buf = input_read_all(f, JPOS_MAX_BYTES, &len);
	int rerr = ferror(f) ? errno : 0;
	fclose(f);
	if (!buf) {
		err_internal(e, "out of memory reading %s", path);
		return NULL;
	}
	if (rerr) {
		free(buf);
		err_sys(e, path, rerr, "cannot read");
		return NULL;
	}
	struct jpos_doc *d = jpos_parse(path, buf, len, e);
	free(buf);
	return d;
}

cJSON *jpos_root(const struct jpos_doc *d) { return d->root; }
const char *jpos_name(const struct jpos_doc *d) { return d->name; }

void jpos_where(const struct jpos_doc *d, const cJSON *n, int *line, int *col)
{
	int k = find_entry(d, n);
	*line = *col = 0;
	if (k >= 0)
		off_to_linecol(d, d->nodes[k].val_off, line, col);
}

void jpos_key_where(const struct jpos_doc *d, const cJSON *n, int *line, int *col)
{
	int k = find_entry(d, n);
	*line = *col = 0;
	if (k >= 0)
		off_to_linecol(d, d->nodes[k].key_off, line, col);
}

static int is_ident(const char *s)
{
	if (!*s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || is_digit((unsigned char)*s)))
			return 0;
	return 1;
}

void jpos_path(const struct jpos_doc *d, const cJSON *n, char *buf, size_t size)
{
	int chain[JPOS_MAX_DEPTH + 2], depth = 0;
	size_t len = 0;
	for (int k = find_entry(d, n); k >= 0 && depth < JPOS_MAX_DEPTH + 2; k = d->nodes[k].parent)
		chain[depth++] = k;
	if (size)
		buf[0] = 0;
	len = (size_t)snprintf(buf, size, "$");
	for (int j = depth - 2; j >= 0 && len < size; j--) {
		const struct node_pos *p = &d->nodes[chain[j]];
		const cJSON *parent = d->nodes[p->parent].node;
		if (cJSON_IsArray(parent))
			len += (size_t)snprintf(buf + len, size - len, "[%d]", p->index);
		else if (is_ident(p->node->string))
			len += (size_t)snprintf(buf + len, size - len, ".%s", p->node->string);
		else
			len += (size_t)snprintf(buf + len, size - len, "[\"%s\"]", p->node->string);
	}
}

static int vpos_error(const struct jpos_doc *d, const cJSON *n, int at_key, struct err *e,
		      const char *fmt, va_list ap)
{
	int line, col, k = find_entry(d, n);
	char path[256], msg[700];
	if (k >= 0)
		off_to_linecol(d, at_key ? d->nodes[k].key_off : d->nodes[k].val_off, &line, &col);
	else
		line = col = 0;
	jpos_path(d, n, path, sizeof path);
	vsnprintf(msg, sizeof msg, fmt, ap);
	return err_set(e, d->name, line, col, "%s: %s", path, msg);
}

int (jpos_error)(const struct jpos_doc *d, const cJSON *n, struct err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vpos_error(d, n, 0, e, fmt, ap);
	va_end(ap);
	return -1;
}

int (jpos_key_error)(const struct jpos_doc *d, const cJSON *n, struct err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vpos_error(d, n, 1, e, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- typed access ---- */

const char *jpos_type_name(const cJSON *n)
{
	if (cJSON_IsObject(n)) return "an object";
	if (cJSON_IsArray(n)) return "an array";
	if (cJSON_IsString(n)) return "a string";
	if (cJSON_IsNumber(n)) return "a number";
	if (cJSON_IsBool(n)) return "a boolean";
	if (cJSON_IsNull(n)) return "null";
	return "nothing";
}

static int value_off(const struct jpos_doc *d, const cJSON *n, size_t *off)
{
	int k = find_entry(d, n);
	if (k < 0)
		return -1;
	*off = d->nodes[k].val_off;
	return 0;
}

/* The text of number node n (at most `max` bytes shown), for messages. */
static int number_text(const struct jpos_doc *d, const cJSON *n, const char **t)
{
	size_t off;
	if (value_off(d, n, &off))
		return 0;
	*t = d->text + off;
	return (int)strspn(*t, "-+0123456789.eE");
}

enum { EXACT_OK, EXACT_FRACTION, EXACT_RANGE };

/* A JSON number's text as an exact integer: digits, fraction and exponent
 * are combined in decimal, never through a double, so 9007199254740993 and
 * 9.007199254740993e15 are that integer and 1e19 is out of int64's range. */
static int exact_int(const char *t, size_t len, int64_t *out)
{
	size_t i = 0;
	int neg = 0;
	if (i < len && t[i] == '-')
		neg = 1, i++;
	char dig[24];          /* significant digits, leading zeros dropped */
	size_t nd = 0;
	long scale = 0;        /* value = dig * 10^scale */
	int more = 0;          /* a non-zero digit beyond the 19 kept */
	for (int frac = 0; i < len && (is_digit((unsigned char)t[i]) || (t[i] == '.' && !frac)); i++) {
		if (t[i] == '.') {
			frac = 1;
			continue;
		}
		if (frac)
			scale--;
		if (nd == 0 && t[i] == '0')
			continue;
		if (nd < 20)
			dig[nd++] = t[i];
		else {
			scale++;   /* a dropped digit still counts its place */
			more |= t[i] != '0';
		}
	}
	if (i < len && (t[i] == 'e' || t[i] == 'E')) {
		int eneg = 0;
		long ex = 0;
		i++;
		if (i < len && (t[i] == '+' || t[i] == '-'))
			eneg = t[i++] == '-';
		for (; i < len && is_digit((unsigned char)t[i]); i++)
			if (ex < 100000)
				ex = ex * 10 + (t[i] - '0');
		scale += eneg ? -ex : ex;
	}
	while (nd && dig[nd - 1] == '0' && !more) {
		nd--;
		scale++;
	}
	if (nd == 0) {
		*out = 0;
		return EXACT_OK;
	}
	/* nd + scale is the count of integer digits: past 19 no int64 fits;
	 * below that, digits beyond the ones kept or a negative scale mean a
	 * fractional part. */
	if ((long)nd + scale > 19)
		return EXACT_RANGE;
	if (scale < 0 || more)
		return EXACT_FRACTION;
	uint64_t v = 0;
	for (size_t k = 0; k < nd; k++)
		v = v * 10 + (uint64_t)(dig[k] - '0');
	for (long k = 0; k < scale; k++) {
		if (v > UINT64_MAX / 10)
			return EXACT_RANGE;
		v *= 10;
	}
	uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (v > lim)
		return EXACT_RANGE;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return EXACT_OK;
}

int jpos_int(const struct jpos_doc *d, const cJSON *n, int64_t min, int64_t max, int64_t *out,
	     struct err *e)
{
	if (!cJSON_IsNumber(n))
		return jpos_error(d, n, e, "expected an integer in %lld..%lld, found %s",
				  (long long)min, (long long)max, jpos_type_name(n));
	const char *t = "";
	int len = number_text(d, n, &t);
	int64_t v = 0;
	int r = len ? exact_int(t, (size_t)len, &v) : EXACT_RANGE;
	if (!len) {
		/* A node built in memory, not read from text: its double is all there is. */
		double x = n->valuedouble;
		r = x != floor(x) ? EXACT_FRACTION : !(fabs(x) < 9.2e18) ? EXACT_RANGE : EXACT_OK;
		v = r == EXACT_OK ? (int64_t)x : 0;
	}
	if (len > 40)
		len = 40;
	if (r == EXACT_FRACTION)
		return jpos_error(d, n, e, "%.*s is not a whole number (expected an integer in %lld..%lld)",
				  len, t, (long long)min, (long long)max);
	if (r == EXACT_RANGE)
		return jpos_error(d, n, e, "%.*s%s is out of range (expected %lld..%lld)",
				  len, t, len == 40 ? "..." : "", (long long)min, (long long)max);
	if (v < min || v > max)
		return jpos_error(d, n, e, "%lld is out of range (expected %lld..%lld)",
				  (long long)v, (long long)min, (long long)max);
	*out = v;
	return 0;
}

int jpos_double(const struct jpos_doc *d, const cJSON *n, double min, double max, double *out,
		struct err *e)
{
	if (!cJSON_IsNumber(n))
		return jpos_error(d, n, e, "expected a number in %g..%g, found %s", min, max,
				  jpos_type_name(n));
	if (!(n->valuedouble >= min && n->valuedouble <= max)) {
		/* The number as written: 1e400 is not "inf". */
		const char *t = "";
		int len = number_text(d, n, &t);
		if (!len)
			return jpos_error(d, n, e, "%g is out of range (expected %g..%g)", n->valuedouble, min, max);
		return jpos_error(d, n, e, "%.*s is out of range (expected %g..%g)", len, t, min, max);
	}
	*out = n->valuedouble;
	return 0;
}

int jpos_bool(const struct jpos_doc *d, const cJSON *n, bool *out, struct err *e)
{
	if (!cJSON_IsBool(n))
		return jpos_error(d, n, e, "expected true or false, found %s", jpos_type_name(n));
	*out = cJSON_IsTrue(n);
	return 0;
}

int jpos_string(const struct jpos_doc *d, const cJSON *n, size_t maxlen, const char **out,
		struct err *e)
{
	if (!cJSON_IsString(n))
		return jpos_error(d, n, e, "expected a string, found %s", jpos_type_name(n));
	size_t len = strlen(n->valuestring);
	if (len == 0)
		return jpos_error(d, n, e, "empty string (expected a non-empty string)");
	if (maxlen && len > maxlen)
		return jpos_error(d, n, e, "string of %zu bytes is too long (expected at most %zu)", len, maxlen);
	/* Every string read this way is text bounce prints again (names and
	 * descriptions in the summary, in JUnit XML, which forbids most of
	 * these, and in Markdown; file names in messages): a control
	 * character there would move a terminal's cursor or break the XML. */
	for (const unsigned char *p = (const unsigned char *)n->valuestring; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return jpos_error(d, n, e, "control character U+%04X in the string (expected printable text)", *p);
	*out = n->valuestring;
	return 0;
}

int jpos_object(const struct jpos_doc *d, const cJSON *n, struct err *e)
{
	if (!cJSON_IsObject(n))
		return jpos_error(d, n, e, "expected an object, found %s", jpos_type_name(n));
	return 0;
}

int jpos_array(const struct jpos_doc *d, const cJSON *n, struct err *e)
{
	if (!cJSON_IsArray(n))
		return jpos_error(d, n, e, "expected an array, found %s", jpos_type_name(n));
	return 0;
}

const char *jpos_suggest(const char *s, const char *const *cands)
{
	struct suggest g;
	suggest_init(&g, s);
	for (; *cands; cands++)
		suggest_offer(&g, *cands);
	return suggest_best(&g);
}

int jpos_check_keys(const struct jpos_doc *d, const cJSON *obj, const char *const *allowed,
		    struct err *e)
{
	for (const cJSON *ch = obj->child; ch; ch = ch->next) {
		const char *const *a;
		for (a = allowed; *a && strcmp(*a, ch->string); a++)
			;
		if (*a)
			continue;
		const char *hint = jpos_suggest(ch->string, allowed);
		/* Every key, or as many as fit and an ellipsis: a CPU model's
		 * 35 keys take 430 bytes, and a list cut short without one (as
		 * at 400 bytes once) hides required keys from the reader. */
		char list[600];
		size_t len = 0;
		list[0] = 0;
		for (a = allowed; *a; a++) {
			const char *sep = a == allowed ? "" : ", ";
			if (len + strlen(sep) + strlen(*a) + sizeof ", ..." > sizeof list) {
				snprintf(list + len, sizeof list - len, ", ...");
				break;
			}
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", sep, *a);
		}
		if (hint)
			return jpos_key_error(d, ch, e, "unknown key \"%s\" (did you mean \"%s\"?)", ch->string, hint);
		return jpos_key_error(d, ch, e, "unknown key \"%s\" (expected one of %s)", ch->string, list);
	}
	return 0;
}

void jpos_alternatives(const char *const *names, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (const char *const *p = names; *p && len < n; p++)
		len += (size_t)snprintf(buf + len, n - len, "%s\"%s\"", p == names ? "" : " or ", *p);
}
