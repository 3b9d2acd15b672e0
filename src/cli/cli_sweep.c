/* `bounce sweep` and `bounce merge`: run a scenario over the cartesian
 * product of --set lists. Points are numbered in a fixed order (the first
 * --set varies slowest) and every CSV row starts with its point number, so
 * --jobs (threads of the shared work pool) and --shard K/N (many machines,
 * then merge) give exactly the rows of the plain sweep. Expectations are
 * not enforced in sweeps: they are written for one configuration. */
#include "config.h"
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
#include "run/work_pool.h"

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

/* A point's result on its way from a worker to the caller's thread, which
 * takes the points in order: job k uses slot k % the ring's size, free
 * again once the caller has taken job k - size (the pool starts no job
 * further ahead than that). */
enum point_state { POINT_OK, POINT_FAILED, POINT_STOPPED };

struct point_slot {
	atomic_size_t job;      /* the job that last filled this slot */
	atomic_int stop;        /* its run stops early: a signal, or an earlier point failed */
	enum point_state state; /* STOPPED: by its stop or a signal, not its own failure */
	char *rows;             /* its CSV rows (POINT_OK) */
	struct err e;           /* why it failed (POINT_FAILED) */
};

struct sweep_run {
	const struct cli_opts *o;
	const struct scenario *s;
	struct sweep_journal *journal; /* NULL: none (no --csv file) */
	const size_t *todo;            /* job k runs point todo[k] */
	size_t n_todo, per_point;      /* per_point: the variants a point runs */
	struct point_slot *ring;
	size_t ring_n;
	int jobs;
	struct work_pool *pool;
	atomic_size_t points_done, variants_done;
	atomic_size_t first_failed;    /* the lowest job that failed; SIZE_MAX: none */
	int progress;
	double t0, shown;
};

/* Run one point and append its CSV rows to f; m stops it early (the pool's
 * cancel) and ticks the caller's progress. */
static int run_point(struct sweep_run *sw, size_t p, FILE *f, struct cli_meter *m, struct err *e)
{
	const struct cli_opts *o = sw->o;
	const struct scenario *s = sw->s;
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
		if (!rep && !(rep = rep_new(s, &r))) {
			runner_free(&r);
			err_internal(e, "out of memory");
			goto fail;
		}
		enum run_stop st = cli_simulate(&r, 0, m, e);
		if (st == RUN_FAULT || st == RUN_INTERRUPTED) {
			runner_free(&r);
			if (st == RUN_INTERRUPTED)
				err_set(e, NULL, 0, 0, "interrupted at point %zu", p);
			goto fail;
		}
		int bad = rep_add_variant(rep, &r, e);
		cJSON *vs = cJSON_GetObjectItem(rep, "variants");
		bad = bad || cli_replicate(o, s, v, &ov.ov, r.run.seed, m, cJSON_GetArrayItem(vs, cJSON_GetArraySize(vs) - 1), e);
		runner_free(&r);
		if (bad)
			goto fail;
		/* the progress line counts variants: a point of seven is seven runs */
		atomic_fetch_add(&sw->variants_done, 1);
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

/* Whether point p is this run's to make: in the shard, and not kept in
 * the journal of the sweep this one continues. */
static int to_run(const struct cli_opts *o, const struct sweep_journal *jn, size_t p)
{
	return in_shard(o, p) && !(jn && jn->done[p]);
}

/* "points done/total, rate, ETA" on the caller's thread: from the pool's
 * wait, or, with one job run on the caller's thread, after each slice of
 * it. */
static void sweep_tick(void *ctx)
{
	struct sweep_run *sw = ctx;
	double t = progress_now();
	if (!sw->progress || t - sw->shown < 0.25)
		return;
	/* variants, not points, measure the work done: a point of seven
	 * variants is seven runs (the count only grows) */
	size_t vdone = atomic_load(&sw->variants_done), vtotal = sw->n_todo * sw->per_point;
	char eta[64] = "", left[24];
	double l;
	if (vtotal && vdone < vtotal && progress_eta(t - sw->t0, (double)vdone / (double)vtotal, INFINITY, &l)) {
		progress_seconds(l, left, sizeof left);
		snprintf(eta, sizeof eta, ", ETA %s", left);
	}
	progress_emit(0, "  sweep: %zu/%zu points (%zu/%zu variant runs), %.0f s%s", atomic_load(&sw->points_done),
		      sw->n_todo, vdone, vtotal, t - sw->t0, eta);
	sw->shown = t;
}

/* Job k of the pool: point todo[k], its rows made whole in memory before
 * they go anywhere: into the journal (which keeps only whole points) as
 * soon as the point is done, whatever the order, and to the caller, which
 * puts them in point order. */
/* Job k failed on its own: the jobs after it stop (those started now and
 * those to come), the ones before it go on. So the failure reported is
 * always the lowest point's that fails, whatever --jobs and whichever
 * failed first on the clock. */
static void stop_after(struct sweep_run *sw, size_t k)
{
	size_t f = atomic_load(&sw->first_failed);
	while (k < f && !atomic_compare_exchange_weak(&sw->first_failed, &f, k))
		;
	for (size_t i = 0; i < sw->ring_n; i++) {
		size_t j = atomic_load(&sw->ring[i].job);
		if (j != SIZE_MAX && j > k)
			atomic_store(&sw->ring[i].stop, 1);
	}
}

static void run_job(void *ctx, size_t k, const atomic_int *cancelled)
{
	struct sweep_run *sw = ctx;
	struct point_slot *sl = &sw->ring[k % sw->ring_n];
	size_t p = sw->todo[k], len = 0;
	atomic_store(&sl->job, k);
	atomic_store(&sl->stop, 0);
	sl->rows = NULL;
	err_clear(&sl->e);
	/* after the stop's reset: a failure now either is seen here or sets it */
	if (atomic_load(&sw->first_failed) < k || atomic_load(cancelled)) {
		sl->state = POINT_STOPPED;
		return;
	}
	struct cli_meter m = {.stop = &sl->stop};
	if (sw->jobs <= 1) {
		m.tick = sweep_tick;
		m.tick_ctx = sw;
	}
	FILE *f = open_memstream(&sl->rows, &len);
	int bad = f ? run_point(sw, p, f, &m, &sl->e) : err_internal(&sl->e, "out of memory");
	if (f && fclose(f) && !bad)
		bad = err_internal(&sl->e, "out of memory");
	if (!bad && sw->journal && sweep_journal_add(sw->journal, p, sl->rows, len))
		bad = err_internal(&sl->e, "cannot write point %zu's rows: %s", p, strerror(errno));
	if (!bad) {
		sl->state = POINT_OK;
		atomic_fetch_add(&sw->points_done, 1);
		return;
	}
	free(sl->rows);
	sl->rows = NULL;
	/* Stopped from outside, a point fails as it stops: not its own failure. */
	sl->state = atomic_load(&sl->stop) || atomic_load(cancelled) || err_poll(NULL) ? POINT_STOPPED
										   : POINT_FAILED;
	if (sl->state == POINT_FAILED)
		stop_after(sw, k);
}

/* After the pool stopped at job `from`: the failure of the lowest point,
 * whatever --jobs (jobs after `from` that ran are still in the ring);
 * NULL when none failed on its own. */
static const struct point_slot *first_failure(const struct sweep_run *sw, size_t from)
{
	for (size_t k = from; k < sw->n_todo && k < from + sw->ring_n; k++) {
		const struct point_slot *sl = &sw->ring[k % sw->ring_n];
		if (atomic_load(&sl->job) == k && sl->state == POINT_FAILED)
			return sl;
	}
	return NULL;
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

/* Add a chunk of rows, taking text (freed here when it cannot be kept). */
static int add_chunk(struct chunk **cs, size_t *n, size_t point, char *text, struct err *e)
{
	struct chunk *nc = text ? realloc(*cs, (*n + 1) * sizeof *nc) : NULL;
	if (!nc) {
		free(text);
		return err_internal(e, "out of memory");
	}
	*cs = nc;
	nc[*n] = (struct chunk){point, *n, text};
	(*n)++;
	return 0;
}

/* A --csv that cannot be written is refused before the first point runs
 * (or the first part is read): opened and dropped here, written at the
 * end, once every point is in. */
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

/* Run this sweep's points on the work pool and add their rows to cs.
 * 0 when every point is in; -1 with e set; else the exit status, with a
 * point's failure printed (once: the lowest point's, whatever --jobs) or,
 * for EXIT_INTERRUPTED, nothing printed yet. */
static int run_points(struct sweep_run *sw, struct chunk **cs, size_t *ncs, struct err *e)
{
	/* Finished points wait for the earliest running one to be taken in
	 * order; their rows are small, so many may wait, and a long point
	 * holds the others back only this far. */
	size_t ahead = 64 * (size_t)(sw->jobs > 1 ? sw->jobs : 1);
	sw->ring_n = sw->n_todo < ahead ? sw->n_todo : ahead;
	if (!sw->ring_n)
		sw->ring_n = 1;
	if (!(sw->ring = calloc(sw->ring_n, sizeof *sw->ring)))
		return err_internal(e, "out of memory");
	for (size_t i = 0; i < sw->ring_n; i++) {
		atomic_init(&sw->ring[i].job, SIZE_MAX);
		atomic_init(&sw->ring[i].stop, 0);
	}
	atomic_init(&sw->first_failed, SIZE_MAX);
	sw->t0 = sw->shown = progress_now();
	if (!(sw->pool = work_pool_start(sw->n_todo, sw->jobs, sw->ring_n, run_job, sw, e))) {
		free(sw->ring);
		sw->ring = NULL;
		return -1;
	}
	size_t k = 0;
	int bad = 0;
	while (k < sw->n_todo && !bad) {
		if (work_pool_wait(sw->pool, k, sw->jobs > 1 ? sweep_tick : NULL, sw))
			break; /* a signal, or a failed point stopped the pool */
		struct point_slot *sl = &sw->ring[k % sw->ring_n];
		if (sl->state != POINT_OK)
			break;
		bad = add_chunk(cs, ncs, sw->todo[k], sl->rows, e);
		sl->rows = NULL;
		work_pool_release(sw->pool, k++);
	}
	/* What still runs lies after job k: it stops (a signal stops it too,
	 * through the runner's own poll). */
	if (k < sw->n_todo)
		stop_after(sw, k);
	work_pool_free(sw->pool);
	sw->pool = NULL;
	progress_erase();
	const struct point_slot *failed = k < sw->n_todo ? first_failure(sw, k) : NULL;
	int rc = 0;
	if (cli_interrupted)
		rc = EXIT_INTERRUPTED;
	else if (bad)
		rc = -1;
	else if (failed) {
		err_print(&failed->e, stderr);
		rc = cli_exit_status(&failed->e);
	} else if (k < sw->n_todo) {
		/* the pool stops at a signal or a failure, and neither came */
		rc = err_internal(e, "sweep: stopped at point %zu without a reason", sw->todo[k]);
	}
	for (size_t i = 0; i < sw->ring_n; i++)
		free(sw->ring[i].rows);
	free(sw->ring);
	sw->ring = NULL;
	return rc;
}

int cli_sweep(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	int rc = EXIT_OK;
	struct chunk *cs = NULL;
	size_t ncs = 0;
	struct cli_inputs inputs = {0};
	char *header = NULL;
	struct sweep_find find;
	struct sweep_journal journal;
	int have_journal = 0;
	char *jpath = NULL;
	size_t *todo = NULL;

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
		for (size_t k = 0; k < journal.n_kept; k++)
			if (add_chunk(&cs, &ncs, journal.kept[k].point, strdup(journal.kept[k].rows), &e))
				goto fail;
	}
	/* The points left to run, in order; no more workers than points. */
	if (!(todo = malloc((np ? np : 1) * sizeof *todo))) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	struct sweep_run sw = {.o = o, .s = &s, .journal = have_journal ? &journal : NULL, .todo = todo,
			       .progress = progress_wanted(o->progress, o->quiet)};
	for (size_t p = 0; p < np; p++)
		if (to_run(o, sw.journal, p))
			todo[sw.n_todo++] = p;
	for (size_t v = 0; v < s.n_variants; v++)
		sw.per_point += cli_selected(o, &s, v);
	sw.jobs = o->jobs < (int)sw.n_todo ? o->jobs : (int)(sw.n_todo ? sw.n_todo : 1);
	int ran = run_points(&sw, &cs, &ncs, &e);
	if (ran < 0)
		goto fail;
	if (ran == EXIT_INTERRUPTED) {
		rc = EXIT_INTERRUPTED;
		if (have_journal)
			fprintf(stderr, "bounce: sweep interrupted; no CSV written; the points it finished are kept in %s "
				"(the same sweep with --resume continues it)\n", journal.path);
		else
			fprintf(stderr, "bounce: sweep interrupted; no CSV written\n");
		goto out;
	}
	if (ran) {
		rc = ran;
		goto out;
	}
	/* the last line stays: what the sweep did, and how long it took */
	if (sw.progress) {
		progress_emit(1, "  sweep: %zu/%zu points (%zu variant runs) in %.1f s", atomic_load(&sw.points_done),
			      sw.n_todo, atomic_load(&sw.variants_done), progress_now() - sw.t0);
		progress_keep();
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
	free(todo);
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
