/* Test helper: check a trace-event JSON file (bounce run --trace) against
 * what Perfetto and chrome://tracing rely on: on every track (pid, tid)
 * events in timestamp order, complete ("X") and begin/end ("B"/"E")
 * slices properly nested (a slice that starts inside another ends inside
 * it), every "B" closed by an "E", and the "otherData" metadata saying
 * whether each variant was truncated. Prints one summary line; exit 1 and
 * the first violations on stderr when a rule is broken. */
#include "config.h"

#include "base/input_file.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct track {
	long pid, tid;
	int64_t last;              /* ts of the last event, picoseconds */
	int depth;
	int64_t end[MAX_DEPTH];    /* ends of the open slices, innermost last */
	int is_b[MAX_DEPTH];       /* opened by "B" (closed by "E") */
};

static struct track *tracks;
static size_t n_tracks, cap_tracks;
static long violations;

static void violation(long i, const char *fmt, long pid, long tid, double ts)
{
	if (violations++ < 10) {
		fprintf(stderr, "event %ld (pid %ld tid %ld ts %.6f): ", i, pid, tid, ts);
		fprintf(stderr, "%s\n", fmt);
	}
}

static struct track *track_of(long pid, long tid)
{
	for (size_t i = 0; i < n_tracks; i++)
		if (tracks[i].pid == pid && tracks[i].tid == tid)
			return &tracks[i];
	if (n_tracks == cap_tracks) {
		cap_tracks = cap_tracks ? 2 * cap_tracks : 64;
		tracks = realloc(tracks, cap_tracks * sizeof *tracks);
		if (!tracks) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
	}
	struct track *t = &tracks[n_tracks++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	t->last = INT64_MIN;
	return t;
}

/* Times are compared in integer picoseconds: the writer prints at most six
 * decimals of a microsecond, which this recovers exactly. */
static int64_t ps(double us)
{
	return llround(us * 1e6);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	size_t n;
	char *buf = input_read_all(f, 0, &n);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: trace_check TRACE.json\n");
		return 2;
	}
	char *text = slurp(argv[1]);
	if (!text)
		return 1;
	cJSON *root = cJSON_Parse(text);
	free(text);
	if (!root) {
		fprintf(stderr, "%s: not valid JSON\n", argv[1]);
		return 1;
	}
	const cJSON *evs = cJSON_GetObjectItem(root, "traceEvents");
	if (!cJSON_IsArray(evs)) {
		fprintf(stderr, "%s: no traceEvents array\n", argv[1]);
		return 1;
	}
	long i = 0, slices = 0, instants = 0;
	const cJSON *ev;
	cJSON_ArrayForEach(ev, evs) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));
		const cJSON *jp = cJSON_GetObjectItem(ev, "pid"), *jt = cJSON_GetObjectItem(ev, "tid");
		const cJSON *jts = cJSON_GetObjectItem(ev, "ts"), *jd = cJSON_GetObjectItem(ev, "dur");
		i++;
		if (!ph) {
			violation(i, "no ph", -1, -1, 0);
			continue;
		}
		if (strcmp(ph, "M") == 0)
			continue;
		if (!cJSON_IsNumber(jp) || !cJSON_IsNumber(jt) || !cJSON_IsNumber(jts)) {
			violation(i, "pid, tid or ts missing", -1, -1, 0);
			continue;
		}
		struct track *t = track_of((long)jp->valuedouble, (long)jt->valuedouble);
		int64_t ts = ps(jts->valuedouble);
		if (ts < t->last)
			violation(i, "earlier than the previous event on its track", t->pid, t->tid,
				  jts->valuedouble);
		t->last = ts;
		/* Slices that ended by now are closed (only "X" ones close by
		 * themselves; an open "B" must be closed by its "E"). */
		while (t->depth && !t->is_b[t->depth - 1] && t->end[t->depth - 1] <= ts)
			t->depth--;
		if (strcmp(ph, "X") == 0) {
			if (!cJSON_IsNumber(jd) || jd->valuedouble < 0) {
				violation(i, "complete event without a duration", t->pid, t->tid,
					  jts->valuedouble);
				continue;
			}
			int64_t end = ts + ps(jd->valuedouble);
			if (t->depth && end > t->end[t->depth - 1])
				violation(i, "slice ends after the slice it starts in", t->pid, t->tid,
					  jts->valuedouble);
			if (t->depth == MAX_DEPTH) {
				violation(i, "slices nested too deep", t->pid, t->tid, jts->valuedouble);
				continue;
			}
			t->is_b[t->depth] = 0;
			t->end[t->depth++] = end;
			slices++;
		} else if (strcmp(ph, "B") == 0) {
			if (t->depth == MAX_DEPTH) {
				violation(i, "slices nested too deep", t->pid, t->tid, jts->valuedouble);
				continue;
			}
			t->is_b[t->depth] = 1;
			t->end[t->depth++] = INT64_MAX;
			slices++;
		} else if (strcmp(ph, "E") == 0) {
			if (!t->depth || !t->is_b[t->depth - 1])
				violation(i, "end event closes no begin event (or an X slice is still open)",
					  t->pid, t->tid, jts->valuedouble);
			else
				t->depth--;
		} else if (strcmp(ph, "i") == 0 || strcmp(ph, "I") == 0) {
			instants++;
		} else {
			violation(i, "unexpected phase", t->pid, t->tid, jts->valuedouble);
		}
	}
	for (size_t k = 0; k < n_tracks; k++)
		for (int d = 0; d < tracks[k].depth; d++)
			if (tracks[k].is_b[d])
				violation(i, "begin event never ended", tracks[k].pid, tracks[k].tid, 0);
	/* The metadata: one entry per variant, saying whether it was cut. */
	long variants = 0, truncated = 0;
	const cJSON *vs = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "otherData"), "variants");
	const cJSON *v;
	if (!cJSON_IsArray(vs))
		violation(0, "no otherData.variants", -1, -1, 0);
	cJSON_ArrayForEach(v, vs) {
		const cJSON *tr = cJSON_GetObjectItem(v, "truncated");
		if (!cJSON_IsBool(tr))
			violation(0, "a variant's metadata has no truncated flag", -1, -1, 0);
		variants++;
		truncated += cJSON_IsTrue(tr);
	}
	printf("events %ld slices %ld instants %ld tracks %zu variants %ld truncated %ld violations %ld\n",
	       i, slices, instants, n_tracks, variants, truncated, violations);
	cJSON_Delete(root);
	free(tracks);
	return violations ? 1 : 0;
}
