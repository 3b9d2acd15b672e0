/* Atomic output files (see outfile.h). Pending temporaries are kept in a
 * fixed table so that a signal handler can unlink them without allocating. */
#include "config.h"
#include "cli/outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTFILE_MAX_PENDING 16

struct outfile {
	FILE *f;
	int is_stdout;
	int slot;
	char *path;
	char tmp[4096];
};

/* Written only outside signal context; read by the handler. */
static volatile sig_atomic_t pending_used[OUTFILE_MAX_PENDING];
static char pending_tmp[OUTFILE_MAX_PENDING][4096];

struct outfile *outfile_open(const char *path, struct err *e)
{
	struct outfile *o = calloc(1, sizeof *o);
	if (!o) {
		err_internal(e, "out of memory");
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		o->is_stdout = 1;
		o->slot = -1;
		return o;
	}
	o->path = strdup(path);
	int n = snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path);
	if (!o->path || n < 0 || (size_t)n >= sizeof o->tmp) {
		err_set(e, path, 0, 0, "output path is too long");
		goto fail;
	}
	int slot = -1;
	for (int i = 0; i < OUTFILE_MAX_PENDING; i++)
		if (!pending_used[i]) {
			slot = i;
			break;
		}
	if (slot < 0) {
		err_internal(e, "too many output files at once");
		goto fail;
	}
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		err_set(e, path, 0, 0, "cannot create output file: %s", strerror(errno));
		goto fail;
	}
	/* mkstemp makes the file private; a report should get the usual mode. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	memcpy(pending_tmp[slot], o->tmp, sizeof o->tmp);
	pending_used[slot] = 1;
	o->slot = slot;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		outfile_abort(o);
		err_set(e, path, 0, 0, "cannot open output file: %s", strerror(errno));
		return NULL;
	}
	return o;
fail:
	free(o->path);
	free(o);
	return NULL;
}

FILE *outfile_stream(struct outfile *o)
{
	return o->f;
}

static void release(struct outfile *o)
{
	if (o->slot >= 0)
		pending_used[o->slot] = 0;
	free(o->path);
	free(o);
}

int outfile_commit(struct outfile *o, struct err *e)
{
	if (o->is_stdout) {
		int bad = fflush(stdout) != 0 || ferror(stdout);
		release(o);
		return bad ? err_set(e, NULL, 0, 0, "cannot write to standard output") : 0;
	}
	int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) != 0)
		bad = 1;
	if (bad) {
		int saved = errno;
		unlink(o->tmp);
		err_set(e, o->path, 0, 0, "cannot write output file: %s", strerror(saved));
		release(o);
		return -1;
	}
	release(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (!o)
		return;
	if (!o->is_stdout) {
		if (o->f)
			fclose(o->f);
		unlink(o->tmp);
	}
	release(o);
}

void outfile_cleanup_all(void)
{
	for (int i = 0; i < OUTFILE_MAX_PENDING; i++)
		if (pending_used[i])
			unlink(pending_tmp[i]);
}

int outfile_write_all(const char *path, const char *data, size_t len, struct err *e)
{
	struct outfile *o = outfile_open(path, e);
	if (!o)
		return -1;
	if (fwrite(data, 1, len, o->f) != len) {
		outfile_abort(o);
		return err_set(e, path, 0, 0, "cannot write output file");
	}
	return outfile_commit(o, e);
}
