/* `bounce sweep` and `bounce merge`: run a scenario over the cartesian
 * product of --set lists. Points are numbered in a fixed order (the first
 * --set varies slowest) and every CSV row starts with its point number, so
 * --jobs (fork) and --shard K/N (many machines, then merge) give exactly
 * the rows of the plain sweep. Expectations are not enforced in sweeps:
 * they are written for one configuration. */
#include "config.h"
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli_inputs.h"
#include "cli/outfile.h"
#include "cli/progress_line.h"
#include "cli/sweep_find.h"
#include "cli/sweep_journal.h"
#include "base/input_file.h"
#include "base/name_map.h"
#include "report/report.h"
#include "run/runner.h"

/* The product of the --set lists' lengths; SIZE_MAX when it does not fit
 * (a product that wrapped would pass the limit's test as a small sweep). */
static size_t n_points(const struct cli_opts *o)
{
	size_t n = 1;
	for (size_t i = 0; i < o->n_sets; i++)
		if (__builtin_mul_overflow(n, o->sets[i].n_values, &n))
			return SIZE_MAX;
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
static int run_point(const struct cli_opts *o, const struct scenario *s, size_t p, FILE *f, int done,
		     struct err *e)
{
	size_t pick[CLI_MAX_SETS];
	struct cli_ov ov;
	point_pick(o, p, pick);
	if (cli_overrides(o, pick, &ov, e))
		return -1;
	cJSON *rep = NULL;
	for (size_t v = 0; v < s->n_variants; v++) {
		if (!cli_selected(o, s, v))
			continue;
		struct runner r;
		if (runner_prepare(&r, s, v, &ov.ov, o->check, e))
			goto fail;
		if (!rep)
			rep = rep_new(s, &r);
		enum run_stop st = cli_simulate(&r, 0, NULL, e);
		if (st == RUN_FAULT || st == RUN_INTERRUPTED) {
			runner_free(&r);
			if (st == RUN_INTERRUPTED)
				err_set(e, NULL, 0, 0, "interrupted at point %zu", p);
			goto fail;
		}
		int bad = rep_add_variant(rep, &r, e);
		cJSON *vs = cJSON_GetObjectItem(rep, "variants");
		bad = bad || cli_replicate(o, s, v, &ov.ov, r.run.seed, cJSON_GetArrayItem(vs, cJSON_GetArraySize(vs) - 1), e);
		runner_free(&r);
		if (bad)
			goto fail;
		/* a variant done: the parent's progress counts it ('v') */
		if (done >= 0 && write(done, "v", 1) < 0)
			done = -1;
	}
	if (cli_add_baseline(o, rep, e))
		goto fail;
	char pbuf[32];
	const char *vals[CLI_MAX_SETS + 1];
	snprintf(pbuf, sizeof pbuf, "%zu", p);
	vals[0] = pbuf;
	for (size_t i = 0; i < o->n_sets; i++)
		vals[i + 1] = o->sets[i].values[pick[i]];
	if (rep && rep_write_csv_rows(rep, vals, o->n_sets + 1, f, e))
		goto fail;
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

/* Child j of a --jobs sweep: its share of the points into its own file,
 * a byte on `done` after each point (the parent's progress). It dies with
 * the parent; interrupted, it removes its file. */
/* Where a worker leaves its failure: beside its part. */
static void failure_path(char out[300], const char *part)
{
	snprintf(out, 300, "%.287s.err", part);
}

/* Whether point p is this run's to make: in the shard, and not kept in
 * the journal of the sweep this one continues. */
static int to_run(const struct cli_opts *o, const struct sweep_journal *jn, size_t p)
{
	return in_shard(o, p) && !(jn && jn->done[p]);
}

static int sweep_child(const struct cli_opts *o, const struct scenario *s, size_t np, int jobs, int j,
		       const char *path, int done, pid_t parent, struct sweep_journal *jn)
{
	struct err e = {0};
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		return EXIT_INTERRUPTED;
	FILE *f = fopen(path, "w");
	if (!f)
		return EXIT_INTERNAL;
	size_t mine = 0;
	char *rows = NULL;
	size_t len = 0;
	for (size_t p = 0; p < np && !cli_interrupted; p++) {
		if (!to_run(o, jn, p))
			continue;
		if (mine++ % (size_t)jobs != (size_t)j)
			continue;
		/* A point's rows are made whole before they go anywhere: into
		 * this worker's part, preceded by the point's number so the
		 * parent can put the points back in order, and into the
		 * journal, which keeps only whole points. */
		FILE *m = open_memstream(&rows, &len);
		if (!m) {
			fclose(f);
			return EXIT_INTERNAL;
		}
		int failed = run_point(o, s, p, m, done, &e);
		if (fclose(m))
			failed = failed ? failed : err_internal(&e, "out of memory");
		if (!failed) {
			fprintf(f, "#%zu\n", p);
			fwrite(rows, 1, len, f);
			if (fflush(f) || (jn && sweep_journal_add(jn, p, rows, len)))
				failed = err_internal(&e, "cannot write point %zu's rows: %s", p, strerror(errno));
		}
		free(rows);
		rows = NULL;
		if (failed) {
			fclose(f);
			if (cli_interrupted) {
				unlink(path);
				return EXIT_INTERRUPTED;
			}
			/* Not printed here: two workers failing at once would
			 * print twice. The parent prints the failure of the
			 * lowest point (sweep_failure), whatever --jobs. */
			char ep[300];
			failure_path(ep, path);
			FILE *ef = fopen(ep, "w");
			if (ef) {
				fprintf(ef, "%zu\n", p);
				err_print(&e, ef);
				fclose(ef);
			} else {
				err_print(&e, stderr);
			}
			return cli_exit_status(&e);
		}
		if (write(done, "p", 1) < 0)
			break;
	}
	if (cli_interrupted) {
		fclose(f);
		unlink(path);
		return EXIT_INTERRUPTED;
	}
	return fclose(f) ? EXIT_INTERNAL : EXIT_OK;
}

/* Signals while the workers run: counted, never fatal to the parent, which
 * passes them on and cleans up (main's handler leaves at the second). */
static volatile sig_atomic_t sweep_signals;

static void on_sweep_signal(int sig)
{
	cli_interrupted = sig;
	sweep_signals++;
}

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Wait for the workers, showing "points done/total, rate, ETA" when
 * progress; the first signal is passed on to them (they stop within a
 * slice), a second kills them. Returns the worst exit status. */
/* Count what the workers report on `done`: 'p' a point, 'v' a variant. */
static void count_done(const char *buf, ssize_t n, size_t *points, size_t *variants)
{
	for (ssize_t i = 0; i < n; i++) {
		*points += buf[i] == 'p';
		*variants += buf[i] == 'v';
	}
}

static int sweep_wait(pid_t *kids, int jobs, int done, size_t total, size_t per_point, int progress)
{
	struct sigaction sa = {.sa_handler = on_sweep_signal}, old[3];
	static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	if (cli_interrupted)
		sweep_signals = 1; /* a signal came before the handler was ours */
	int running = jobs, worst = EXIT_OK, forwarded = 0, stopping = 0;
	size_t finished = 0, vdone = 0, vtotal = total * per_point;
	double t0 = mono_s(), shown = 0;
	while (running) {
		if (sweep_signals > forwarded) {
			forwarded = sweep_signals;
			for (int j = 0; j < jobs; j++)
				if (kids[j] > 0)
					kill(kids[j], forwarded > 1 ? SIGKILL : SIGINT);
		}
		struct pollfd pf = {.fd = done, .events = POLLIN};
		if (poll(&pf, 1, 100) > 0) {
			char buf[256];
			ssize_t n = read(done, buf, sizeof buf);
			if (n > 0)
				count_done(buf, n, &finished, &vdone);
		}
		for (int j = 0; j < jobs; j++) {
			int st;
			if (kids[j] <= 0 || waitpid(kids[j], &st, WNOHANG) != kids[j])
				continue;
			kids[j] = 0;
			running--;
			int code = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_INTERRUPTED;
			if (!WIFEXITED(st) && !cli_interrupted && !stopping) {
				fprintf(stderr, "bounce: sweep worker killed by signal %d\n", WTERMSIG(st));
				code = EXIT_INTERNAL;
			}
			/* Workers we stopped exit 130: not their own failure. */
			if (stopping && !cli_interrupted && code == EXIT_INTERRUPTED)
				continue;
			if (code > worst)
				worst = code;
			if (code != EXIT_OK && !stopping) {
				/* One failed: the sweep has failed, stop the others. */
				stopping = 1;
				for (int k = 0; k < jobs; k++)
					if (kids[k] > 0)
						kill(kids[k], SIGINT);
			}
		}
		double t = mono_s();
		if (progress && t - shown >= 0.25) {
			/* variants, not points, measure the work done: a point of
			 * seven variants is seven runs (the count only grows) */
			char eta[64] = "", left[24];
			double l;
			if (vtotal && vdone < vtotal && progress_eta(t - t0, (double)vdone / (double)vtotal, INFINITY, &l)) {
				progress_seconds(l, left, sizeof left);
				snprintf(eta, sizeof eta, ", ETA %s", left);
			}
			progress_emit(0, "  sweep: %zu/%zu points (%zu/%zu variant runs), %.0f s%s", finished, total, vdone,
				      vtotal, t - t0, eta);
			shown = t;
		}
	}
	/* the last line stays: what the sweep did, and how long it took (the
	 * workers have exited: what they wrote to `done` is all there) */
	if (progress && !worst && !cli_interrupted) {
		char buf[256];
		ssize_t n;
		while ((n = read(done, buf, sizeof buf)) > 0)
			count_done(buf, n, &finished, &vdone);
		progress_emit(1, "  sweep: %zu/%zu points (%zu variant runs) in %.1f s", finished, total, vdone,
			      mono_s() - t0);
		progress_keep();
	}
	progress_erase();
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return worst;
}

/* The message of the workers' failure at the lowest point, printed once:
 * each failed worker left "POINT\nMESSAGE\n" in its failure_path (removed
 * with the parts). */
static void sweep_failure(char (*paths)[288], int jobs)
{
	size_t best = SIZE_MAX;
	char *msg = NULL;
	for (int j = 0; j < jobs; j++) {
		char ep[300];
		failure_path(ep, paths[j]);
		FILE *f = fopen(ep, "r");
		if (!f)
			continue;
		char *line = NULL;
		size_t cap = 0;
		if (getline(&line, &cap, f) > 0) {
			size_t p = strtoull(line, NULL, 10);
			if (p < best && getline(&line, &cap, f) > 0) {
				best = p;
				free(msg);
				msg = line;
				line = NULL;
			}
		}
		free(line);
		fclose(f);
	}
	if (msg)
		fputs(msg, stderr);
	free(msg);
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

/* A --csv that cannot be written is refused before the first point runs
 * (or the first part is read): opened and dropped here, written at the
 * end. Not kept open: the workers forked meanwhile would inherit it. */
static int probe_output(const char *path, struct err *e)
{
	if (!path)
		return 0;
	struct outfile *out = outfile_open(path, e);
	outfile_abort(out);
	return out ? 0 : -1;
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

/* The sweep's CSV header: point, the --set names, the report's columns
 * and those --repeat and --baseline add. Malloc'd; NULL out of memory. */
static char *sweep_header(const struct cli_opts *o)
{
	const char *params[CLI_MAX_SETS + 1] = {"point"};
	for (size_t i = 0; i < o->n_sets; i++)
		params[i + 1] = o->sets[i].name;
	char *header = NULL;
	size_t hlen = 0;
	FILE *hf = open_memstream(&header, &hlen);
	if (!hf)
		return NULL;
	struct rep_csv_extra extra = cli_csv_extra(o);
	rep_write_csv_header(hf, params, o->n_sets + 1, &extra);
	if (fclose(hf)) {
		free(header);
		return NULL;
	}
	return header;
}

/* --find's answers from the rows in point order (write_chunks sorted them
 * when it wrote the CSV; sorted here when it did not). */
static void print_found(const struct sweep_find *find, const char *header, struct chunk *cs, size_t n)
{
	if (n > 1)
		qsort(cs, n, sizeof *cs, cmp_chunk);
	size_t nrows = 0;
	for (size_t i = 0; i < n; i++)
		for (const char *p = cs[i].text; (p = strchr(p, '\n')); p++)
			nrows++;
	const char **rows = malloc((nrows ? nrows : 1) * sizeof *rows);
	if (!rows)
		return;
	nrows = 0;
	for (size_t i = 0; i < n; i++)
		for (const char *p = cs[i].text; *p; p = strchr(p, '\n') + 1)
			rows[nrows++] = p;
	sweep_find_print(find, header, rows, nrows, stdout);
	free(rows);
}

int cli_sweep(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	int rc = EXIT_OK;
	char dir[256] = "";
	char paths[256][288];
	int have_dir = 0, jobs = 0;
	struct chunk *cs = NULL;
	size_t ncs = 0;
	struct cli_inputs inputs = {0};
	char *header = NULL;
	struct sweep_find find;
	struct sweep_journal journal;
	int have_journal = 0;
	char *jpath = NULL;

	struct cli_ov ov0;
	const char *csv_opt = "--csv";
	if (cli_setup(o, &s, &ov0, &e) || cli_inputs_add_scenario(&inputs, o, &s, &e))
		goto fail;
	if (!(header = sweep_header(o))) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	if (o->find && sweep_find_parse(o->find, header, o->n_sets, &find, &e))
		goto fail;
	if (o->resume && (!o->csv || strcmp(o->csv, "-") == 0)) {
		err_set(&e, NULL, 0, 0, "sweep: --resume needs --csv F (the journal it continues is F.partial)");
		goto fail;
	}
	size_t np = n_points(o);
	if (np == SIZE_MAX) {
		err_set(&e, NULL, 0, 0, "sweep: the --set lists make more points than a 64-bit count holds (at most 100000)");
		goto fail;
	}
	if (np > 100000) {
		err_set(&e, NULL, 0, 0, "sweep: %zu points is too many (at most 100000)", np);
		goto fail;
	}
	/* Validate every point's settings before running any of them, and
	 * build the machine of each of this shard's points and variants, as
	 * `run` does for its variants: a define that makes the program fail to
	 * assemble at the last point is refused now, not after hours of the
	 * points before it. */
	for (size_t p = 0; p < np; p++) {
		size_t pick[CLI_MAX_SETS];
		struct cli_ov ov;
		point_pick(o, p, pick);
		if (cli_overrides(o, pick, &ov, &e))
			goto fail;
		for (size_t v = 0; in_shard(o, p) && v < s.n_variants; v++) {
			if (!cli_selected(o, &s, v))
				continue;
			struct runner r;
			if (runner_prepare(&r, &s, v, &ov.ov, o->check, &e))
				goto fail;
			int bad = cli_inputs_add_program(&inputs, &r.prog, &e);
			runner_free(&r);
			if (bad)
				goto fail;
		}
	}
	/* The CSV and its journal may replace no file any point reads (a
	 * define can pick another .include), and must be writable before
	 * anything runs. */
	int journaled = o->csv && strcmp(o->csv, "-") != 0;
	if (journaled) {
		size_t jl = strlen(o->csv) + sizeof ".partial";
		if (!(jpath = malloc(jl))) {
			err_internal(&e, "out of memory");
			goto fail;
		}
		snprintf(jpath, jl, "%s.partial", o->csv);
	}
	const char *outs[2] = {o->csv, jpath}, *out_opts[2] = {csv_opt, "--csv's journal"};
	if ((o->csv && cli_inputs_check(&inputs, outs, out_opts, journaled ? 2 : 1, &e)) || probe_output(o->csv, &e))
		goto fail;
	if (journaled) {
		size_t kl = (o->param_key ? strlen(o->param_key) : 0) + strlen(header) + 1;
		char *key = malloc(kl);
		if (!key) {
			err_internal(&e, "out of memory");
			goto fail;
		}
		snprintf(key, kl, "%s%s", o->param_key ? o->param_key : "", header);
		struct sweep_identity id = {PACKAGE_VERSION, (const char *const *)inputs.paths, inputs.n, key};
		int bad = sweep_journal_open(&journal, o->csv, &id, np, o->resume, &e);
		free(key);
		if (bad)
			goto fail;
		have_journal = 1;
		for (size_t k = 0; k < journal.n_kept; k++) {
			struct chunk *nc = realloc(cs, (ncs + 1) * sizeof *nc);
			char *t = nc ? strdup(journal.kept[k].rows) : NULL;
			if (nc)
				cs = nc;
			if (!t) {
				err_internal(&e, "out of memory");
				goto fail;
			}
			cs[ncs++] = (struct chunk){journal.kept[k].point, 0, t};
		}
	}
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp || strlen(tmp) > sizeof dir - 32) /* too long: /tmp */
		tmp = "/tmp";
	snprintf(dir, sizeof dir, "%s/bounce-sweep-XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		err_internal(&e, "cannot create a temporary directory: %s", strerror(errno));
		goto fail;
	}
	have_dir = 1;
	/* No more workers than points: each gets at least one. */
	size_t mine = 0;
	for (size_t p = 0; p < np; p++)
		mine += to_run(o, have_journal ? &journal : NULL, p);
	jobs = o->jobs < (int)mine ? o->jobs : (int)(mine ? mine : 1);
	int progress = progress_wanted(o->progress, o->quiet);
	int pipefd[2];
	if (pipe(pipefd)) {
		err_internal(&e, "pipe: %s", strerror(errno));
		goto fail;
	}
	fflush(NULL);
	pid_t kids[256] = {0};
	pid_t parent = getpid();
	for (int j = 0; j < jobs; j++) {
		snprintf(paths[j], sizeof paths[j], "%s/part%d", dir, j);
		kids[j] = fork();
		if (kids[j] < 0) {
			err_internal(&e, "fork: %s", strerror(errno));
			for (int k = 0; k < j; k++)
				kill(kids[k], SIGKILL);
			for (int k = 0; k < j; k++)
				waitpid(kids[k], NULL, 0);
			close(pipefd[0]);
			close(pipefd[1]);
			goto fail;
		}
		if (kids[j] == 0) {
			close(pipefd[0]);
			free(header); /* the parent's to write */
			_exit(sweep_child(o, &s, np, jobs, j, paths[j], pipefd[1], parent,
					  have_journal ? &journal : NULL));
		}
	}
	close(pipefd[1]);
	size_t per_point = 0;
	for (size_t v = 0; v < s.n_variants; v++)
		per_point += cli_selected(o, &s, v);
	int worst = sweep_wait(kids, jobs, pipefd[0], mine, per_point, progress);
	close(pipefd[0]);
	if (worst != EXIT_OK || cli_interrupted) {
		rc = cli_interrupted ? EXIT_INTERRUPTED : worst;
		if (cli_interrupted && have_journal)
			fprintf(stderr, "bounce: sweep interrupted; no CSV written; the points it finished are kept in %s "
				"(the same sweep with --resume continues it)\n", journal.path);
		else if (cli_interrupted)
			fprintf(stderr, "bounce: sweep interrupted; no CSV written\n");
		else
			sweep_failure(paths, jobs);
		goto out;
	}
	for (int j = 0; j < jobs; j++)
		if (read_chunks(paths[j], &cs, &ncs)) {
			err_internal(&e, "cannot read sweep part %s", paths[j]);
			goto fail;
		}
	/* With --find and no --csv the answer is the output, not the CSV. */
	if ((o->csv || !o->find) && write_chunks(o->csv, header, cs, ncs, &e))
		goto fail;
	if (have_journal)
		sweep_journal_remove(&journal);
	if (o->find)
		print_found(&find, header, cs, ncs);
	goto out;
fail:
	rc = cli_fail(&e);
	/* The journal is this sweep's state, kept whatever stopped it. */
	if (have_journal)
		fprintf(stderr, "bounce: the points this sweep finished are kept in %s (the same sweep with --resume "
			"continues it)\n", journal.path);
out:
	for (size_t i = 0; i < ncs; i++)
		free(cs[i].text);
	free(cs);
	if (have_dir) {
		for (int j = 0; j < jobs; j++) {
			char p[288], ep[300];
			snprintf(p, sizeof p, "%s/part%d", dir, j);
			unlink(p);
			failure_path(ep, p);
			unlink(ep);
		}
		rmdir(dir);
	}
	cli_inputs_free(&inputs);
	if (have_journal)
		sweep_journal_close(&journal);
	free(jpath);
	free(header);
	scen_free(&s);
	return rc;
}

/* One row of a part, with where it came from for messages. */
struct mrow {
	size_t point;
	size_t file;
	long long line;
	char *params;   /* the parameter fields as written */
	char *scen, *variant;
};

/* Split the CSV fields of line (no newline) into f (up to n); quoted
 * fields lose their quotes and "" becomes ". Returns the count, -1 when
 * malformed. Modifies line. */
int csv_fields(char *line, char **f, int n)
{
	int k = 0;
	char *p = line;
	for (;;) {
		if (k == n)
			return -1;
		if (*p == '"') {
			char *w = ++p;
			f[k++] = w;
			for (;;) {
				if (!*p)
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else
					*w++ = *p++;
			}
			*w = 0;
			if (*p && *p != ',')
				return -1;
		} else {
			f[k++] = p;
			p += strcspn(p, ",");
		}
		if (!*p)
			return k;
		*p++ = 0;
	}
}

static int cmp_mrow(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The most fields a sweep CSV's line may have (its header is read into as
 * many names). */
#define MERGE_FIELDS (CLI_MAX_SETS + 120)

/* Parse row text (file fi, line ln) into r; np is the number of parameter
 * columns between "point" and "scenario". A row must have the header's
 * nhead fields: one cut short or with fields to spare is a damaged part,
 * whose figures the merge would otherwise copy on as they are. */
static int merge_row(const char *path, size_t fi, long long ln, const char *text, size_t np, int nhead,
		     struct mrow *r, struct err *e)
{
	char *copy = strdup(text), *f[MERGE_FIELDS];
	if (!copy)
		return err_internal(e, "out of memory");
	copy[strcspn(copy, "\r\n")] = 0;
	int n = csv_fields(copy, f, (int)(sizeof f / sizeof f[0]));
	char *end;
	errno = 0;
	unsigned long long p = n > 0 ? strtoull(f[0], &end, 10) : 0;
	if (n < (int)np + 3 || errno || end == f[0] || *end || !isdigit((unsigned char)f[0][0])) {
		free(copy);
		return err_set(e, path, ln, 1, "expected a sweep row: the point number, %zu parameter%s, scenario, variant, figures",
			       np, np == 1 ? "" : "s");
	}
	if (n != nhead) {
		free(copy);
		return err_set(e, path, ln, 1, "%d fields where the header has %d: a damaged part", n, nhead);
	}
	/* The parameters as one string, to compare points between parts. */
	size_t len = 0;
	for (size_t i = 1; i <= np; i++)
		len += strlen(f[i]) + 1;
	r->params = malloc(len + 1);
	r->scen = strdup(f[np + 1]);
	r->variant = strdup(f[np + 2]);
	if (r->params) {
		size_t at = 0;
		for (size_t i = 1; i <= np; i++) {
			size_t l = strlen(f[i]);
			if (i > 1)
				r->params[at++] = ',';
			memcpy(r->params + at, f[i], l);
			at += l;
		}
		r->params[at] = 0;
	}
	free(copy);
	r->point = p;
	r->file = fi;
	r->line = ln;
	if (!r->params || !r->scen || !r->variant)
		return err_internal(e, "out of memory");
	return 0;
}

/* The k-th comma-separated field of params: its start and length. */
static const char *param_at(const char *params, size_t k, size_t *len)
{
	while (k--)
		params = strchr(params, ',') + 1;
	*len = strcspn(params, ",");
	return params;
}

/* The points of a sweep are the product of its --set lists, the first
 * varying slowest: each value of a parameter is in as many points as the
 * others, and point p has value (p / stride) % count. A point from another
 * sweep shows as a value fewer points have; a missing last shard as fewer
 * points than the product. rows has `points` blocks of nvar rows. */
static int merge_check_grid(char **files, const struct mrow *rows, size_t points, size_t nvar, size_t np,
			    char **names, struct err *e)
{
	size_t product = 1;
	size_t *count = calloc(points ? points : 1, sizeof *count), *first = calloc(points ? points : 1, sizeof *first);
	size_t *stride = calloc(np + 1, sizeof *stride), *nval = calloc(np + 1, sizeof *nval);
	int rc = 0;
	if (!count || !first || !stride || !nval)
		rc = err_internal(e, "out of memory");
	/* Distinct values of each column, first appearance first, found
	 * through a hash of the values (a search of those seen so far made
	 * 100,000 points take 46 s). */
	for (size_t c = 0; c < np && !rc; c++) {
		size_t nd = 0;
		struct name_map seen = {0};
		for (size_t p = 0; p < points && !rc; p++) {
			size_t l, q = nd;
			const char *v = param_at(rows[p * nvar].params, c, &l);
			int added = name_map_add(&seen, v, l, &q);
			if (added < 0)
				rc = err_internal(e, "out of memory");
			if (added > 0) {
				first[nd] = p;
				count[nd++] = 0;
			}
			count[q]++;
		}
		name_map_free(&seen);
		if (rc)
			break;
		size_t rare = 0;
		for (size_t q = 1; q < nd; q++)
			if (count[q] < count[rare])
				rare = q;
		for (size_t q = 0; q < nd && !rc; q++) {
			if (count[q] == count[rare])
				continue;
			const struct mrow *r = &rows[first[rare] * nvar];
			size_t l, l2;
			const char *v = param_at(r->params, c, &l);
			const char *w = param_at(rows[first[q] * nvar].params, c, &l2);
			rc = err_set(e, files[r->file], r->line, 1,
				     "point %zu has %s=%.*s, which %zu point%s where %s=%.*s is in %zu: "
				     "not one whole sweep (a part from another sweep, or one missing)",
				     r->point, names[c], (int)l, v, count[rare], count[rare] == 1 ? " has" : "s have", names[c],
				     (int)l2, w, count[q]);
		}
		nval[c] = nd;
		product *= nd;
	}
	if (!rc && product != points) {
		const struct mrow *r = &rows[points * nvar - 1];
		rc = err_set(e, files[r->file], r->line, 1,
			     "the last point is %zu but the parameters' values make %zu points: a part is missing",
			     r->point, product);
	}
	/* The order: point p has value (p / stride) % count of each column. */
	if (!rc)
		stride[np] = 1;
	for (size_t c = np; c-- > 0 && !rc;)
		stride[c] = stride[c + 1] * nval[c];
	for (size_t c = 0; c < np && !rc; c++) {
		size_t s = stride[c + 1];
		for (size_t p = 0; p < points && !rc; p++) {
			size_t l, l2;
			size_t want = (p / s) % nval[c];
			/* Point want * s is where value `want` first appears. */
			const char *v = param_at(rows[p * nvar].params, c, &l);
			const char *w = param_at(rows[want * s * nvar].params, c, &l2);
			if (l != l2 || strncmp(v, w, l) != 0) {
				const struct mrow *r = &rows[p * nvar];
				rc = err_set(e, files[r->file], r->line, 1,
					     "point %zu has %s=%.*s where the sweep's order puts %.*s: parts of different sweeps",
					     r->point, names[c], (int)l, v, (int)l2, w);
			}
		}
	}
	free(count);
	free(first);
	free(stride);
	free(nval);
	return rc;
}

/* The parts must be one sweep, whole: one scenario, each point with the
 * same parameters wherever it appears, each (point, variant) once, every
 * point from 0 to the last with the same variants, and as many points as
 * the parameters' values make. rows are sorted by point. */
static int merge_check_rows(char **files, const struct mrow *rows, size_t n, size_t nvar, size_t np,
			    char **names, const struct name_map *vars, struct err *e)
{
	const struct mrow *first = &rows[0];
	if (first->point != 0)
		return err_set(e, files[first->file], first->line, 1,
			       "the first point is %zu: no part has point 0 (a shard is missing)", first->point);
	for (size_t i = 0; i < n; i++) {
		const struct mrow *r = &rows[i];
		if (strcmp(r->scen, first->scen) != 0)
			return err_set(e, files[r->file], r->line, 1,
				       "scenario \"%s\", but %s:%lld is \"%s\": parts of different sweeps", r->scen,
				       files[first->file], first->line, first->scen);
		size_t b = i - (i % nvar); /* the first row of this point's block, if whole */
		const struct mrow *head = &rows[b < n ? b : i];
		if (i % nvar == 0) {
			const struct mrow *prev = i ? &rows[i - 1] : NULL;
			if (prev && r->point == prev->point)
				return err_set(e, files[r->file], r->line, 1,
					       "point %zu has more rows than point 0's %zu variants (%s:%lld has it too): a part given twice?",
					       r->point, nvar, files[prev->file], prev->line);
			if (prev && r->point != prev->point + 1)
				return err_set(e, files[r->file], r->line, 1,
					       "point %zu follows point %zu (%s:%lld): no part has point %zu",
					       r->point, prev->point, files[prev->file], prev->line, prev->point + 1);
		}
		if (r->point != head->point)
			return err_set(e, files[head->file], head->line, 1,
				       "point %zu has %zu row%s, point 0 has %zu (one per variant): a part is missing rows",
				       head->point, i % nvar, i % nvar == 1 ? "" : "s", nvar);
		/* This block's rows before it have point 0's variants, in order
		 * (else it stopped there): r repeats one when point 0 has r's
		 * variant earlier than r's place. */
		size_t k;
		if (name_map_find(vars, r->variant, strlen(r->variant), &k) && k < i % nvar)
			return err_set(e, files[r->file], r->line, 1,
				       "point %zu, variant \"%s\" again (also %s:%lld): every point must appear once (a part given twice?)",
				       r->point, r->variant, files[rows[b + k].file], rows[b + k].line);
		if (strcmp(r->variant, rows[i % nvar].variant) != 0)
			return err_set(e, files[r->file], r->line, 1,
				       "point %zu has variant \"%s\" where point 0 has \"%s\": parts of different sweeps",
				       r->point, r->variant, rows[i % nvar].variant);
		if (strcmp(r->params, head->params) != 0)
			return err_set(e, files[r->file], r->line, 1,
				       "point %zu is %s here but %s at %s:%lld: parts of different sweeps", r->point,
				       r->params, head->params, files[head->file], head->line);
	}
	if (n % nvar) {
		const struct mrow *r = &rows[n - 1];
		return err_set(e, files[r->file], r->line, 1,
			       "point %zu has %zu row%s, point 0 has %zu (one per variant): a part is missing rows",
			       r->point, n % nvar, n % nvar == 1 ? "" : "s", nvar);
	}
	return merge_check_grid(files, rows, n / nvar, nvar, np, names + 1, e);
}

static int merge_check(char **files, const struct mrow *rows, size_t n, size_t np, char **names, struct err *e)
{
	size_t nvar = 1; /* rows[0] is point 0's first (n >= 1) */
	while (nvar < n && rows[nvar].point == rows[0].point)
		nvar++;
	/* Point 0's variants by name, each at its first place: a variant
	 * again in a point is found without a scan of the point's rows
	 * (quadratic in the variants). */
	struct name_map vars = {0};
	int rc = 0;
	for (size_t j = 0; j < nvar && !rc; j++) {
		size_t at = j;
		if (name_map_add(&vars, rows[j].variant, strlen(rows[j].variant), &at) < 0)
			rc = err_internal(e, "out of memory");
	}
	if (!rc)
		rc = merge_check_rows(files, rows, n, nvar, np, names, &vars, e);
	name_map_free(&vars);
	return rc;
}

/* `bounce merge A.csv B.csv ... [--csv OUT]`: shards of one sweep back into
 * the sweep's CSV: one header (all must agree), rows ordered by point, after
 * checking that the parts make one whole sweep (merge_check). */
int cli_merge(const struct cli_opts *o)
{
	struct err e = {0};
	char *header = NULL;
	struct chunk *rows = NULL;
	struct mrow *meta = NULL;
	size_t n = 0, cap_rows = 0, np = 0;
	char *hcopy = NULL, *names[MERGE_FIELDS];
	int nhead = 0;
	int rc = EXIT_OK;
	if (!o->n_rest) {
		err_set(&e, NULL, 0, 0, "merge needs the CSV parts to join");
		goto fail;
	}
	if (o->csv) {
		const char *opt = "--csv";
		struct cli_inputs in = {0};
		int bad = 0;
		for (size_t i = 0; i < o->n_rest && !bad; i++)
			bad = cli_inputs_add(&in, o->rest[i], "a part", &e);
		bad = bad || cli_inputs_check(&in, &o->csv, &opt, 1, &e);
		cli_inputs_free(&in);
		if (bad || probe_output(o->csv, &e))
			goto fail;
	}
	for (size_t i = 0; i < o->n_rest; i++) {
		/* A part must be a regular file: a device would be read without
		 * end and a FIFO without a writer would block the open. */
		struct stat st;
		int errnum, fd = input_open(o->rest[i], &st, &errnum);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
		if (!f) {
			if (fd >= 0)
				close(fd);
			if (fd < 0 && !errnum)
				err_set(&e, o->rest[i], 0, 0, "is %s (expected a sweep CSV)", input_kind(st.st_mode));
			else
				err_sys(&e, o->rest[i], fd < 0 ? errnum : errno, "cannot open");
			goto fail;
		}
		char *line = NULL;
		size_t cap = 0;
		long long lineno = 0;
		int bad = 0;
		ssize_t len;
		while (!bad && (len = getline(&line, &cap, f)) > 0) {
			lineno++;
			if (err_poll(&e)) {
				bad = -1;
				continue;
			}
			if (line[len - 1] != '\n') {
				/* A part's last line may lack its newline (an editor,
				 * `head -c`); the merge writes the rows one a line, and
				 * headers compare alike with and without it. */
				if ((size_t)len + 2 > cap) {
					char *more = realloc(line, (size_t)len + 2);
					if (!more) {
						bad = err_internal(&e, "out of memory");
						continue;
					}
					line = more;
					cap = (size_t)len + 2;
				}
				line[len] = '\n';
				line[len + 1] = 0;
			}
			if (lineno == 1) {
				if (!header) {
					header = strdup(line);
					const char *sc = header ? strstr(header, ",scenario,variant,") : NULL;
					if (!header) {
						bad = err_internal(&e, "out of memory");
						continue;
					}
					if (strncmp(header, "point,", 6) != 0 || !sc) {
						bad = err_set(&e, o->rest[i], 1, 1,
							      "not a sweep CSV: the header must start with point, and have scenario,variant");
						continue;
					}
					for (const char *c = header; c < sc; c++)
						np += *c == ',';
					hcopy = strdup(header);
					if (hcopy) {
						hcopy[strcspn(hcopy, "\r\n")] = 0;
						nhead = csv_fields(hcopy, names, (int)(sizeof names / sizeof names[0]));
					}
					if (!hcopy)
						bad = err_internal(&e, "out of memory");
					else if (np > CLI_MAX_SETS)
						bad = err_set(&e, o->rest[i], 1, 1,
							      "not a sweep CSV: %zu parameters, at most %d", np, CLI_MAX_SETS);
					else if (nhead < 0)
						bad = err_set(&e, o->rest[i], 1, 1,
							      "not a sweep CSV: more than %d columns", MERGE_FIELDS);
				} else if (strcmp(header, line) != 0)
					bad = err_set(&e, o->rest[i], 1, 1,
						      "header differs from %s's: not parts of one sweep", o->rest[0]);
				continue;
			}
			if (n == cap_rows) {
				size_t more = cap_rows ? 2 * cap_rows : 256;
				struct chunk *nr = realloc(rows, more * sizeof *nr);
				if (nr)
					rows = nr;
				struct mrow *nm = nr ? realloc(meta, more * sizeof *nm) : NULL;
				if (!nm) {
					bad = err_internal(&e, "out of memory");
					continue;
				}
				meta = nm;
				cap_rows = more;
			}
			memset(&meta[n], 0, sizeof meta[n]);
			rows[n].text = strdup(line);
			rows[n].seq = n;
			n++;
			bad = rows[n - 1].text ? merge_row(o->rest[i], i, lineno, line, np, nhead, &meta[n - 1], &e) :
			      err_internal(&e, "out of memory");
			rows[n - 1].point = meta[n - 1].point;
		}
		if (!bad && ferror(f))
			bad = err_sys(&e, o->rest[i], errno, "cannot read");
		free(line);
		fclose(f);
		if (bad)
			goto fail;
		if (lineno == 0) {
			err_set(&e, o->rest[i], 1, 1, "empty file: not a sweep CSV");
			goto fail;
		}
	}
	if (n) {
		/* Check a sorted copy: by point, then part and line. */
		struct mrow *sorted = malloc(n * sizeof *sorted);
		if (!sorted) {
			err_internal(&e, "out of memory");
			goto fail;
		}
		memcpy(sorted, meta, n * sizeof *sorted);
		qsort(sorted, n, sizeof *sorted, cmp_mrow);
		int bad = merge_check(o->rest, sorted, n, np, names, &e);
		free(sorted);
		if (bad)
			goto fail;
	} else {
		err_set(&e, o->rest[0], 2, 1, "no rows in any part: nothing to merge");
		goto fail;
	}
	if (err_poll(&e) || write_chunks(o->csv, header, rows, n, &e))
		goto fail;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	for (size_t i = 0; i < n; i++) {
		free(rows[i].text);
		free(meta[i].params);
		free(meta[i].scen);
		free(meta[i].variant);
	}
	free(rows);
	free(meta);
	free(header);
	free(hcopy);
	return rc;
}
