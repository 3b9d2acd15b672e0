/* The run's cycle limit when the config gives none: the driver applies it
 * and the scenario loader reports it, so it lives apart from sim.h for the
 * loader to read without the driver, core and memory system headers.
 *
 * The default is a budget of simulated core-cycles, not cycles: the host
 * time a run takes grows with cycles times cores (about 1.5e8 core-cycles
 * a second on a 2-core 2020s host, spinning or counting), so a fixed cycle
 * limit that ends 8 cores in seconds kept 1024 cores busy for hours. 8e9
 * core-cycles is 10^9 cycles up to 8 cores, as before, and 7.8 M cycles
 * at 1024: about a minute of host time at any core count. */
#ifndef BOUNCE_SIM_LIMIT_H
#define BOUNCE_SIM_LIMIT_H

#include <stdint.h>

#define SIM_DEFAULT_LIMIT 1000000000ull        /* cycles, at most */
#define SIM_DEFAULT_CORE_CYCLES 8000000000ull  /* cycles x cores */

static inline uint64_t sim_default_limit(int cores)
{
	uint64_t l = SIM_DEFAULT_CORE_CYCLES / (uint64_t)(cores > 0 ? cores : 1);
	return l < SIM_DEFAULT_LIMIT ? l : SIM_DEFAULT_LIMIT;
}

#endif
