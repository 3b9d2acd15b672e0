/* The run's cycle limit when the config gives none: the driver applies it
 * and the scenario loader reports it, so it lives apart from sim.h for the
 * loader to read without the driver, core and memory system headers. */
#ifndef BOUNCE_SIM_LIMIT_H
#define BOUNCE_SIM_LIMIT_H

#define SIM_DEFAULT_LIMIT 1000000000ull /* cycles */

#endif
