/* The worker threads every front end that runs variants in parallel shares
 * (work_pool.h): one mutex and one condition over the job counter, the
 * jobs done and the caller's place in the list. */
#include "config.h"
#include "run/work_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WORK_POOL_MAX_THREADS 256

struct work_pool {
	work_fn fn;
	void *ctx;
	size_t n, next, released, ahead;
	unsigned char *done;
	int workers, started;
	atomic_int cancel;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t threads[WORK_POOL_MAX_THREADS];
};

static int stopping(const struct work_pool *p)
{
	return err_poll(NULL) || atomic_load(&p->cancel);
}

static void *worker(void *arg)
{
	struct work_pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->next < p->n && p->next >= p->released + p->ahead && !stopping(p))
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->next >= p->n || stopping(p))
			break;
		size_t k = p->next++;
		pthread_mutex_unlock(&p->mu);
		p->fn(p->ctx, k, &p->cancel);
		pthread_mutex_lock(&p->mu);
		p->done[k] = 1;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct work_pool *work_pool_start(size_t n, int workers, size_t ahead, work_fn fn, void *ctx, struct err *e)
{
	struct work_pool *p = calloc(1, sizeof *p);
	unsigned char *done = calloc(n ? n : 1, 1);
	if (!p || !done) {
		free(p);
		free(done);
		err_internal(e, "out of memory");
		return NULL;
	}
	p->fn = fn;
	p->ctx = ctx;
	p->n = n;
	p->done = done;
	p->ahead = ahead ? ahead : 1;
	p->workers = workers > WORK_POOL_MAX_THREADS ? WORK_POOL_MAX_THREADS : workers;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	for (int j = 0; p->workers > 1 && j < p->workers; j++) {
		int rc = pthread_create(&p->threads[j], NULL, worker, p);
		if (rc) {
			err_internal(e, "cannot start a thread: %s", strerror(rc));
			work_pool_free(p);
			return NULL;
		}
		p->started++;
	}
	return p;
}

int work_pool_wait(struct work_pool *p, size_t k, void (*tick)(void *tctx), void *tctx)
{
	if (p->workers <= 1) {
		if (p->done[k])
			return 0;
		if (stopping(p))
			return -1;
		p->fn(p->ctx, k, &p->cancel);
		p->done[k] = 1;
		return 0;
	}
	pthread_mutex_lock(&p->mu);
	/* A job not started when the pool stopped never will be. */
	while (!p->done[k] && !err_poll(NULL) && !(atomic_load(&p->cancel) && k >= p->next)) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->cv, &p->mu, &until);
		if (tick) {
			pthread_mutex_unlock(&p->mu);
			tick(tctx);
			pthread_mutex_lock(&p->mu);
		}
	}
	int done = p->done[k];
	pthread_mutex_unlock(&p->mu);
	return done ? 0 : -1;
}

void work_pool_release(struct work_pool *p, size_t k)
{
	pthread_mutex_lock(&p->mu);
	if (k + 1 > p->released)
		p->released = k + 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void work_pool_cancel(struct work_pool *p)
{
	pthread_mutex_lock(&p->mu);
	atomic_store(&p->cancel, 1);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void work_pool_free(struct work_pool *p)
{
	if (!p)
		return;
	work_pool_cancel(p);
	for (int j = 0; j < p->started; j++)
		pthread_join(p->threads[j], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p->done);
	free(p);
}
