/* Interrupt arrivals per CPU. Each CPU has its own generator stream, so the
 * arrival times of a CPU do not depend on what other CPUs do or on the
 * order events are processed in: a run is a function of its seed. */
#include "config.h"
#include "cpu/interrupts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KIND_NAME(id, name) [id] = (name),
const char *const irq_kind_names[IRQ_NKINDS + 1] = { IRQ_KINDS(KIND_NAME) NULL };

static uint64_t gap(struct irq_cpu *ic, const struct irq_source *s)
{
	double g;
	if (s->poisson)
		g = -(double)s->every * log(1.0 - rng_double(&ic->rng));
	else
		g = (double)s->every * (1.0 + s->jitter * (2.0 * rng_double(&ic->rng) - 1.0));
	return g < 1.0 ? 1 : (uint64_t)g;
}

static void update_min(struct irq_cpu *ic)
{
	ic->next_min = UINT64_MAX;
	for (unsigned i = 0; i < ic->n; i++)
		if (ic->next[i] < ic->next_min)
			ic->next_min = ic->next[i];
}

int irq_cpu_init(struct irq_cpu *ic, const struct irq_source *src, const uint16_t *which,
		 unsigned n, uint64_t seed, int cpu, uint64_t start, struct err *e)
{
	memset(ic, 0, sizeof *ic);
	ic->next_min = UINT64_MAX;
	if (!n)
		return 0;
	ic->src = malloc(n * sizeof *ic->src);
	ic->next = malloc(n * sizeof *ic->next);
	ic->pending = calloc(n, 1);
	if (!ic->src || !ic->next || !ic->pending) {
		irq_cpu_free(ic);
		return err_internal(e, "out of memory for interrupt sources");
	}
	ic->n = n;
	rng_seed(&ic->rng, seed, 0x1000 + (uint64_t)cpu);
	memcpy(ic->src, which, n * sizeof *which);
	for (unsigned i = 0; i < n; i++) {
		const struct irq_source *s = &src[which[i]];
		/* A random phase, so CPUs are not interrupted in lockstep. */
		ic->next[i] = start + (s->poisson ? gap(ic, s) : 1 + rng_upto(&ic->rng, s->every - 1));
	}
	update_min(ic);
	return 0;
}

void irq_cpu_free(struct irq_cpu *ic)
{
	free(ic->src);
	free(ic->next);
	free(ic->pending);
	memset(ic, 0, sizeof *ic);
	ic->next_min = UINT64_MAX;
}

void irq_poll(struct irq_cpu *ic, const struct irq_source *src, uint64_t now)
{
	if (now < ic->next_min)
		return;
	for (unsigned i = 0; i < ic->n; i++) {
		const struct irq_source *s = &src[ic->src[i]];
		while (ic->next[i] <= now) {
			if (ic->pending[i])
				ic->coalesced++;
			ic->pending[i] = 1;
			ic->next[i] += gap(ic, s);
		}
	}
	update_min(ic);
}

/* Which of ic's sources irq_take would deliver now (hard first, then
 * soft, lowest index first), as an index into ic->src, or -1. */
static int choose(const struct irq_cpu *ic, const struct irq_source *src, int intr, int bh_count,
		  int in_handler)
{
	if (in_handler || !intr)
		return -1;
	int soft = -1;
	for (unsigned i = 0; i < ic->n; i++) {
		if (!ic->pending[i])
			continue;
		if (src[ic->src[i]].kind == IRQ_HARD)
			return (int)i;
		if (soft < 0 && bh_count == 0)
			soft = (int)i;
	}
	return soft;
}

int irq_take(struct irq_cpu *ic, const struct irq_source *src, int intr, int bh_count, int in_handler)
{
	int i = choose(ic, src, intr, bh_count, in_handler);
	if (i < 0)
		return -1;
	ic->pending[i] = 0;
	return ic->src[i];
}

int irq_ready(const struct irq_cpu *ic, const struct irq_source *src, int intr, int bh_count,
	      int in_handler)
{
	return choose(ic, src, intr, bh_count, in_handler) >= 0;
}

int irq_any_pending(const struct irq_cpu *ic)
{
	for (unsigned i = 0; i < ic->n; i++)
		if (ic->pending[i])
			return 1;
	return 0;
}
