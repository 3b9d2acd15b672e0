/* C workloads compiled by the host compiler (see c_compile.h). The cache
 * key is the compiler's identity, the whole command line and the
 * preprocessed source, which holds every header the file includes, so an
 * edit anywhere is a new key and nothing stale is ever read. */
#include "config.h"
#include "load/c_compile.h"

#include "base/input_file.h"
#include "base/subprocess.h"
#include "load/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why each flag: bounce interprets integer x86-64 code with its own
 * address map and no loader, so the code must be absolute (no PIC, no
 * GOT; a function's address and a switch's jump table hold code addresses,
 * cpu/program.h), carry no unwind or CET data, use no vector or x87
 * registers, no stack canary (it reads fs:40) and no red zone: an
 * interrupt handler runs on the interrupted stack, as in the kernel, whose
 * flags these are. -g1 gives the line table (.loc) that names each
 * instruction's C line. A call to a function never declared is an error,
 * as in a kernel build: GNU C would guess its type and the mistake would
 * surface only as an undefined label. */
static const char *const base_flags[] = {
	"-std=gnu11", "-O2", "-g1", "-masm=intel", "-fno-pic", "-fno-pie",
	"-fno-asynchronous-unwind-tables", "-fno-unwind-tables", "-fcf-protection=none",
	"-ffreestanding", "-fno-builtin", "-mno-red-zone", "-mgeneral-regs-only",
	"-fno-stack-protector", "-fno-common",
	"-Werror=implicit-function-declaration", "-Werror=implicit-int", NULL
};
/* What a compile's output may be: a preprocessed file or an assembly file
 * larger than this is refused, as an assembly file is. */
#define CC_MAX_OUTPUT (16u << 20)
#define CC_MAX_MESSAGES (64u << 10)
#define CC_MAX_WORDS 64

struct compiler {
	char *words[CC_MAX_WORDS + 1]; /* CC split at blanks, as make does */
	size_t n_words;
	char *buf;
	char *identity;                /* its --version */
	int clang;
	int missing;                   /* errno from starting it, 0 when found */
};

static pthread_mutex_t compiler_lock = PTHREAD_MUTEX_INITIALIZER;
static struct compiler compiler;
static char *compiler_cc;          /* the CC it was found for */

static const char *cc_name(void)
{
	const char *cc = getenv("CC");
	return cc && *cc ? cc : "cc";
}

int cc_any_c(const char *const *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(files[i]);
		if (k > 2 && strcmp(files[i] + k - 2, ".c") == 0)
			return 1;
	}
	return 0;
}

static void compiler_free(struct compiler *c)
{
	free(c->buf);
	free(c->identity);
	memset(c, 0, sizeof *c);
}

/* Find the compiler once per process and CC value, under the lock: the
 * sweep's threads share it. 0 with *out filled, -1 with e set. */
static int compiler_get(struct compiler *out, struct err *e)
{
	const char *cc = cc_name();
	pthread_mutex_lock(&compiler_lock);
	int r = 0;
	if (!compiler_cc || strcmp(compiler_cc, cc)) {
		compiler_free(&compiler);
		free(compiler_cc);
		compiler_cc = strdup(cc);
		compiler.buf = strdup(cc);
		if (!compiler_cc || !compiler.buf) {
			r = err_internal(e, "out of memory");
			goto out;
		}
		for (char *p = strtok(compiler.buf, " \t"); p; p = strtok(NULL, " \t")) {
			if (compiler.n_words == CC_MAX_WORDS) {
				r = err_set(e, NULL, 0, 0, "CC='%s': more than %d words", cc, CC_MAX_WORDS);
				goto out;
			}
			compiler.words[compiler.n_words++] = p;
		}
		if (!compiler.n_words) {
			r = err_set(e, NULL, 0, 0, "CC is blank: set it to a C compiler (gcc or clang) or unset it");
			goto out;
		}
		char *argv[CC_MAX_WORDS + 2];
		memcpy(argv, compiler.words, compiler.n_words * sizeof *argv);
		argv[compiler.n_words] = (char *)"--version";
		argv[compiler.n_words + 1] = NULL;
		struct subprocess_result res;
		if (subprocess_run(argv, 64 << 10, 64 << 10, &res)) {
			r = errno == EINTR ? err_sys(e, NULL, EINTR, "compiling") : err_internal(e, "out of memory");
			goto out;
		}
		compiler.missing = res.exec_errno;
		if (!res.exec_errno && res.status == 0) {
			compiler.identity = res.out;
			res.out = NULL;
			compiler.clang = strstr(compiler.identity, "clang") != NULL;
		} else if (!res.exec_errno) {
			compiler.missing = ENOEXEC;
		}
		subprocess_result_free(&res);
	}
out:
	if (r) {
		compiler_free(&compiler);
		free(compiler_cc);
		compiler_cc = NULL;
	} else {
		*out = compiler;
	}
	pthread_mutex_unlock(&compiler_lock);
	return r;
}

/* A 128-bit content hash: two 64-bit FNV-1a streams with different
 * starting points, the second over the bytes mixed with their position,
 * so that a collision of one is not a collision of the other. */
struct hash128 {
	uint64_t a, b;
	uint64_t n;
};

static void hash_init(struct hash128 *h)
{
	h->a = 0xcbf29ce484222325ull;
	h->b = 0x84222325cbf29ce4ull;
	h->n = 0;
}

static void hash_bytes(struct hash128 *h, const void *p, size_t len)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < len; i++, h->n++) {
		h->a = (h->a ^ s[i]) * 0x100000001b3ull;
		h->b = (h->b ^ (s[i] + (h->n & 0xff) * 0x9d)) * 0x100000001b3ull;
	}
}

/* A string and its terminator, so that ("ab","c") and ("a","bc") differ. */
static void hash_str(struct hash128 *h, const char *s)
{
	hash_bytes(h, s, strlen(s) + 1);
}

/* ---- the command line ---- */

struct argv_buf {
	char **v;
	size_t n, cap;
	char **owned;  /* strings formatted here, freed with the buffer */
	size_t n_owned;
};

static int argv_push(struct argv_buf *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		size_t c = a->cap ? a->cap * 2 : 64;
		char **v = realloc(a->v, c * sizeof *v);
		if (!v)
			return -1;
		a->v = v;
		a->cap = c;
	}
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
	return 0;
}

static int argv_pushf(struct argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int argv_pushf(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int k = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (k < 0)
		return -1;
	char **o = realloc(a->owned, (a->n_owned + 1) * sizeof *o);
	if (!o) {
		free(s);
		return -1;
	}
	a->owned = o;
	a->owned[a->n_owned++] = s;
	return argv_push(a, s);
}

static void argv_free(struct argv_buf *a)
{
	for (size_t i = 0; i < a->n_owned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->v);
	memset(a, 0, sizeof *a);
}

/* Everything but the mode (-E or -S -o) and the source. */
static int common_args(const struct compiler *cc, const struct cc_input *in, struct argv_buf *a)
{
	for (size_t i = 0; i < cc->n_words; i++)
		if (argv_push(a, cc->words[i]))
			return -1;
	for (const char *const *f = base_flags; *f; f++)
		if (argv_push(a, *f))
			return -1;
	/* Clang checks inline assembly against its own assembler unless told
	 * not to, and would refuse bounce's pseudo-instructions (mark op). */
	if (cc->clang && argv_push(a, "-fno-integrated-as"))
		return -1;
	/* GCC copies and clears a struct, and expands __builtin_memset and
	 * __builtin_memcpy, with `rep movs`/`rep stos` or a call to the C
	 * library; as a loop of moves it needs neither (Clang has no such
	 * flag: its calls find lib/string.s, docs/c-workloads.md). */
	if (!cc->clang && argv_push(a, "-mstringop-strategy=unrolled_loop"))
		return -1;
	if (argv_pushf(a, "-DNR_CPUS=%d", in->nr_cpus) || argv_push(a, "-D__BOUNCE__=1") ||
	    argv_pushf(a, "-I%s/scenarios/include", scen_datadir()))
		return -1;
	for (size_t i = 0; i < in->n_include_dirs; i++)
		if (argv_pushf(a, "-I%s", in->include_dirs[i]))
			return -1;
	for (size_t i = 0; i < in->n_defines; i++)
		if (argv_pushf(a, "-D%s=%" PRId64, in->defines[i].name, in->defines[i].value))
			return -1;
	for (size_t i = 0; i < in->n_cflags; i++)
		if (argv_push(a, in->cflags[i]))
			return -1;
	return 0;
}

/* ---- defines a C file uses ---- */

static int is_ident(int ch)
{
	return isalnum(ch) || ch == '_';
}

static int names_ident(const char *text, size_t len, const char *name)
{
	size_t k = strlen(name);
	for (const char *p = text; k && (size_t)(p - text) + k <= len;) {
		const char *q = memmem(p, len - (size_t)(p - text), name, k);
		if (!q)
			return 0;
		if ((q == text || !is_ident((unsigned char)q[-1])) &&
		    ((size_t)(q - text) + k == len || !is_ident((unsigned char)q[k])))
			return 1;
		p = q + 1;
	}
	return 0;
}

/* Mark the defines whose names stand in a file the preprocessor read
 * (its line markers, `# N "path"`, name every one). Macros vanish in
 * preprocessing, so the sources themselves are searched: a define that
 * no C file or header mentions overrides nothing, which is the mistake
 * the assembler's "names no .equ" catches for .s files. */
static int add_source(struct cc_output *out, const char *path)
{
	for (size_t i = 0; i < out->n_sources; i++)
		if (strcmp(out->sources[i], path) == 0)
			return 0;
	char **v = realloc(out->sources, (out->n_sources + 1) * sizeof *v);
	if (!v)
		return -1;
	out->sources = v;
	if (!(v[out->n_sources] = strdup(path)))
		return -1;
	out->n_sources++;
	return 0;
}

static int mark_used(const struct cc_input *in, const char *pp, size_t pp_len, struct cc_output *out)
{
	uint8_t *used = out->define_used;
	char last[4096] = "";
	for (const char *p = pp; p < pp + pp_len;) {
		const char *eol = memchr(p, '\n', (size_t)(pp + pp_len - p));
		if (!eol)
			eol = pp + pp_len;
		const char *q = p;
		if (*q == '#') {
			q++;
			while (q < eol && *q == ' ')
				q++;
			while (q < eol && isdigit((unsigned char)*q))
				q++;
			while (q < eol && *q == ' ')
				q++;
		}
		if (q > p && q < eol && *q == '"' && q[1] != '<') {
			const char *end = memchr(q + 1, '"', (size_t)(eol - q - 1));
			size_t n = end ? (size_t)(end - q - 1) : 0;
			/* With -g, GCC's second marker names the working directory
			 * followed by two slashes (-fworking-directory): no file. */
			if (n >= 2 && q[n] == '/' && q[n - 1] == '/')
				n = 0;
			if (n && n < sizeof last && (strncmp(last, q + 1, n) || last[n])) {
				memcpy(last, q + 1, n);
				last[n] = 0;
				if (add_source(out, last))
					return -1;
				FILE *f = fopen(last, "rb");
				size_t len = 0;
				char *text = f ? input_read_all(f, CC_MAX_OUTPUT, &len) : NULL;
				if (f)
					fclose(f);
				for (size_t d = 0; text && d < in->n_defines; d++)
					if (!used[d] && names_ident(text, len, in->defines[d].name))
						used[d] = 1;
				free(text);
			}
		}
		p = eol + 1;
	}
	return 0;
}

/* ---- the cache ---- */

/* $XDG_CACHE_HOME/bounce/c, else ~/.cache/bounce/c, created 0700. */
static int cache_dir(char *buf, size_t n, struct err *e)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int k;
	if (x && x[0] == '/')
		k = snprintf(buf, n, "%s/bounce/c", x);
	else if (home && *home)
		k = snprintf(buf, n, "%s/.cache/bounce/c", home);
	else
		return err_set(e, NULL, 0, 0, "no cache directory for compiled C: set XDG_CACHE_HOME or HOME");
	if (k < 0 || (size_t)k >= n)
		return err_set(e, NULL, 0, 0, "the cache directory's path is too long: %s", buf);
	for (char *s = buf + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = 0;
		if (mkdir(buf, 0700) && errno != EEXIST)
			return err_set(e, NULL, 0, 0, "cannot create the cache directory for compiled C %s: %s "
				       "(set XDG_CACHE_HOME to a writable directory)", buf, strerror(errno));
		*s = c;
		if (!c)
			break;
	}
	return 0;
}

/* The compiler's first error, as it printed it (it already says
 * file:line:col), as bounce's one message; how many more it gave is said
 * after it. Without such a line, what it printed, cut to one message. */
static int compile_failed(struct err *e, const char *src, const struct subprocess_result *res, const char *what)
{
	const char *msg = res->err, *first = NULL;
	size_t first_len = 0;
	int errors = 0;
	for (const char *p = msg; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *tag = memmem(p, len, ": error: ", 9);
		if (!tag)
			tag = memmem(p, len, ": fatal error: ", 15);
		if (tag) {
			if (!errors++) {
				first = p;
				first_len = len;
			}
		}
		p += len + (eol != NULL);
	}
	if (first) {
		/* path:LINE:COL: error: text */
		char path[512];
		const char *c1 = memchr(first, ':', first_len);
		char *end1 = NULL, *end2 = NULL;
		long long line = c1 ? strtoll(c1 + 1, &end1, 10) : 0;
		long long col = end1 && *end1 == ':' ? strtoll(end1 + 1, &end2, 10) : 0;
		if (c1 && (size_t)(c1 - first) < sizeof path && line > 0 && end2 && (size_t)(end2 + 2 - first) <= first_len &&
		    end2[0] == ':' && end2[1] == ' ') {
			memcpy(path, first, (size_t)(c1 - first));
			path[c1 - first] = 0;
			const char *text = end2 + 2;
			int tlen = (int)(first_len - (size_t)(text - first));
			if (errors > 1)
				return err_set(e, path, line, col, "%.*s (the first of the compiler's %d errors)", tlen,
					       text, errors);
			return err_set(e, path, line, col, "%.*s", tlen, text);
		}
		return err_set(e, NULL, 0, 0, "%.*s", (int)first_len, first);
	}
	size_t len = res->err_len;
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	if (!len)
		return err_set(e, src, 0, 0, "the C compiler failed (%s, exit status %d) and printed nothing", what,
			       res->status);
	return err_set(e, src, 0, 0, "the C compiler failed (%s, exit status %d): %.*s", what, res->status,
		       (int)(len > 900 ? 900 : len), msg);
}

static int compile_one(const struct compiler *cc, const struct cc_input *in, const char *src,
		       char **out_path, struct cc_output *out, struct err *e)
{
	struct argv_buf a = { 0 };
	struct subprocess_result res = { 0 };
	char dir[4096], tmp[4200];
	int r = -1;
	if (common_args(cc, in, &a) || argv_push(&a, "-E") || argv_push(&a, src)) {
		err_internal(e, "out of memory");
		goto out;
	}
	if (subprocess_run(a.v, CC_MAX_OUTPUT, CC_MAX_MESSAGES, &res)) {
		if (errno == EINTR)
			err_sys(e, src, EINTR, "compiling");
		else
			err_internal(e, "out of memory");
		goto out;
	}
	if (res.status) {
		compile_failed(e, src, &res, "preprocessing");
		goto out;
	}
	if (res.out_cut) {
		err_set(e, src, 0, 0, "preprocessed, it is more than %u bytes: too large to simulate", CC_MAX_OUTPUT);
		goto out;
	}
	struct hash128 h;
	hash_init(&h);
	hash_str(&h, cc->identity);
	for (size_t i = 0; a.v[i]; i++)
		hash_str(&h, a.v[i]);
	hash_bytes(&h, res.out, res.out_len);
	if (mark_used(in, res.out, res.out_len, out)) {
		err_internal(e, "out of memory");
		goto out;
	}
	subprocess_result_free(&res);

	if (cache_dir(dir, sizeof dir, e))
		goto out;
	char *path = NULL;
	if (asprintf(&path, "%s/%016" PRIx64 "%016" PRIx64 ".s", dir, h.a, h.b) < 0) {
		err_internal(e, "out of memory");
		goto out;
	}
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
		*out_path = path;
		r = 0;
		goto out;
	}
	/* Compiled under a unique name and renamed into place, so that a
	 * sweep's threads compiling the same variant never read half a file. */
	snprintf(tmp, sizeof tmp, "%s/tmp-XXXXXX.s", dir);
	int fd = mkstemps(tmp, 2);
	if (fd < 0) {
		err_set(e, NULL, 0, 0, "cannot create a file in the cache directory %s: %s", dir, strerror(errno));
		free(path);
		goto out;
	}
	close(fd);
	a.n -= 2; /* replace "-E src" */
	if (argv_push(&a, "-S") || argv_push(&a, "-o") || argv_push(&a, tmp) || argv_push(&a, src)) {
		err_internal(e, "out of memory");
	} else if (subprocess_run(a.v, 0, CC_MAX_MESSAGES, &res)) {
		if (errno == EINTR)
			err_sys(e, src, EINTR, "compiling");
		else
			err_internal(e, "out of memory");
	} else if (res.status) {
		compile_failed(e, src, &res, "compiling");
	} else if (rename(tmp, path)) {
		err_set(e, NULL, 0, 0, "cannot move %s to %s: %s", tmp, path, strerror(errno));
	} else {
		*out_path = path;
		path = NULL;
		r = 0;
	}
	if (r)
		unlink(tmp);
	free(path);
out:
	subprocess_result_free(&res);
	argv_free(&a);
	return r;
}

int cc_compile(const struct cc_input *in, struct cc_output *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->files = calloc(in->n_files ? in->n_files : 1, sizeof *out->files);
	out->compiled = calloc(in->n_files ? in->n_files : 1, 1);
	out->define_used = calloc(in->n_defines ? in->n_defines : 1, 1);
	if (!out->files || !out->compiled || !out->define_used) {
		cc_output_free(out);
		return err_internal(e, "out of memory");
	}
	struct compiler cc = { 0 };
	int have_cc = 0;
	for (size_t i = 0; i < in->n_files; i++, out->n_files++) {
		const char *f = in->files[i];
		if (!cc_any_c(&f, 1)) {
			if (!(out->files[i] = strdup(f)))
				goto oom;
			continue;
		}
		if (!have_cc) {
			if (compiler_get(&cc, e))
				goto fail;
			if (cc.missing) {
				const char *which = cc_name();
				if (cc.missing == ENOENT)
					err_set(e, f, 0, 0, "cannot compile: the C compiler '%s' is not installed "
						"(apt-get install gcc, or clang; or set CC to a C compiler)", which);
				else if (cc.missing == ENOEXEC)
					err_set(e, f, 0, 0, "cannot compile: the C compiler '%s' did not run ('%s "
						"--version' failed); set CC to gcc or clang", which, which);
				else
					err_set(e, f, 0, 0, "cannot compile: the C compiler '%s' did not run (%s); "
						"set CC to gcc or clang", which, strerror(cc.missing));
				goto fail;
			}
			have_cc = 1;
		}
		if (compile_one(&cc, in, f, &out->files[i], out, e))
			goto fail;
		out->compiled[i] = 1;
	}
	return 0;
oom:
	err_internal(e, "out of memory");
fail:
	cc_output_free(out);
	return -1;
}

void cc_output_free(struct cc_output *out)
{
	for (size_t i = 0; out->files && i < out->n_files; i++)
		free(out->files[i]);
	free(out->files);
	free(out->compiled);
	free(out->define_used);
	for (size_t i = 0; i < out->n_sources; i++)
		free(out->sources[i]);
	free(out->sources);
	memset(out, 0, sizeof *out);
}
