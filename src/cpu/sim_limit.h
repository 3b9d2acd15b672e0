/* The run's cycle limit when the config gives none: the driver applies it
 * and the scenario loader reports it, so it lives apart from sim.h for the
 * loader to read without the driver, core and memory system headers.
 *
 * The default is a budget of simulated core-cycles, not cycles: the host
 * time a run takes grows with cycles times cores (about 1.5e8 core-cycles
 * a second on a 2-core 2020s host, spinning or counting), so a fixed cycle
 * limit that ends 8 cores in seconds kept 1024 cores busy for hours. 8e9
 * core-cycles is 10^9 cycles up to 8 cores, as before, and 7.8 M cycles
 * at 1024: about a minute of host time at any core count.
 *
 * Interrupt sources count too: a CPU polls all of its sources at every
 * arrival (interrupts.c), so its host time per cycle grows with how many it
 * has, and 5000 sources on each of 1024 CPUs ran 15 minutes on a budget of
 * cores alone. Measured, a CPU with n sources every 1000 cycles costs
 * about 1 + n / 400 cores (n / 480 on 8 cores, n / 340 on 1024); each
 * SIM_IRQ_PAIRS_PER_CORE (source, CPU) pairs are counted as one more core,
 * on the safe side, so the promise of about a minute holds with them. A
 * scenario with one or a few sources per CPU keeps its limit but for a
 * few cycles in a thousand at most. */
#ifndef BOUNCE_SIM_LIMIT_H
#define BOUNCE_SIM_LIMIT_H

#include <stdint.h>

#define SIM_DEFAULT_LIMIT 1000000000ull        /* cycles, at most */
#define SIM_DEFAULT_CORE_CYCLES 8000000000ull  /* cycles x cores */
#define SIM_IRQ_PAIRS_PER_CORE 256             /* (interrupt source, CPU) pairs costing a core */

/* irq_pairs: for each CPU running a thread, the interrupt sources that
 * target it, summed (the per-CPU state the driver allocates). */
static inline uint64_t sim_default_limit(int cores, uint64_t irq_pairs)
{
	uint64_t weight = (uint64_t)(cores > 0 ? cores : 1) + irq_pairs / SIM_IRQ_PAIRS_PER_CORE;
	uint64_t l = SIM_DEFAULT_CORE_CYCLES / weight;
	return l < SIM_DEFAULT_LIMIT ? l : SIM_DEFAULT_LIMIT;
}

#endif
