/* The sweep journal (F.partial beside --csv F): an identity header, then a
 * record per finished point, "#P\n", its rows, "#end P\n". A record is
 * written with one append, and counted only with its end line, so a kill
 * in the middle of one loses that point and nothing else. */
#include "config.h"
#include "cli/sweep_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "bounce sweep journal 1"

/* FNV-1a, 64 bits: a change to any byte of an input shows. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static int hash_file(const char *path, uint64_t *h)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char buf[65536];
	size_t n;
	*h = fnv(*h, path, strlen(path) + 1);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		*h = fnv(*h, buf, n);
	int bad = ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

/* The header's lines: what each says, for the message when one differs. */
enum { ID_MAGIC, ID_VERSION, ID_INPUTS, ID_PARAMS, ID_LINES };
static const char *const id_what[ID_LINES] = {
	"is not a sweep journal", "is of another version of bounce",
	"is of a sweep whose scenario, CPU model or programs have changed since",
	"is of a sweep with other parameters (--set, --cores, --seed, --variant, ...)"};

static int identity_lines(const struct sweep_identity *id, char lines[ID_LINES][96], struct err *e)
{
	uint64_t in = 0xcbf29ce484222325ull, par = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < id->n_inputs; i++)
		if (hash_file(id->inputs[i], &in))
			return err_set(e, id->inputs[i], 0, 0, "cannot read it again to key the sweep's journal: %s",
				       strerror(errno));
	par = fnv(par, id->params, strlen(id->params));
	snprintf(lines[ID_MAGIC], 96, "%s\n", MAGIC);
	snprintf(lines[ID_VERSION], 96, "version %.80s\n", id->version);
	snprintf(lines[ID_INPUTS], 96, "inputs %016" PRIx64 "\n", in);
	snprintf(lines[ID_PARAMS], 96, "parameters %016" PRIx64 "\n", par);
	return 0;
}

static void kept_free(struct sweep_journal *j)
{
	for (size_t i = 0; i < j->n_kept; i++)
		free(j->kept[i].rows);
	free(j->kept);
	j->kept = NULL;
	j->n_kept = 0;
}

/* Read the records of an existing journal whose header matched; *end is
 * where the last whole record ends. */
static int read_records(struct sweep_journal *j, FILE *f, off_t *end, struct err *e)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	char *rows = NULL;
	size_t nrows = 0, point = 0, kcap = 0;
	int open = 0, rc = 0;
	*end = ftello(f);
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break;  /* cut short */
		char *stop;
		if (!open && line[0] == '#') {
			point = strtoull(line + 1, &stop, 10);
			if (stop == line + 1 || *stop != '\n' || point >= j->np)
				break;
			open = 1;
			nrows = 0;
			free(rows);
			rows = NULL;
			continue;
		}
		if (open && strncmp(line, "#end ", 5) == 0) {
			size_t q = strtoull(line + 5, &stop, 10);
			if (q != point || *stop != '\n')
				break;
			open = 0;
			*end = ftello(f);
			if (j->done[point])
				continue;
			if (j->n_kept == kcap) {  /* doubling: 10^5 points stay linear */
				kcap = kcap ? 2 * kcap : 64;
				struct sweep_kept *k = realloc(j->kept, kcap * sizeof *k);
				if (!k) {
					rc = err_internal(e, "out of memory");
					break;
				}
				j->kept = k;
			}
			j->kept[j->n_kept].point = point;
			j->kept[j->n_kept++].rows = rows ? rows : strdup("");
			rows = NULL;
			j->done[point] = 1;
			continue;
		}
		if (!open)
			break;
		char *r = realloc(rows, nrows + (size_t)len + 1);
		if (!r) {
			rc = err_internal(e, "out of memory");
			break;
		}
		memcpy(r + nrows, line, (size_t)len + 1);
		rows = r;
		nrows += (size_t)len;
	}
	free(rows);
	free(line);
	return rc;
}

int sweep_journal_open(struct sweep_journal *j, const char *csv, const struct sweep_identity *id, size_t np,
		       int resume, struct err *e)
{
	memset(j, 0, sizeof *j);
	j->fd = -1;
	j->np = np;
	char lines[ID_LINES][96];
	size_t n = strlen(csv) + sizeof ".partial";
	if (!(j->path = malloc(n)) || !(j->done = calloc(np ? np : 1, 1))) {
		sweep_journal_close(j);
		return err_internal(e, "out of memory");
	}
	snprintf(j->path, n, "%s.partial", csv);
	if (identity_lines(id, lines, e)) {
		sweep_journal_close(j);
		return -1;
	}
	off_t end = 0;
	if (resume) {
		FILE *f = fopen(j->path, "r");
		if (!f) {
			err_set(e, j->path, 0, 0, "no journal to resume: %s (a sweep --csv %s leaves one when it is "
				"interrupted)", strerror(errno), csv);
			sweep_journal_close(j);
			return -1;
		}
		char *line = NULL;
		size_t cap = 0;
		int rc = 0;
		for (int k = 0; k < ID_LINES && !rc; k++) {
			ssize_t len = getline(&line, &cap, f);
			if (len <= 0 || strcmp(line, lines[k]) != 0)
				rc = err_set(e, j->path, k + 1, 1, "this journal %s: remove it, or run the sweep without "
					     "--resume to start over", id_what[k]);
		}
		free(line);
		if (!rc)
			rc = read_records(j, f, &end, e);
		fclose(f);
		if (rc) {
			sweep_journal_close(j);
			return -1;
		}
	}
	/* A new journal, or the old one without a record cut short. */
	j->fd = open(j->path, O_WRONLY | O_CREAT | O_CLOEXEC | (resume ? 0 : O_TRUNC), 0666);
	if (j->fd < 0 || (resume && ftruncate(j->fd, end)) || lseek(j->fd, 0, SEEK_END) < 0) {
		err_set(e, j->path, 0, 0, "cannot write the sweep's journal: %s", strerror(errno));
		sweep_journal_close(j);
		return -1;
	}
	if (!resume)
		for (int k = 0; k < ID_LINES; k++)
			if (write(j->fd, lines[k], strlen(lines[k])) != (ssize_t)strlen(lines[k])) {
				err_set(e, j->path, 0, 0, "cannot write the sweep's journal: %s", strerror(errno));
				sweep_journal_close(j);
				return -1;
			}
	/* Workers append at once, each point in one write: from here on only O_APPEND. */
	int fd = open(j->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	close(j->fd);
	j->fd = fd;
	if (fd < 0) {
		err_set(e, j->path, 0, 0, "cannot write the sweep's journal: %s", strerror(errno));
		sweep_journal_close(j);
		return -1;
	}
	return 0;
}

int sweep_journal_add(struct sweep_journal *j, size_t p, const char *rows, size_t len)
{
	char head[32], tail[40];
	int hn = snprintf(head, sizeof head, "#%zu\n", p), tn = snprintf(tail, sizeof tail, "#end %zu\n", p);
	size_t n = (size_t)hn + len + (size_t)tn;
	char *rec = malloc(n);
	if (!rec)
		return -1;
	memcpy(rec, head, (size_t)hn);
	memcpy(rec + hn, rows, len);
	memcpy(rec + hn + len, tail, (size_t)tn);
	ssize_t w = write(j->fd, rec, n);
	free(rec);
	return w == (ssize_t)n ? 0 : -1;
}

void sweep_journal_remove(struct sweep_journal *j)
{
	if (j->path)
		unlink(j->path);
}

void sweep_journal_close(struct sweep_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	kept_free(j);
	free(j->done);
	free(j->path);
	j->done = NULL;
	j->path = NULL;
}
