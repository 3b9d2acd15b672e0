/* Trace-event writer (trace.h). Events are streamed as they happen, so a
 * trace costs memory per core, not per event; timestamps are simulated
 * microseconds so the viewer's time axis reads as the machine's.
 *
 * Well-formedness, which viewers rely on: on every track, events are
 * written in timestamp order, and slices never partly overlap. Every time
 * is converted from an integer cycle to integer picoseconds once, and a
 * slice's duration is the difference of its two converted ends, printed
 * exactly: the end of one slice is the start of the next, to the digit. */
#include "config.h"
#include "report/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TID_EXEC_MEM 10000   /* + core: the requests of its execution */
#define TID_SB_MEM 20000     /* + core: the requests of its store buffer */

/* A core's current activity segment. Its slice is written when it ends,
 * as one complete event, unless a mark falls inside it first: then the
 * slice is opened ("B") before the mark and closed ("E") at its end, so
 * that the mark follows the slice's start in the file as in time. */
struct segment {
	uint64_t start;
	uint8_t act;
	uint8_t opened;
};

struct trace {
	struct runner *r;
	FILE *f;
	int pid;
	double ps_per_cycle;
	uint64_t limit, events;
	int truncated;
	uint64_t truncated_at;   /* cycle of the first event left out */
	int n_opened;            /* segments whose "E" is still to come */
	struct segment *seg;
};

static uint64_t ps_of(const struct trace *t, uint64_t cycle)
{
	/* Rounding is monotonic, so the order of cycles is kept. */
	return (uint64_t)llround((double)cycle * t->ps_per_cycle);
}

/* A time in microseconds with six exact decimals. */
static void put_us(FILE *f, uint64_t ps)
{
	fprintf(f, "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
}

static void put_ts(struct trace *t, uint64_t cycle)
{
	fputs(",\"ts\":", t->f);
	put_us(t->f, ps_of(t, cycle));
}

static void put_ts_dur(struct trace *t, uint64_t start, uint64_t end)
{
	uint64_t a = ps_of(t, start);
	fputs(",\"ts\":", t->f);
	put_us(t->f, a);
	fputs(",\"dur\":", t->f);
	put_us(t->f, ps_of(t, end) - a);
}

/* A full trace writes nothing more but the "E" of the slices it opened;
 * once those are written it lets the cores go, so that waiting cores can
 * be parked again (the rest of a traced run then costs what an untraced
 * one does). The file is the same either way. */
static void release_when_done(struct trace *t)
{
	if (t->truncated && t->n_opened == 0)
		runner_release_observer(t->r);
}

/* May one more event be written? The first refusal is remembered. */
static int room(struct trace *t, uint64_t cycle)
{
	if (t->limit && t->events >= t->limit) {
		if (!t->truncated) {
			t->truncated = 1;
			t->truncated_at = cycle;
		}
		release_when_done(t);
		return 0;
	}
	t->events++;
	return 1;
}

static int is_slice(uint8_t act)
{
	return act != CORE_ACT_IDLE && act != CORE_ACT_HALTED;
}

static void close_segment(struct trace *t, int core, uint64_t end)
{
	struct segment *s = &t->seg[core];
	if (s->opened) {
		/* Always written, even past the limit: its "B" is in the trace. */
		fprintf(t->f, ",\n{\"ph\":\"E\",\"pid\":%d,\"tid\":%d", t->pid, core);
		put_ts(t, end);
		fputc('}', t->f);
		s->opened = 0;
		t->n_opened--;
		return;
	}
	if (!is_slice(s->act) || end <= s->start || !room(t, s->start))
		return;
	fprintf(t->f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d",
		core_activity_name((enum core_activity)s->act), t->pid, core);
	put_ts_dur(t, s->start, end);
	fputc('}', t->f);
}

static void on_activity(void *ctx, int core, uint64_t cycle, enum core_activity act)
{
	struct trace *t = ctx;
	close_segment(t, core, cycle);
	t->seg[core].start = cycle;
	t->seg[core].act = (uint8_t)act;
	release_when_done(t);
}

static void on_mark(void *ctx, int core, uint64_t cycle, const char *name)
{
	struct trace *t = ctx;
	struct segment *s = &t->seg[core];
	if (is_slice(s->act) && !s->opened && cycle > s->start) {
		if (!room(t, s->start))
			return;
		fprintf(t->f, ",\n{\"name\":\"%s\",\"ph\":\"B\",\"pid\":%d,\"tid\":%d",
			core_activity_name((enum core_activity)s->act), t->pid, core);
		put_ts(t, s->start);
		fputc('}', t->f);
		s->opened = 1;
		t->n_opened++;
	}
	if (!room(t, cycle))
		return;
	fprintf(t->f, ",\n{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d",
		name, t->pid, core);
	put_ts(t, cycle);
	fputc('}', t->f);
}

static void on_txn(void *ctx, const struct ms_txn *x)
{
	struct trace *t = ctx;
	if (!room(t, x->start))
		return;
	int tid = (x->by == MS_WAKE_DRAIN ? TID_SB_MEM : TID_EXEC_MEM) + x->core;
	fprintf(t->f, ",\n{\"name\":\"%s\",\"cat\":\"coherence\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d",
		ms_req_name(x->req), t->pid, tid);
	put_ts_dur(t, x->start, x->done);
	fprintf(t->f, ",\"args\":{\"line\":\"0x%" PRIx64 "\",\"from\":\"%s\",\"to\":\"%s\","
		"\"supplier\":%d,\"invalidated\":%u,\"bounce\":%d,\"hitm\":%d}}",
		x->line, ms_state_label(sim_memsys(t->r->sim), x->from),
		ms_state_label(sim_memsys(t->r->sim), x->to), x->supplier, x->invalidated,
		x->bounce, x->hitm);
}

struct trace *trace_start(struct runner *r, FILE *f, int pid, uint64_t limit)
{
	struct trace *t = calloc(1, sizeof *t);
	int n = r->run.cores;
	if (!t)
		return NULL;
	t->seg = calloc((size_t)n, sizeof *t->seg);
	if (!t->seg) {
		free(t);
		return NULL;
	}
	for (int c = 0; c < n; c++)
		t->seg[c].act = CORE_ACT_IDLE;
	t->r = r;
	t->f = f;
	t->pid = pid;
	t->limit = limit;
	t->ps_per_cycle = 1000.0 / r->run.cpu.ghz;
	fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"variant %s\"}}",
		pid, r->run.variant);
	for (int c = 0; c < n; c++) {
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"core %d\"}}",
			pid, c, c);
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"core %d memory\"}}",
			pid, TID_EXEC_MEM + c, c);
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"core %d store buffer\"}}",
			pid, TID_SB_MEM + c, c);
	}
	struct sim_observer o = {.activity = on_activity, .mark = on_mark, .ctx = t};
	runner_set_observer(r, &o);
	ms_set_observer(sim_memsys(r->sim), on_txn, t);
	return t;
}

void trace_finish(struct trace *t, struct trace_summary *out)
{
	if (!t)
		return;
	uint64_t end = sim_cycles(t->r->sim);
	for (int c = 0; c < t->r->run.cores; c++)
		close_segment(t, c, end);
	if (t->truncated)
		fprintf(t->f, ",\n{\"name\":\"process_labels\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"labels\":"
			"\"trace truncated at %" PRIu64 " events, from cycle %" PRIu64 "\"}}",
			t->pid, t->limit, t->truncated_at);
	if (out) {
		out->events = t->events;
		out->truncated = t->truncated;
		out->truncated_at = t->truncated_at;
		out->cycles = end;
	}
	runner_set_observer(t->r, NULL);
	ms_set_observer(sim_memsys(t->r->sim), NULL, NULL);
	free(t->seg);
	free(t);
}

struct trace_file {
	FILE *f;
	size_t parts;
	cJSON *meta;
};

struct trace_file *trace_file_open(FILE *f, uint64_t limit)
{
	struct trace_file *tf = calloc(1, sizeof *tf);
	cJSON *meta = cJSON_CreateObject();
	if (!tf || !meta || !cJSON_AddNumberToObject(meta, "trace_limit", (double)limit) ||
	    !cJSON_AddArrayToObject(meta, "variants")) {
		free(tf);
		cJSON_Delete(meta);
		return NULL;
	}
	tf->f = f;
	tf->meta = meta;
	fputs("{\"traceEvents\":[\n", f);
	return tf;
}

/* One variant's line in the metadata. */
static int note_part(cJSON *meta, const char *variant, int pid, const struct trace_summary *ts)
{
	cJSON *v = cJSON_CreateObject();
	if (!v || !cJSON_AddItemToArray(cJSON_GetObjectItem(meta, "variants"), v))
		return -1;
	cJSON_AddStringToObject(v, "variant", variant);
	cJSON_AddNumberToObject(v, "pid", pid);
	cJSON_AddNumberToObject(v, "events", (double)ts->events);
	cJSON_AddNumberToObject(v, "cycles", (double)ts->cycles);
	cJSON_AddBoolToObject(v, "truncated", ts->truncated);
	if (ts->truncated)
		cJSON_AddNumberToObject(v, "truncated_at_cycle", (double)ts->truncated_at);
	return 0;
}

int trace_file_add(struct trace_file *tf, FILE *part, const char *variant, int pid,
		   const struct trace_summary *ts, struct err *e)
{
	char buf[65536];
	size_t n;
	if (tf->parts++)
		fputs(",\n", tf->f);
	rewind(part);
	while ((n = fread(buf, 1, sizeof buf, part)) > 0)
		if (fwrite(buf, 1, n, tf->f) != n)
			return err_internal(e, "writing the trace: %s", strerror(errno));
	if (ferror(part))
		return err_internal(e, "reading a trace part: %s", strerror(errno));
	if (note_part(tf->meta, variant, pid, ts))
		return err_internal(e, "out of memory for the trace");
	return 0;
}

int trace_file_close(struct trace_file *tf, struct err *e)
{
	/* What the trace covers, for whoever opens it: a truncated one says
	 * so here and in its process labels, never only silently. */
	char *meta = cJSON_PrintUnformatted(tf->meta);
	if (!meta)
		return err_internal(e, "out of memory for the trace");
	fprintf(tf->f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":%s}\n", meta);
	free(meta);
	return 0;
}

const cJSON *trace_file_meta(const struct trace_file *tf)
{
	return tf->meta;
}

void trace_file_free(struct trace_file *tf)
{
	if (!tf)
		return;
	cJSON_Delete(tf->meta);
	free(tf);
}
