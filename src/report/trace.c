/* Trace-event writer (trace.h). Events are streamed as they happen, so a
 * trace costs memory per core, not per event; timestamps are simulated
 * microseconds so the viewer's time axis reads as the machine's. */
#include "config.h"
#include "report/trace.h"

#include <inttypes.h>
#include <stdlib.h>

struct trace {
	struct runner *r;
	FILE *f;
	int pid;
	double us_per_cycle;
	uint64_t events;
	uint64_t *seg_start;
	uint8_t *seg_act;
};

static int room(struct trace *t)
{
	if (t->events == TRACE_MAX_EVENTS)
		fprintf(t->f, ",\n{\"name\":\"trace truncated at %d events\",\"ph\":\"i\",\"s\":\"g\",\"pid\":%d,\"tid\":0,\"ts\":0}",
			TRACE_MAX_EVENTS, t->pid);
	return t->events++ < TRACE_MAX_EVENTS;
}

static void close_segment(struct trace *t, int core, uint64_t end)
{
	uint8_t act = t->seg_act[core];
	if (act == CORE_ACT_IDLE || act == CORE_ACT_HALTED || end <= t->seg_start[core] || !room(t))
		return;
	fprintf(t->f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f}",
		core_activity_name((enum core_activity)act), t->pid, core,
		(double)t->seg_start[core] * t->us_per_cycle,
		(double)(end - t->seg_start[core]) * t->us_per_cycle);
}

static void on_activity(void *ctx, int core, uint64_t cycle, enum core_activity act)
{
	struct trace *t = ctx;
	close_segment(t, core, cycle);
	t->seg_start[core] = cycle;
	t->seg_act[core] = (uint8_t)act;
}

static void on_mark(void *ctx, int core, uint64_t cycle, const char *name)
{
	struct trace *t = ctx;
	if (room(t))
		fprintf(t->f, ",\n{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f}",
			name, t->pid, core, (double)cycle * t->us_per_cycle);
}

static void on_txn(void *ctx, const struct ms_txn *x)
{
	struct trace *t = ctx;
	if (!room(t))
		return;
	fprintf(t->f, ",\n{\"name\":\"%s\",\"cat\":\"coherence\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
		"\"ts\":%.4f,\"dur\":%.4f,\"args\":{\"line\":\"0x%" PRIx64 "\",\"from\":\"%s\",\"to\":\"%s\","
		"\"supplier\":%d,\"invalidated\":%u,\"bounce\":%d,\"hitm\":%d}}",
		ms_req_name(x->req), t->pid, 10000 + x->core, (double)x->start * t->us_per_cycle,
		(double)(x->done - x->start) * t->us_per_cycle, x->line, ms_state_name(x->from),
		ms_state_name(x->to), x->supplier, x->invalidated, x->bounce, x->hitm);
}

struct trace *trace_start(struct runner *r, FILE *f, int pid, int first)
{
	struct trace *t = calloc(1, sizeof *t);
	int n = r->run.cores;
	if (!t)
		return NULL;
	t->seg_start = calloc((size_t)n, sizeof *t->seg_start);
	t->seg_act = malloc((size_t)n);
	if (!t->seg_start || !t->seg_act) {
		free(t->seg_start);
		free(t->seg_act);
		free(t);
		return NULL;
	}
	for (int c = 0; c < n; c++)
		t->seg_act[c] = CORE_ACT_IDLE;
	t->r = r;
	t->f = f;
	t->pid = pid;
	t->us_per_cycle = 1.0 / (r->run.cpu.ghz * 1000.0);
	fprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"variant %s\"}}",
		first ? "{\"traceEvents\":[\n" : ",\n", pid, r->run.variant);
	for (int c = 0; c < n; c++) {
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"core %d\"}}",
			pid, c, c);
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"core %d memory\"}}",
			pid, 10000 + c, c);
	}
	struct sim_observer o = {.activity = on_activity, .mark = on_mark, .ctx = t};
	runner_set_observer(r, &o);
	ms_set_observer(sim_memsys(r->sim), on_txn, t);
	return t;
}

void trace_finish(struct trace *t)
{
	if (!t)
		return;
	uint64_t end = sim_cycles(t->r->sim);
	for (int c = 0; c < t->r->run.cores; c++)
		close_segment(t, c, end);
	runner_set_observer(t->r, NULL);
	ms_set_observer(sim_memsys(t->r->sim), NULL, NULL);
	free(t->seg_start);
	free(t->seg_act);
	free(t);
}
