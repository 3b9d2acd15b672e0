/* The application state behind the screen: one machine per variant run in
 * lockstep on one simulated clock, paced by the speed control; the engine
 * observers' entry points that feed history, heat and particles; and the
 * per-frame snapshot that everything draws from. */
#include "config.h"
#include "ui_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_engine.h"

#define HEAT_TAU 1.0            /* seconds: the heat map's memory */
#define CHUNKS_PER_FRAME 8      /* window mode checks the clock this often */

void ui_app_status(struct ui_app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->status, sizeof a->status, fmt, ap);
	va_end(ap);
	a->status_until = a->t_disp + 2.5;
}

const struct ui_snap *ui_app_snap(const struct ui_app *a, int v)
{
	if (a->scrub) {
		const struct ui_snap *s = ui_hist_snap(&a->var[v].hist, a->scrub);
		if (s)
			return s;
	}
	return &a->var[v].live;
}

const struct ui_txn_log *ui_var_log(const struct ui_var *v, uint64_t line)
{
	for (int i = 0; i < UI_MAX_ROWS; i++)
		if (v->log[i].line == line + 1)
			return &v->log[i];
	return NULL;
}

static void log_txn(struct ui_txn_log *l, const struct ui_txn *x);

/* Logs follow the displayed lines: a line that lost its row gives its log
 * to a line that gained one. */
static void sync_logs(struct ui_var *v)
{
	const struct ui_snap *s = &v->live;
	for (int i = 0; i < UI_MAX_ROWS; i++) {
		int keep = 0;
		for (int r = 0; r < s->nrows && !keep; r++)
			keep = v->log[i].line == s->rows[r].addr + 1;
		if (!keep)
			v->log[i].line = 0;
	}
	for (int r = 0; r < s->nrows; r++) {
		if (ui_var_log(v, s->rows[r].addr))
			continue;
		for (int i = 0; i < UI_MAX_ROWS; i++)
			if (!v->log[i].line) {
				memset(&v->log[i], 0, sizeof v->log[i]);
				v->log[i].line = s->rows[r].addr + 1;
				for (uint32_t k = 0; k < v->recent_n; k++) {
					const struct ui_txn *x = &v->recent[(v->recent_head + k) % UI_RECENT];
					if (x->t.line == s->rows[r].addr)
						log_txn(&v->log[i], x);
				}
				break;
			}
	}
}

static void log_txn(struct ui_txn_log *l, const struct ui_txn *x)
{
	l->t[l->n++ % UI_LINE_LOG] = *x;
	if (!x->t.hitm)
		return;
	/* Keep the busiest HITM causes: count a known one, else replace the
	 * least counted (a newcomer must earn its place again). */
	int lo = 0;
	for (int i = 0; i < UI_HITM_PCS; i++) {
		if (l->hitm[i].n && l->hitm[i].pc == x->pc) {
			l->hitm[i].n++;
			return;
		}
		if (l->hitm[i].n < l->hitm[lo].n)
			lo = i;
	}
	l->hitm[lo].pc = x->pc;
	l->hitm[lo].n = 1;
}

void ui_var_on_txn(struct ui_var *v, const struct ms_txn *t, uint32_t pc, const int *inval, int ninval)
{
	struct ui_txn x = {*t, pc};
	v->last = x;
	v->has_last = 1;
	if (v->recent_n == UI_RECENT) {
		v->recent_head = (v->recent_head + 1) % UI_RECENT;
		v->recent_n--;
	}
	v->recent[(v->recent_head + v->recent_n++) % UI_RECENT] = x;
	if (t->bounce)
		v->heat[t->core] += 1.0f;
	for (int i = 0; i < UI_MAX_ROWS; i++)
		if (v->log[i].line == t->line + 1) {
			log_txn(&v->log[i], &x);
			break;
		}
	if (!v->visible)
		return;
	int from = t->supplier, to = t->core;
	if (from == MS_NO_CORE) /* memory: lines are homed round-robin over sockets */
		from = UI_MEM((int)((t->line / v->line_size) % (uint64_t)v->nsockets));
	if (v->folded) {
		/* A thousand cores: traffic between sockets; what stays inside a
		 * socket shows in the heat map instead. */
		if (!UI_IS_MEM(from))
			from = UI_SOCK(from / v->cps);
		to = UI_SOCK(to / v->cps);
	}
	if (from != to && !(v->folded && UI_IS_MEM(from) && UI_MEM_SOCK(from) == UI_SOCK_OF(to))) {
		if (t->req == MS_GETS)
			ui_xfers_add(&v->xf, from, to, UI_XFER_SHARE);
		else if (t->req == MS_GETM)
			ui_xfers_add(&v->xf, from, to, UI_XFER_RFO);
	}
	for (int i = 0; i < ninval; i++) {
		int dst = v->folded ? UI_SOCK(inval[i] / v->cps) : inval[i];
		if (dst != to)
			ui_xfers_add(&v->xf, to, dst, UI_XFER_INVAL);
	}
}

void ui_var_on_activity(struct ui_var *v, int core, uint64_t t, int act)
{
	ui_hist_activity(&v->hist, core, t, act);
}

void ui_var_on_mark(struct ui_var *v, int core, uint64_t t, const char *name)
{
	ui_hist_mark(&v->hist, core, t, name);
}

static double default_speed(const struct cpu_model *m)
{
	/* A few hundred cache-to-cache transfers per displayed second on a
	 * contended line: slow enough to follow, fast enough to see a pattern. */
	double s = 200.0 * cpu_model_socket_transfer(m);
	return s < 1000 ? 1000 : s;
}

int ui_app_init(struct ui_app *a, const struct scenario *sc, const struct ui_options *opt,
		struct err *e)
{
	memset(a, 0, sizeof *a);
	a->sc = sc;
	a->sel_core = -1;
	a->tl_zoom = 1;
	a->tl_follow = 1;
	a->drag_x = -1;
	a->mouse_x = a->mouse_y = -1;
	int nsv = ui_source_nvariants(sc), ref = 0;
	if (nsv > UI_MAX_VARIANTS)
		nsv = UI_MAX_VARIANTS;
	const struct scen_overrides *ov = opt ? opt->overrides : NULL;
	if (opt && opt->variant) {
		ref = scen_find_variant(sc, opt->variant);
		if (ref < 0 || ref >= nsv)
			return err_set(e, NULL, 0, 0, "view: no variant named '%s' in %s", opt->variant,
				       sc->file);
	}
	/* One screen layout for all variants: side by side only makes sense on
	 * one machine shape, the picked variant's (--variant, else the
	 * first's). Variants of another shape are left out, unbuilt, and the
	 * header says so; --variant picks one of them. */
	struct cpu_model pm;
	if (ui_source_cpu(sc, ref, ov, &pm, e))
		return -1;
	a->ncores = pm.cores;
	a->cps = cpu_model_cpus_in_socket0(&pm);
	a->nsockets = cpu_model_sockets(&pm);
	snprintf(a->cpu, sizeof a->cpu, "%s, %s %s", pm.name, cpu_protocol_name(pm.protocol),
		 cpu_fabric_name(pm.fabric));
	char first_out[48] = "";
	snprintf(a->title, sizeof a->title, "%s", sc->name ? sc->name : sc->file);
	for (int i = 0; i < nsv; i++) {
		struct cpu_model vm;
		if (ui_source_cpu(sc, i, ov, &vm, e))
			return -1;
		if (vm.cores != a->ncores || cpu_model_cpus_in_socket0(&vm) != a->cps) {
			if (!a->left_out++)
				snprintf(first_out, sizeof first_out, "%s", ui_source_variant_name(sc, i));
			continue;
		}
		struct ui_var *v = &a->var[a->nvar];
		snprintf(v->name, sizeof v->name, "%s", ui_source_variant_name(sc, i));
		v->m = ui_machine_create(sc, i, ov, v, e);
		if (!v->m)
			return -1;
		const struct cpu_model *m = ui_machine_cpu(v->m);
		if (i == ref)
			a->cur = a->nvar;
		a->nvar++;
		v->nsockets = a->nsockets;
		v->line_size = m->line_size;
		v->cps = a->cps;
		v->folded = a->ncores > UI_FOLD_CORES;
		v->visible = i == ref;
		v->heat = calloc((size_t)a->ncores, sizeof *v->heat);
		v->recent = malloc(UI_RECENT * sizeof *v->recent);
		if (!v->heat || !v->recent || ui_hist_init(&v->hist, a->ncores, nsv) || ui_snap_alloc(&v->live, a->ncores) ||
		    ui_xfers_init(&v->xf))
			return err_internal(e, "out of memory");
		if (v->folded) {
			/* Socket-to-socket flows: fewer, slower particles keep
			 * the heat map underneath readable. */
			v->xf.gap = 0.3f;
			v->xf.max_live = 160;
			v->xf.max_per_frame = 16;
		}
		ui_machine_attach(v->m);
	}
	if (a->left_out)
		ui_app_status(a, "left out: '%s'%s, of another machine shape than '%s' (%d cores, %d per socket); "
			      "--variant picks one", first_out, a->left_out > 1 ? " and others" : "",
			      a->var[a->cur].name, a->ncores, a->cps);
	a->speed = opt && opt->speed > 0 ? opt->speed : default_speed(ui_machine_cpu(a->var[0].m));
	a->other = a->nvar > 1 ? (a->cur + 1) % a->nvar : a->cur;
	a->split = opt && opt->split && a->nvar > 1;
	if (ui_layout_alloc(&a->lay, a->ncores, a->cps) || ui_layout_alloc(&a->lay2, a->ncores, a->cps))
		return err_internal(e, "out of memory");
	return 0;
}

void ui_app_free(struct ui_app *a)
{
	for (int i = 0; i < a->nvar; i++) {
		struct ui_var *v = &a->var[i];
		ui_machine_destroy(v->m);
		ui_hist_free(&v->hist);
		ui_snap_free(&v->live);
		ui_xfers_free(&v->xf);
		free(v->heat);
		free(v->recent);
	}
	ui_layout_free(&a->lay);
	ui_layout_free(&a->lay2);
	memset(a, 0, sizeof *a);
}

static int rows_wanted(const struct ui_app *a)
{
	int n = 0;
	for (int i = 0; i < a->nvar; i++)
		if (a->var[i].live.nrows > n)
			n = a->var[i].live.nrows;
	return n;
}

void ui_app_layout(struct ui_app *a, struct ui_text *t, int w, int h)
{
	a->lay_rows = rows_wanted(a);
	int np = a->split ? 2 : 1;
	ui_layout_compute(&a->lay, t, w, h, a->ncores, a->nvar, a->lay_rows, 0, np);
	ui_layout_compute(&a->lay2, t, w, h, a->ncores, a->nvar, a->lay_rows, 1, np);
}

/* Refresh every variant's live snapshot and record it for scrubbing. */
static void snapshot(struct ui_app *a, double dt, int record)
{
	float decay = (float)exp(-dt / HEAT_TAU);
	for (int i = 0; i < a->nvar; i++) {
		struct ui_var *v = &a->var[i];
		struct ui_snap *s = &v->live;
		ui_machine_snap(v->m, s, UI_MAX_ROWS);
		sync_logs(v);
		/* This frame's transfers, for paused and scrubbed frames; a
		 * frame that did not advance keeps the last ones it saw. */
		if (record) {
			s->nxrec = 0;
			for (int k = 0; k < v->xf.npend && s->nxrec < UI_SNAP_XFERS; k++) {
				const struct ui_particle *p = &v->xf.pend[k];
				s->xrec[s->nxrec++] = (struct ui_xrec){p->from, p->to, p->kind, p->weight};
			}
		}
		for (int c = 0; c < a->ncores; c++) {
			s->heat[c] = v->heat[c];
			v->heat[c] *= decay;
		}
		if (record)
			ui_hist_push_snap(&v->hist, s);
	}
}

static int run_to(struct ui_app *a, uint64_t until, struct err *e)
{
	for (int i = 0; i < a->nvar; i++) {
		struct ui_var *v = &a->var[i];
		if (v->finished)
			continue;
		int rc = ui_machine_run(v->m, until, e);
		if (rc < 0)
			return -1;
		v->finished = rc;
	}
	return 0;
}

static int all_finished(const struct ui_app *a)
{
	for (int i = 0; i < a->nvar; i++)
		if (!a->var[i].finished)
			return 0;
	return 1;
}

int ui_app_tick(struct ui_app *a, double dt, double budget_ms, struct err *e)
{
	int advanced = 0;
	a->lagging = 0;
	uint64_t t_start = SDL_GetPerformanceCounter();
	double freq = (double)SDL_GetPerformanceFrequency();
	for (int i = 0; i < a->nvar; i++)
		a->var[i].visible = (i == a->cur || (a->split && i == a->other)) && !a->scrub;
	if (!a->paused && !a->scrub && !all_finished(a)) {
		uint64_t from = a->target;
		a->target += (uint64_t)llround(a->speed * dt);
		if (budget_ms <= 0) {
			if (run_to(a, a->target, e))
				return -1;
		} else {
			/* Variants advance together in chunks so that a slow
			 * frame leaves them at the same simulated time. */
			uint64_t chunk = (a->target - from) / CHUNKS_PER_FRAME + 1;
			uint64_t t = from;
			while (t < a->target) {
				t = t + chunk < a->target ? t + chunk : a->target;
				if (run_to(a, t, e))
					return -1;
				if ((SDL_GetPerformanceCounter() - t_start) * 1000.0 / freq > budget_ms &&
				    t < a->target) {
					a->lagging = 1;
					a->target = t;
					break;
				}
			}
		}
		advanced = 1;
	}
	a->last_sim_ms = (SDL_GetPerformanceCounter() - t_start) * 1000.0 / freq;
	a->t_disp += dt;
	a->frame++;
	snapshot(a, dt, advanced);
	/* More hot lines found: give the table the room (the layout is cheap). */
	if (rows_wanted(a) > a->lay_rows && a->lay.w)
		ui_app_layout(a, NULL, a->lay.w, a->lay.h);
	for (int i = 0; i < a->nvar; i++) {
		struct ui_xfers *x = &a->var[i].xf;
		if (i == a->cur || (a->split && i == a->other)) {
			ui_xfers_commit(x, (float)a->t_disp);
			ui_xfers_expire(x, (float)a->t_disp);
		} else {
			x->npend = 0;
		}
	}
	return 0;
}

int ui_app_step(struct ui_app *a, struct err *e)
{
	struct ui_var *v = &a->var[a->cur];
	a->paused = 1;
	a->scrub = 0;
	v->visible = 1;
	if (!v->finished) {
		v->has_last = 0;
		int rc = ui_machine_step(v->m, e);
		if (rc < 0)
			return -1;
		v->finished = rc;
		if (v->has_last)
			ui_machine_describe(v->m, &v->last, a->step_what, sizeof a->step_what, a->step_why,
					    sizeof a->step_why);
		else {
			snprintf(a->step_what, sizeof a->step_what, "no transaction: the run %s",
				 v->finished ? "has finished" : "made none in 100000 events");
			a->step_why[0] = 0;
		}
	}
	/* The other variants follow to the same simulated time. */
	uint64_t now = ui_machine_now(v->m);
	if (now > a->target)
		a->target = now;
	for (int i = 0; i < a->nvar; i++)
		if (i != a->cur && !a->var[i].finished) {
			int rc = ui_machine_run(a->var[i].m, a->target, e);
			if (rc < 0)
				return -1;
			a->var[i].finished = rc;
		}
	snapshot(a, 0, 1);
	return 0;
}

int ui_app_restart(struct ui_app *a, struct err *e)
{
	for (int i = 0; i < a->nvar; i++) {
		struct ui_var *v = &a->var[i];
		ui_hist_reset(&v->hist);
		ui_xfers_clear(&v->xf);
		memset(v->heat, 0, (size_t)a->ncores * sizeof *v->heat);
		memset(v->log, 0, sizeof v->log);
		v->recent_n = v->recent_head = 0;
		v->has_last = 0;
		if (ui_machine_restart(v->m, e))
			return -1;
		v->finished = 0;
	}
	a->target = 0;
	a->scrub = 0;
	a->step_what[0] = a->step_why[0] = 0;
	return 0;
}
