/* The source driver: reads files, feeds their lines to the parser and
 * follows .include with an explicit stack of open files (no recursion), so
 * nesting depth, cycles and the total bytes read are all bounded. */
#include "config.h"
#include "asm/asm_internal.h"

#include "base/input_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct frame {
	char *buf;
	size_t len, pos;
	uint32_t line;
	uint16_t file_idx;
	int has_id;            /* dev/ino known (not a string input) */
	dev_t dev;
	ino_t ino;
};

/* 0: read; 1: no such file (try the next candidate); -1: error recorded. */
static int read_file(struct asm_state *st, const char *path, uint32_t col, struct frame *f)
{
	struct stat sb;
	int errnum;
	if (!input_is_workload_name(path))
		return asm_error(st, col, "'%s' is not a workload file (expected a name ending in %s)", path,
				 INPUT_WORKLOAD_NAMES);
	int fd = input_open(path, &sb, &errnum);
	if (fd < 0 && errnum == EINTR)
		return err_sys(st->e, path, errnum, "cannot open");
	if (fd < 0 && errnum)
		return errnum == ENOENT ? 1 :
		       asm_error(st, col, "cannot open '%s': %s", path, strerror(errnum));
	if (fd < 0)
		return asm_error(st, col, "'%s' is not a regular file (it is %s)", path, input_kind(sb.st_mode));
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		return asm_oom(st);
	}
	if ((uint64_t)sb.st_size > ASM_MAX_FILE ||
	    st->total_bytes + (uint64_t)sb.st_size > ASM_MAX_TOTAL) {
		fclose(fp);
		return asm_error(st, col, "'%s': input too large (limit %u bytes per file, %u in all)",
				 path, ASM_MAX_FILE, ASM_MAX_TOTAL);
	}
	size_t n = (size_t)sb.st_size;
	char *buf = malloc(n + 1);
	if (!buf) {
		fclose(fp);
		return asm_oom(st);
	}
	size_t got = fread(buf, 1, n, fp);
	int bad = ferror(fp);
	fclose(fp);
	if (bad || got != n) {
		free(buf);
		return asm_error(st, col, "cannot read '%s'", path);
	}
	st->total_bytes += n;
	f->buf = buf;
	f->len = n;
	/* A UTF-8 byte-order mark is harmless, as in JSON: skipped, and
	 * columns on the first line count from after it. */
	if (n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		f->pos = 3;
	f->has_id = 1;
	f->dev = sb.st_dev;
	f->ino = sb.st_ino;
	return 0;
}

static char *join(const char *dir_of, const char *name)
{
	const char *slash = strrchr(dir_of, '/');
	size_t d = slash ? (size_t)(slash - dir_of) + 1 : 0;
	size_t n = strlen(name);
	char *p = malloc(d + n + 1);
	if (p) {
		memcpy(p, dir_of, d);
		memcpy(p + d, name, n + 1);
	}
	return p;
}

static char *join_dir(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);
	char *p = malloc(d + n + 2);
	if (p)
		snprintf(p, d + n + 2, "%s%s%s", dir, d && dir[d - 1] != '/' ? "/" : "", name);
	return p;
}

static int cycle_error(struct asm_state *st, struct frame *fr, int depth, int from,
		       const char *path)
{
	char chain[800];
	size_t n = 0;
	chain[0] = 0;
	for (int i = from; i < depth && n < sizeof chain; i++)
		n += (size_t)snprintf(chain + n, sizeof chain - n, "%s -> ",
				      st->files[fr[i].file_idx]);
	if (n < sizeof chain)
		snprintf(chain + n, sizeof chain - n, "%s", path);
	return asm_error(st, st->include_col, "include cycle: %s", chain);
}

/* Open the file a .include names: beside the including file, then in the
 * include directories. */
static int open_include(struct asm_state *st, struct frame *fr, int depth)
{
	const char *name = st->include_path;
	const char *cur = st->files[fr[depth - 1].file_idx];
	if (depth > ASM_MAX_INCLUDE)
		return asm_error(st, st->include_col, "includes nested deeper than %d",
				 ASM_MAX_INCLUDE);
	/* depth >= 1 here: f is never fr[0], whose buffer the analyzer fears
	 * this memset loses (reported on the line after). */
	struct frame *f = &fr[depth];
	memset(f, 0, sizeof *f);
	// NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
	size_t ndirs = name[0] == '/' ? 0 : st->in->n_include_dirs;
	int rc = 1;
	char *path = NULL;
	for (size_t i = 0; rc == 1 && i <= ndirs; i++) {
		free(path);
		path = name[0] == '/' ? strdup(name) :
		       i == 0 ? join(cur, name) : join_dir(st->in->include_dirs[i - 1], name);
		if (!path)
			return asm_oom(st);
		rc = read_file(st, path, st->include_col, f);
	}
	if (rc == 1)
		rc = asm_error(st, st->include_col, "cannot find include file '%s'", name);
	for (int i = 0; rc == 0 && i < depth; i++)
		if (fr[i].has_id && fr[i].dev == f->dev && fr[i].ino == f->ino)
			rc = cycle_error(st, fr, depth, i, path);
	if (rc == 0) {
		uint16_t cur_idx = st->cur_file_idx;
		uint32_t cur_line = st->cur_line;
		rc = asm_add_file(st, path);
		f->file_idx = st->cur_file_idx;
		st->cur_file_idx = cur_idx;
		st->cur_file = st->files[cur_idx];
		st->cur_line = cur_line;
	}
	free(path);
	if (rc) {
		free(f->buf);
		f->buf = NULL;
	}
	return rc;
}

static int run(struct asm_state *st, struct frame *fr)
{
	int depth = 1, rc = 0;
	while (depth > 0 && rc == 0) {
		struct frame *f = &fr[depth - 1];
		if (f->pos >= f->len) {
			free(f->buf);
			depth--;
			continue;
		}
		const char *s = f->buf + f->pos;
		const char *nl = memchr(s, '\n', f->len - f->pos);
		size_t len = nl ? (size_t)(nl - s) : f->len - f->pos;
		f->pos += len + 1;
		if (len && s[len - 1] == '\r')
			len--;
		st->cur_file_idx = f->file_idx;
		st->cur_file = st->files[f->file_idx];
		st->cur_line = ++f->line;
		rc = err_poll(st->e) ? -1 : asm_parse_line(st, s, len);
		if (rc == 0 && st->include_path) {
			rc = open_include(st, fr, depth);
			free(st->include_path);
			st->include_path = NULL;
			if (rc == 0)
				depth++;
		}
	}
	while (depth > 0)
		free(fr[--depth].buf);
	return rc;
}

int asm_run_file(struct asm_state *st, const char *path)
{
	struct frame fr[ASM_MAX_INCLUDE + 1];
	memset(fr, 0, sizeof fr[0]);
	if (asm_add_file(st, path))
		return -1;
	st->cur_line = 0;
	fr[0].file_idx = st->cur_file_idx;
	int rc = read_file(st, path, 0, &fr[0]);
	if (rc == 1)
		return err_set(st->e, path, 0, 0, "cannot open: %s", strerror(ENOENT));
	if (rc)
		return -1;
	/* A program file with nothing in it is a truncated copy or the wrong
	 * path, never a workload; an empty .include is harmless and allowed. */
	if (fr[0].len == 0) {
		free(fr[0].buf);
		return err_set(st->e, path, 1, 1, "empty file (expected workload assembly)");
	}
	return run(st, fr);
}

int asm_run_string(struct asm_state *st, const char *name, const char *text)
{
	struct frame fr[ASM_MAX_INCLUDE + 1];
	memset(fr, 0, sizeof fr[0]);
	if (asm_add_file(st, name))
		return -1;
	fr[0].file_idx = st->cur_file_idx;
	fr[0].len = strlen(text);
	if (fr[0].len > ASM_MAX_FILE)
		return err_set(st->e, name, 0, 0, "input too large (limit %u bytes)", ASM_MAX_FILE);
	if (!(fr[0].buf = malloc(fr[0].len + 1)))
		return asm_oom(st);
	memcpy(fr[0].buf, text, fr[0].len + 1);
	st->total_bytes = fr[0].len;
	if (fr[0].len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		fr[0].pos = 3; /* a byte-order mark, as in files */
	return run(st, fr);
}
