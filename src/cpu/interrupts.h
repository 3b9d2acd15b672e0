/* Interrupt sources of one CPU: arrival times drawn from the seeded
 * generator, pending bits for masked arrivals (coalesced as a real APIC
 * vector or softirq bit is), and the choice of what to deliver at an
 * instruction boundary. Entering and leaving handlers is core.c's. */
#ifndef BOUNCE_INTERRUPTS_H
#define BOUNCE_INTERRUPTS_H

#include <stdint.h>
#include "base/rng.h"
#include "base/error.h"

/* The kinds by the name a scenario gives them, in enum order. The driver,
 * the cores and the loader all use this one enum. */
#define IRQ_KINDS(X) X(IRQ_HARD, "hard") X(IRQ_SOFT, "soft")
#define IRQ_KIND_ENUM_(id, name) id,
#define IRQ_KIND_SLOT_(id, name) id##_SLOT_,
enum irq_kind { IRQ_KINDS(IRQ_KIND_ENUM_) };
enum { IRQ_KINDS(IRQ_KIND_SLOT_) IRQ_NKINDS }; /* outside the enum, as for cpu_model.h's kinds */
/* Names by enum value, NULL-terminated. */
extern const char *const irq_kind_names[IRQ_NKINDS + 1];

/* One scenario source (the sim config's, without the cpu set). */
struct irq_source {
	uint8_t kind;         /* enum irq_kind */
	uint8_t poisson;
	uint32_t handler;
	uint64_t every;
	double jitter;
};

/* Per CPU: the sources that target it. */
struct irq_cpu {
	unsigned n;
	uint16_t *src;        /* index into the source table */
	uint64_t *next;       /* next arrival of each */
	uint8_t *pending;
	uint64_t next_min;    /* min(next), UINT64_MAX when none */
	uint64_t coalesced;   /* arrivals that found their source still pending */
	struct rng rng;
};

int irq_cpu_init(struct irq_cpu *ic, const struct irq_source *src, const uint16_t *which,
		 unsigned n, uint64_t seed, int cpu, uint64_t start, struct err *e);
void irq_cpu_free(struct irq_cpu *ic);
/* Mark every source that arrived at or before `now` pending. */
void irq_poll(struct irq_cpu *ic, const struct irq_source *src, uint64_t now);
/* The pending source to deliver now (hard first, then soft, lowest index
 * first), or -1. Soft ones are held off by bh_count > 0 and by cli, hard
 * ones by cli; nothing is delivered inside a handler. Clears its bit. */
int irq_take(struct irq_cpu *ic, const struct irq_source *src, int intr, int bh_count, int in_handler);
/* Whether irq_take would deliver something now; clears nothing. For a
 * boundary that may not deliver yet (core.c: a missed instruction that has
 * its line retires first) but must come back as soon as it may. */
int irq_ready(const struct irq_cpu *ic, const struct irq_source *src, int intr, int bh_count,
	      int in_handler);
int irq_any_pending(const struct irq_cpu *ic);

#endif
