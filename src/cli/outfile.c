/* Output files (see outfile.h). A regular file is replaced whole or not at
 * all through a temporary beside it; a device or FIFO is written through,
 * never replaced. Pending temporaries are kept in a fixed table so that a
 * signal handler can unlink them without allocating. */
#include "config.h"
#include "cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTFILE_MAX_PENDING 16
#define OUTFILE_MAX_LINKS 40 /* symlinks followed, as the kernel's ELOOP */

struct outfile {
	FILE *f;
	int direct;     /* written in place: stdout, a device, a FIFO, an open fd */
	int slot;
	char *path;     /* as given, for messages */
	char *target;   /* the file replaced: path with its symlinks followed */
	char tmp[PATH_MAX + 32];
};

/* Written only outside signal context; read by the handler. */
static volatile sig_atomic_t pending_used[OUTFILE_MAX_PENDING];
static char pending_tmp[OUTFILE_MAX_PENDING][PATH_MAX + 32];

/* The descriptor a path names when it is one of the process's own
 * (/dev/stdout, /dev/fd/N): writing there means that descriptor, with its
 * offset, not a new file at the path it points to. -1 when not such a path. */
static int own_fd(const char *path)
{
	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	const char *n = strncmp(path, "/dev/fd/", 8) == 0 ? path + 8 :
			strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14 : NULL;
	if (!n || !*n || strspn(n, "0123456789") != strlen(n) || strlen(n) > 6)
		return -1;
	return (int)strtol(n, NULL, 10); /* at most 6 digits, checked above */
}

/* The path with every symlink followed: the file a rename must replace.
 * The last component need not exist (a new file, or a dangling link). */
static char *follow_links(const char *path, struct err *e)
{
	char *cur = strdup(path);
	for (int hops = 0; cur; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (hops == OUTFILE_MAX_LINKS) {
			err_set(e, path, 0, 0, "too many levels of symbolic links");
			free(cur);
			return NULL;
		}
		char link[PATH_MAX];
		ssize_t n = readlink(cur, link, sizeof link - 1);
		if (n < 0) {
			err_sys(e, path, errno, "cannot read symbolic link");
			free(cur);
			return NULL;
		}
		link[n] = 0;
		const char *slash = strrchr(cur, '/');
		size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
		char *next = malloc(dir + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dir);
			memcpy(next + dir, link, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	err_internal(e, "out of memory");
	return NULL;
}

/* What kind of output `target` is. 0: a new file; 2: a regular file, to be
 * replaced; 1: a device or FIFO, written through; -1: refused (e set). */
static int target_kind(const char *path, const char *target, struct stat *st, struct err *e)
{
	if (stat(target, st) != 0)
		return 0; /* new; creating it says what is wrong with the path */
	if (S_ISREG(st->st_mode))
		return 2;
	if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode))
		return 1;
	return err_set(e, path, 0, 0, "is a %s (expected a file, a character device or a FIFO to write the output to)",
		       S_ISDIR(st->st_mode) ? "directory" : S_ISBLK(st->st_mode) ? "block device" :
		       S_ISSOCK(st->st_mode) ? "socket" : "special file");
}

static struct outfile *open_direct(struct outfile *o, int fd, struct err *e)
{
	o->direct = 1;
	o->slot = -1;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		err_sys(e, o->path, errno, "cannot write output");
		close(fd);
		return NULL;
	}
	return o;
}

static int take_slot(void)
{
	for (int i = 0; i < OUTFILE_MAX_PENDING; i++)
		if (!pending_used[i])
			return i;
	return -1;
}

static struct outfile *open_replace(struct outfile *o, const struct stat *old, int exists,
				    struct err *e)
{
	int n = snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", o->target);
	if (n < 0 || (size_t)n >= sizeof o->tmp) {
		err_set(e, o->path, 0, 0, "output path is too long");
		return NULL;
	}
	int slot = take_slot();
	if (slot < 0) {
		err_internal(e, "too many output files at once");
		return NULL;
	}
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		err_sys(e, o->path, errno, "cannot create output file");
		return NULL;
	}
	/* mkstemp makes the file private: a replaced file keeps its mode, a
	 * new one gets the usual mode. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, exists ? old->st_mode & 07777 : 0666 & ~mask);
	memcpy(pending_tmp[slot], o->tmp, sizeof o->tmp);
	pending_used[slot] = 1;
	o->slot = slot;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int saved = errno;
		close(fd);
		unlink(o->tmp);
		pending_used[slot] = 0;
		o->slot = -1;
		err_sys(e, o->path, saved, "cannot open output file");
		return NULL;
	}
	return o;
}

static void release(struct outfile *o)
{
	if (o->slot >= 0)
		pending_used[o->slot] = 0;
	free(o->path);
	free(o->target);
	free(o);
}

struct outfile *outfile_open(const char *path, struct err *e)
{
	struct outfile *o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path))) {
		free(o);
		err_internal(e, "out of memory");
		return NULL;
	}
	o->slot = -1;
	struct outfile *ok = NULL;
	int fd = strcmp(path, "-") == 0 ? 1 : own_fd(path);
	struct stat st;
	if (fd >= 0) {
		int dup_fd = fcntl(fd, F_GETFD) < 0 ? -1 : dup(fd);
		if (dup_fd < 0)
			err_set(e, path, 0, 0, "descriptor %d is not open", fd);
		else
			ok = open_direct(o, dup_fd, e);
	} else if ((o->target = follow_links(path, e))) {
		int kind = target_kind(path, o->target, &st, e);
		if (kind == 0 || kind == 2) {
			ok = open_replace(o, &st, kind == 2, e);
		} else if (kind == 1) {
			/* A FIFO blocks here until a reader comes; a signal then
			 * ends the wait with EINTR (no SA_RESTART), exit 130. */
			int wfd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			if (wfd < 0)
				err_sys(e, path, errno, "cannot open output");
			else
				ok = open_direct(o, wfd, e);
		}
	}
	if (!ok)
		release(o);
	return ok;
}

FILE *outfile_stream(struct outfile *o)
{
	return o->f;
}

/* Everything but the rename: the data flushed, synced and closed, every
 * error of writing it found. On failure o is left for outfile_abort. */
static int finish(struct outfile *o, struct err *e)
{
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int saved = errno;
	if (o->direct) {
		bad |= fclose(o->f) != 0;
		o->f = NULL;
		if (bad)
			err_sys(e, o->path, saved ? saved : EIO, "cannot write output");
		return bad ? -1 : 0;
	}
	bad = bad || fsync(fileno(o->f)) != 0;
	if (bad)
		saved = errno;
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	o->f = NULL;
	if (bad) {
		err_sys(e, o->path, saved ? saved : EIO, "cannot write output file");
		return -1;
	}
	return 0;
}

/* The rename into place of a finished output; frees o. */
static int place(struct outfile *o, struct err *e)
{
	int bad = !o->direct && rename(o->tmp, o->target) != 0;
	if (bad) {
		err_sys(e, o->path, errno, "cannot write output file");
		unlink(o->tmp);
	}
	release(o);
	return bad ? -1 : 0;
}

int outfile_commit(struct outfile *o, struct err *e)
{
	if (finish(o, e)) {
		outfile_abort(o);
		return -1;
	}
	return place(o, e);
}

int outfile_commit_all(struct outfile **os, size_t n, struct err *e)
{
	for (size_t i = 0; i < n; i++)
		if (os[i] && finish(os[i], e)) {
			for (size_t k = 0; k < n; k++)
				outfile_abort(os[k]);
			return -1;
		}
	/* Only renames are left, which fail only when the directory changed
	 * under the run: the rest still go in place, and the first failure
	 * is the message. */
	int rc = 0;
	struct err late = {0};
	for (size_t i = 0; i < n; i++)
		if (os[i] && place(os[i], rc ? &late : e))
			rc = -1;
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	if (!o->direct)
		unlink(o->tmp);
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

/* ---- outputs that would overwrite an input or each other ---- */

/* What a path names, to compare two paths: the file's device and inode
 * when it exists, else its directory's canonical path and its name. The
 * second is NULL for outputs written through (devices, FIFOs, stdout),
 * which replace nothing. */
struct ident {
	int exists;
	dev_t dev;
	ino_t ino;
	char *canon;
};

/* 1: id says what path names; 0: nothing to compare (no such input, or an
 * output written through); -1: out of memory (e set), for a clash missed
 * for want of memory could replace an input. */
static int ident_of(const char *path, int is_output, struct ident *id, struct err *e)
{
	memset(id, 0, sizeof *id);
	struct stat st;
	if (is_output && (strcmp(path, "-") == 0 || own_fd(path) >= 0))
		return 0;
	if (stat(path, &st) == 0) {
		if (is_output && !S_ISREG(st.st_mode))
			return 0;
		id->exists = 1;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return 1;
	}
	if (!is_output)
		return 0;
	struct err why = {0};
	char *t = follow_links(path, &why);
	if (!t) /* a broken link is reported when the output is opened */
		return why.kind == ERR_INTERNAL ? err_internal(e, "out of memory") : 0;
	char *slash = strrchr(t, '/');
	const char *name = slash ? slash + 1 : t;
	if (slash)
		*slash = 0;
	char *dir = realpath(slash ? (t[0] ? t : "/") : ".", NULL);
	int rc = 0;
	if (dir) {
		size_t n = strlen(dir) + strlen(name) + 2;
		id->canon = malloc(n);
		if (id->canon)
			snprintf(id->canon, n, "%s/%s", dir, name);
		rc = id->canon ? 1 : err_internal(e, "out of memory");
	}
	free(dir);
	free(t);
	return rc;
}

static int same(const struct ident *a, const struct ident *b)
{
	if (a->exists && b->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return !a->exists && !b->exists && a->canon && b->canon && strcmp(a->canon, b->canon) == 0;
}

int outfile_check_clash(const char *const *outs, const char *const *opts, size_t n_outs,
			const char *const *ins, const char *const *kinds, size_t n_ins,
			struct err *e)
{
	int rc = 0;
	struct ident *o = calloc(n_outs ? n_outs : 1, sizeof *o);
	if (!o)
		return err_internal(e, "out of memory");
	for (size_t i = 0; i < n_outs && !rc; i++)
		rc = ident_of(outs[i], 1, &o[i], e) < 0 ? -1 : 0;
	for (size_t i = 0; i < n_outs && !rc; i++) {
		if (!o[i].exists && !o[i].canon)
			continue;
		for (size_t j = 0; j < i && !rc; j++)
			if (same(&o[i], &o[j]))
				rc = err_set(e, outs[i], 0, 0, "%s and %s name the same file (expected a different file for each output)",
					     opts[j], opts[i]);
		for (size_t k = 0; k < n_ins && !rc && o[i].exists; k++) {
			struct ident in;
			if (ident_of(ins[k], 0, &in, e) > 0 && same(&o[i], &in))
				rc = err_set(e, outs[i], 0, 0, "%s names %s '%s', an input of this run (expected a file the run does not read)",
					     opts[i], kinds[k], ins[k]);
		}
	}
	for (size_t i = 0; i < n_outs; i++)
		free(o[i].canon);
	free(o);
	return rc;
}
