/* Ghost counters: the exact value kept beside a simulated counter, keyed
 * by its address, and the error of every approximate read of it (isa.h
 * OP_GHOST_*). Bookkeeping outside the machine: no cycles, no traffic. */
#ifndef BOUNCE_GHOST_H
#define BOUNCE_GHOST_H

#include <stddef.h>
#include <stdint.h>

/* One counter: its exact value and the error of the reads made of it. */
struct ghost {
	uint64_t addr;
	int64_t exact;
	uint64_t reads;
	int64_t last_read;   /* what the latest read returned (the UI shows it) */
	uint64_t max_err;
	double mean_err;
	/* Reads that were off, and those of them that returned 0, none of a
	 * non-zero count: when every off read is blind, nothing the readers
	 * look at (a per-CPU counter's global count) ever took a share. */
	uint64_t off_reads, blind_reads;
};

struct ghost_table;

struct ghost_table *ghost_table_new(void);
void ghost_table_free(struct ghost_table *t);

/* exact[addr] += v. Returns -1 when out of memory. */
int ghost_add(struct ghost_table *t, uint64_t addr, int64_t v);
/* A read of the counter at addr returned v: record its error against the
 * exact value. Returns -1 when out of memory. */
int ghost_read(struct ghost_table *t, uint64_t addr, int64_t v);

/* A ghost instruction made by `core` at cycle `time`, kept until
 * ghost_settle applies it. Cores run ahead of one another, so the order
 * in which they reach their ghost instructions is not the order of
 * simulated time; applied in (time, core, program order), the order the
 * event queue gives accesses of one cycle, every read is checked against
 * the exact count of its cycle however far anyone ran, with or without
 * fast-forward. `settled` is the caller's promise that no instruction
 * before that cycle is still to come: when the log grows long, what lies
 * before it is applied. Returns -1 when out of memory, -2 when `time` lies
 * before a cycle already settled (the promise was broken). */
int ghost_log(struct ghost_table *t, uint64_t time, int core, int is_read, uint64_t addr, int64_t v,
	      uint64_t settled);
/* Apply the logged instructions made before cycle `before` (UINT64_MAX:
 * all of them). Returns -1 when out of memory. */
int ghost_settle(struct ghost_table *t, uint64_t before);

/* Every counter, sorted by address, into a buffer owned by the table
 * (valid until the next call). */
size_t ghost_list(struct ghost_table *t, const struct ghost **out);
/* NULL when no ghost instruction touched addr. */
const struct ghost *ghost_find(struct ghost_table *t, uint64_t addr);

#endif
