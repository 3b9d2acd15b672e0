/* The trace reader's thread: per stream a ring of a few batches that it
 * fills while the replay empties them. One mutex guards the rings' indices;
 * records are written outside it, into slots the replay cannot be reading
 * (those between a ring's tail and its head plus the ring's size). */
#include "config.h"
#include "replay/trace_reader.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Batches per stream: the one the replay reads, and the ones ready behind
 * it, enough to ride out the reader's turns at the other streams. A
 * sleeping reader is woken once a ring is down to TR_LOW ready batches, not
 * at every batch read: it then fills every ring, so that a wake-up (a
 * system call each side) serves many batches. */
#define TR_SLOTS 8
#define TR_LOW (TR_SLOTS / 2)
/* Records per batch: large batches make the lock rare, and the buffers of
 * all streams together stay within TR_BUDGET bytes (at 1024 streams the
 * batches shrink to 128 records). */
#define TR_BATCH_MAX 1024
#define TR_BATCH_MIN 64
#define TR_BUDGET (16u << 20)

struct tr_slot {
	int n;                      /* records, 0: the end, -1: the error */
	uint64_t in_done, in_total; /* rt_input after this batch */
};

struct tr_ring {
	struct tr_slot slot[TR_SLOTS];
	unsigned head, tail;        /* slots [head, tail) are filled */
	int held;                   /* the replay is reading slot head */
	uint64_t in_done, in_total; /* of the batch handed out last */
	struct err err;             /* the error, once ended by one */
};

/* The end or the error is in the ring: its last batch says so, and no
 * slot is filled after it (nor is it ever released, tr_next). */
static int ended(const struct tr_ring *g)
{
	return g->tail && g->slot[(g->tail - 1) % TR_SLOTS].n <= 0;
}

struct trace_reader {
	struct rt_stream *const *streams;
	int n, batch;
	struct rt_rec *recs;        /* n * TR_SLOTS * batch */
	struct tr_ring *ring;
	pthread_mutex_t mu;
	pthread_cond_t filled, freed;
	int stop;
	int asleep;                 /* the reader waits for room in a ring */
	pthread_t thread;
};

static struct rt_rec *slot_recs(struct trace_reader *t, int i, unsigned k)
{
	return t->recs + ((size_t)i * TR_SLOTS + k % TR_SLOTS) * (size_t)t->batch;
}

/* The stream with room for a batch and the fewest batches ready (the
 * replay is likeliest to wait for it), or -1. Called with the lock held. */
static int neediest(const struct trace_reader *t)
{
	int best = -1;
	unsigned best_ready = TR_SLOTS;
	for (int i = 0; i < t->n && best_ready; i++) {
		const struct tr_ring *g = &t->ring[i];
		unsigned ready = g->tail - g->head;
		if (!ended(g) && ready < best_ready) {
			best = i;
			best_ready = ready;
		}
	}
	return best;
}

static void *reader_main(void *arg)
{
	struct trace_reader *t = arg;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		int i = t->stop ? -1 : neediest(t);
		if (i < 0) {
			int open = 0;
			for (int k = 0; k < t->n && !open; k++)
				open = !ended(&t->ring[k]);
			if (t->stop || !open)
				break;
			t->asleep = 1;
			pthread_cond_wait(&t->freed, &t->mu);
			t->asleep = 0;
			continue;
		}
		struct tr_ring *g = &t->ring[i];
		unsigned k = g->tail;
		pthread_mutex_unlock(&t->mu);
		/* outside the lock: slot k is neither ready nor being read */
		struct tr_slot *s = &g->slot[k % TR_SLOTS];
		struct err e = {0};
		s->n = rt_next_batch(t->streams[i], slot_recs(t, i, k), t->batch, &e);
		rt_input(t->streams[i], &s->in_done, &s->in_total);
		pthread_mutex_lock(&t->mu);
		if (s->n < 0)
			g->err = e;
		g->tail = k + 1;
		pthread_cond_broadcast(&t->filled);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* What tr_start made, once no thread runs. */
static void reader_free(struct trace_reader *t)
{
	pthread_cond_destroy(&t->freed);
	pthread_cond_destroy(&t->filled);
	pthread_mutex_destroy(&t->mu);
	free(t->recs);
	free(t->ring);
	free(t);
}

struct trace_reader *tr_start(struct rt_stream *const *streams, int n, struct err *e)
{
	struct trace_reader *t = calloc(1, sizeof *t);
	if (!t) {
		err_internal(e, "replay: out of memory");
		return NULL;
	}
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->filled, NULL);
	pthread_cond_init(&t->freed, NULL);
	t->streams = streams;
	t->n = n;
	size_t per = TR_BUDGET / ((size_t)n * TR_SLOTS * sizeof *t->recs);
	t->batch = per > TR_BATCH_MAX ? TR_BATCH_MAX : per < TR_BATCH_MIN ? TR_BATCH_MIN : (int)per;
	t->recs = malloc((size_t)n * TR_SLOTS * (size_t)t->batch * sizeof *t->recs);
	t->ring = calloc((size_t)n, sizeof *t->ring);
	if (!t->recs || !t->ring) {
		reader_free(t);
		err_internal(e, "replay: out of memory");
		return NULL;
	}
	/* Signals (an interrupt) are the replay's to notice, not the reader's:
	 * the thread starts with all of them blocked. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&t->thread, NULL, reader_main, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		reader_free(t);
		err_internal(e, "replay: cannot start the trace reader: %s", strerror(rc));
		return NULL;
	}
	return t;
}

int tr_next(struct trace_reader *t, int i, const struct rt_rec **recs, struct err *e)
{
	struct tr_ring *g = &t->ring[i];
	pthread_mutex_lock(&t->mu);
	if (g->held) {
		g->head++;
		g->held = 0;
		/* An asleep reader left every ring full; this one cannot run dry
		 * before it passes TR_LOW. */
		if (t->asleep && g->tail - g->head <= TR_LOW)
			pthread_cond_signal(&t->freed);
	}
	while (g->tail == g->head)
		pthread_cond_wait(&t->filled, &t->mu);
	const struct tr_slot *s = &g->slot[g->head % TR_SLOTS];
	int n = s->n;
	g->in_done = s->in_done;
	g->in_total = s->in_total;
	if (n > 0) {
		g->held = 1;
		*recs = slot_recs(t, i, g->head);
	} else if (n < 0) {
		*e = g->err;
	}
	/* an end or an error stays at the head: asked again, it is told again */
	pthread_mutex_unlock(&t->mu);
	return n;
}

void tr_input(struct trace_reader *t, uint64_t *done, uint64_t *total)
{
	*done = *total = 0;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < t->n; i++) {
		*done += t->ring[i].in_done;
		*total += t->ring[i].in_total;
	}
	pthread_mutex_unlock(&t->mu);
}

void tr_stop(struct trace_reader *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_signal(&t->freed);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	reader_free(t);
}
