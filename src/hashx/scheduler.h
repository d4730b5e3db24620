/*
 * scheduler.h - the superscalar CPU model that paces program generation.
 *
 * HashX generates code for an imaginary out-of-order core with the integer
 * execution ports of Intel Ivy Bridge: P0, P1 and P5, each able to start one
 * micro-op per cycle, with multiplications only on P1. The generator places
 * every instruction's micro-ops on this port map as it goes, and stops when
 * the next instruction would start at cycle 192. Because one multiplication
 * is planned per cycle, a real CPU runs the result at close to its peak
 * throughput, and dedicated hardware cannot do much better.
 *
 * The rules here must be followed exactly: the cycle an instruction gets
 * decides which registers are ready for it, and so the rest of the program.
 */
#ifndef HASHX_SCHEDULER_H
#define HASHX_SCHEDULER_H

#include <stdint.h>

/* Port masks: the ports on which a micro-op may execute. */
enum {
	HASHX_PORT_NONE = 0,
	HASHX_PORT_P0 = 1,
	HASHX_PORT_P1 = 2,
	HASHX_PORT_P5 = 4,
	HASHX_PORT_P01 = HASHX_PORT_P0 | HASHX_PORT_P1,
	HASHX_PORT_P05 = HASHX_PORT_P0 | HASHX_PORT_P5,
	HASHX_PORT_P015 = HASHX_PORT_P0 | HASHX_PORT_P1 | HASHX_PORT_P5,
};

/* Generation stops at the first instruction scheduled at this cycle. */
#define HASHX_TARGET_CYCLE 192

/* The port map covers a few cycles past the target, so that the
 * instruction that crosses it can still be placed (and then dropped). */
#define HASHX_SCHED_CYCLES (HASHX_TARGET_CYCLE + 4)

/* Which ports are taken in each cycle. */
typedef struct hashx_scheduler {
	uint8_t busy[HASHX_SCHED_CYCLES];
} hashx_scheduler;

void hashx_scheduler_init(hashx_scheduler *s);

/*
 * Earliest cycle, not before `from`, at which an instruction made of the
 * micro-ops `uop1` and `uop2` (HASHX_PORT_NONE if it has one) can start, or
 * -1 if it does not fit in the map. With `commit`, its ports are taken.
 */
int hashx_scheduler_place(hashx_scheduler *s, uint8_t uop1, uint8_t uop2,
			  int from, int commit);

#endif
