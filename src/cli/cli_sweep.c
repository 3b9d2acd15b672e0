/* `bounce sweep` and `bounce merge`: run a scenario over the cartesian
 * product of --set lists. Points are numbered in a fixed order (the first
 * --set varies slowest) and every CSV row starts with its point number, so
 * --jobs (fork) and --shard K/N (many machines, then merge) give exactly
 * the rows of the plain sweep. Expectations are not enforced in sweeps:
 * they are written for one configuration. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/outfile.h"
#include "report/report.h"
#include "report/runner.h"

static size_t n_points(const struct cli_opts *o)
{
	size_t n = 1;
	for (size_t i = 0; i < o->n_sets; i++)
		n *= o->sets[i].n_values;
	return n;
}

static void point_pick(const struct cli_opts *o, size_t p, size_t *pick)
{
	for (size_t i = o->n_sets; i-- > 0;) {
		pick[i] = p % o->sets[i].n_values;
		p /= o->sets[i].n_values;
	}
}

/* Run one point and append its CSV rows to f. */
static int run_point(const struct cli_opts *o, const struct scenario *s, size_t p, FILE *f,
		     struct err *e)
{
	size_t pick[CLI_MAX_SETS];
	struct cli_ov ov;
	point_pick(o, p, pick);
	if (cli_overrides(o, pick, &ov, e))
		return -1;
	cJSON *rep = NULL;
	for (size_t v = 0; v < s->n_variants; v++) {
		if (o->variant && strcmp(o->variant, s->variants[v].name) != 0)
			continue;
		struct runner r;
		if (runner_prepare(&r, s, v, &ov.ov, o->check, e))
			goto fail;
		if (!rep)
			rep = rep_new(s, &r);
		r.status = sim_run(r.sim, e);
		if (r.status == SIM_ERROR || cli_interrupted) {
			runner_free(&r);
			if (cli_interrupted)
				err_set(e, NULL, 0, 0, "interrupted at point %zu", p);
			goto fail;
		}
		int bad = rep_add_variant(rep, &r, e);
		runner_free(&r);
		if (bad)
			goto fail;
	}
	char pbuf[32];
	const char *vals[CLI_MAX_SETS + 1];
	snprintf(pbuf, sizeof pbuf, "%zu", p);
	vals[0] = pbuf;
	for (size_t i = 0; i < o->n_sets; i++)
		vals[i + 1] = o->sets[i].values[pick[i]];
	if (rep)
		rep_write_csv_rows(rep, vals, o->n_sets + 1, f);
	cJSON_Delete(rep);
	return 0;
fail:
	cJSON_Delete(rep);
	return -1;
}

static int in_shard(const struct cli_opts *o, size_t p)
{
	return !o->shard_n || p % (size_t)o->shard_n == (size_t)(o->shard_k - 1);
}

/* Child j of a --jobs sweep: its share of the points into its own file. */
static int sweep_child(const struct cli_opts *o, const struct scenario *s, size_t np, int j,
		       const char *path)
{
	struct err e = {0};
	FILE *f = fopen(path, "w");
	if (!f)
		return EXIT_INTERNAL;
	size_t mine = 0;
	for (size_t p = 0; p < np; p++) {
		if (!in_shard(o, p))
			continue;
		if (mine++ % (size_t)o->jobs != (size_t)j)
			continue;
		/* Each point's rows are preceded by its number so the parent
		 * can put the points back in order. */
		fprintf(f, "#%zu\n", p);
		if (run_point(o, s, p, f, &e)) {
			err_print(&e, stderr);
			fclose(f);
			return cli_exit_status(&e);
		}
	}
	return fclose(f) ? EXIT_INTERNAL : EXIT_OK;
}

struct chunk {
	size_t point;
	size_t seq;  /* arrival order: keeps a point's variants in scenario order */
	char *text;
};

static int cmp_chunk(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Read "#P\nrows..." blocks from a child's file. */
static int read_chunks(const char *path, struct chunk **cs, size_t *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct chunk *cur = NULL;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[0] == '#') {
			struct chunk *nc = realloc(*cs, (*n + 1) * sizeof *nc);
			if (!nc)
				break;
			*cs = nc;
			cur = &(*cs)[(*n)++];
			cur->point = strtoull(line + 1, NULL, 10);
			cur->seq = *n;
			cur->text = strdup("");
			continue;
		}
		if (!cur)
			continue;
		size_t old = strlen(cur->text);
		char *t = realloc(cur->text, old + (size_t)len + 1);
		if (!t)
			break;
		memcpy(t + old, line, (size_t)len + 1);
		cur->text = t;
	}
	free(line);
	fclose(f);
	return 0;
}

/* Write header then the chunks in (point, arrival) order, whole or not at all. */
static int write_chunks(const char *path, const char *header, struct chunk *cs, size_t n,
			struct err *e)
{
	struct outfile *out = outfile_open(path ? path : "-", e);
	if (!out)
		return -1;
	if (n > 1)
		qsort(cs, n, sizeof *cs, cmp_chunk);
	FILE *f = outfile_stream(out);
	if (header)
		fputs(header, f);
	for (size_t i = 0; i < n; i++)
		fputs(cs[i].text, f);
	return outfile_commit(out, e);
}

int cli_sweep(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	int rc = EXIT_OK;
	char dir[] = "/tmp/bounce-sweep-XXXXXX";
	int have_dir = 0;
	struct chunk *cs = NULL;
	size_t ncs = 0;

	struct cli_ov ov0;
	if (cli_setup(o, &s, &ov0, &e))
		goto fail;
	size_t np = n_points(o);
	if (np > 100000) {
		err_set(&e, NULL, 0, 0, "sweep: %zu points is too many (at most 100000)", np);
		goto fail;
	}
	/* Validate every point's settings before running any of them. */
	for (size_t p = 0; p < np; p++) {
		size_t pick[CLI_MAX_SETS];
		struct cli_ov ov;
		point_pick(o, p, pick);
		if (cli_overrides(o, pick, &ov, &e))
			goto fail;
	}
	if (!mkdtemp(dir)) {
		err_internal(&e, "cannot create a temporary directory: %s", strerror(errno));
		goto fail;
	}
	have_dir = 1;
	fflush(NULL);
	pid_t kids[256];
	char paths[256][64];
	for (int j = 0; j < o->jobs; j++) {
		snprintf(paths[j], sizeof paths[j], "%s/part%d", dir, j);
		kids[j] = fork();
		if (kids[j] < 0) {
			err_internal(&e, "fork: %s", strerror(errno));
			goto fail;
		}
		if (kids[j] == 0)
			_exit(sweep_child(o, &s, np, j, paths[j]));
	}
	int worst = EXIT_OK;
	for (int j = 0; j < o->jobs; j++) {
		int st;
		while (waitpid(kids[j], &st, 0) < 0 && errno == EINTR)
			;
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_INTERNAL;
		if (code > worst)
			worst = code;
	}
	if (worst != EXIT_OK || cli_interrupted) {
		rc = cli_interrupted ? EXIT_INTERRUPTED : worst;
		goto out;
	}
	for (int j = 0; j < o->jobs; j++)
		if (read_chunks(paths[j], &cs, &ncs)) {
			err_internal(&e, "cannot read sweep part %s", paths[j]);
			goto fail;
		}
	const char *params[CLI_MAX_SETS + 1] = {"point"};
	for (size_t i = 0; i < o->n_sets; i++)
		params[i + 1] = o->sets[i].name;
	char *header = NULL;
	size_t hlen = 0;
	FILE *hf = open_memstream(&header, &hlen);
	if (!hf) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	rep_write_csv_header(hf, params, o->n_sets + 1);
	fclose(hf);
	int bad = write_chunks(o->csv, header, cs, ncs, &e);
	free(header);
	if (bad)
		goto fail;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	for (size_t i = 0; i < ncs; i++)
		free(cs[i].text);
	free(cs);
	if (have_dir) {
		for (int j = 0; j < o->jobs; j++) {
			char p[64];
			snprintf(p, sizeof p, "%s/part%d", dir, j);
			unlink(p);
		}
		rmdir(dir);
	}
	scen_free(&s);
	return rc;
}

/* `bounce merge A.csv B.csv ... [--csv OUT]`: shards of one sweep back into
 * the sweep's CSV: one header (all must agree), rows ordered by point. */
int cli_merge(const struct cli_opts *o)
{
	struct err e = {0};
	char *header = NULL;
	struct chunk *rows = NULL;
	size_t n = 0;
	int rc = EXIT_OK;
	if (!o->n_rest) {
		err_set(&e, NULL, 0, 0, "merge needs the CSV parts to join");
		goto fail;
	}
	for (size_t i = 0; i < o->n_rest; i++) {
		FILE *f = fopen(o->rest[i], "r");
		if (!f) {
			err_set(&e, o->rest[i], 0, 0, "cannot open: %s", strerror(errno));
			goto fail;
		}
		char *line = NULL;
		size_t cap = 0;
		int lineno = 0;
		while (getline(&line, &cap, f) > 0) {
			lineno++;
			if (lineno == 1) {
				if (!header)
					header = strdup(line);
				else if (strcmp(header, line) != 0) {
					err_set(&e, o->rest[i], 1, 1, "header differs from %s's: not parts of one sweep",
						o->rest[0]);
					free(line);
					fclose(f);
					goto fail;
				}
				continue;
			}
			char *end;
			errno = 0;
			unsigned long long p = strtoull(line, &end, 10);
			if (errno || end == line || *end != ',') {
				err_set(&e, o->rest[i], lineno, 1, "expected a row starting with its point number");
				free(line);
				fclose(f);
				goto fail;
			}
			struct chunk *nr = realloc(rows, (n + 1) * sizeof *nr);
			if (!nr) {
				free(line);
				fclose(f);
				err_internal(&e, "out of memory");
				goto fail;
			}
			rows = nr;
			rows[n].point = p;
			rows[n].seq = n;
			rows[n++].text = strdup(line);
		}
		free(line);
		fclose(f);
	}
	if (write_chunks(o->csv, header, rows, n, &e))
		goto fail;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	for (size_t i = 0; i < n; i++)
		free(rows[i].text);
	free(rows);
	free(header);
	return rc;
}
