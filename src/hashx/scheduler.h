/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
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
#include <string.h>

/*
 * For the generator's helpers (here, constraints.h, generator.c; this
 * header is the one they all include): the generator inlines its step
 * once per template shape with constant template fields, and the helpers
 * must be inlined into each copy for those constants to reach them. GCC's
 * size heuristics would otherwise outline them (measured: 2% slower, 10%
 * more instructions). See generator.c.
 */
#if defined(__GNUC__)
#define HASHX_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HASHX_ALWAYS_INLINE inline
#endif

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

static inline void hashx_scheduler_init(hashx_scheduler *s)
{
	memset(s->busy, 0, sizeof s->busy);
}

/*
 * Within a cycle, a micro-op takes P5 first, then P0, then P1: the
 * instructions that can go anywhere are kept off P1, the only port that
 * multiplies, so the one multiplication planned per cycle finds it free.
 */
static inline uint8_t hashx_pick_port(uint8_t free_ports)
{
	if (free_ports & HASHX_PORT_P5)
		return HASHX_PORT_P5;
	if (free_ports & HASHX_PORT_P0)
		return HASHX_PORT_P0;
	return free_ports & HASHX_PORT_P1;
}

/* First cycle from `from` with a port free for `uop` (given the ports
 * `taken` on top of the map at cycle `from`), or -1. Sets *port to the
 * port it would take. */
static inline int hashx_find_uop(const hashx_scheduler *s, uint8_t uop,
				 int from, uint8_t taken, uint8_t *port)
{
	*port = 0;
	if (from >= HASHX_SCHED_CYCLES)
		return -1;
	/* Nearly always the first cycle tried (doc/hashx.md 13.1). */
	*port = hashx_pick_port(uop & (uint8_t) ~(s->busy[from] | taken));
	if (*port != 0)
		return from;
	for (int cycle = from + 1; cycle < HASHX_SCHED_CYCLES; cycle++) {
		*port = hashx_pick_port(uop & (uint8_t)~s->busy[cycle]);
		if (*port != 0)
			return cycle;
	}
	return -1;
}

/*
 * Where an instruction would go: the generator looks for a place first,
 * then for registers, and takes the ports only if both are found. The
 * search is done once; hashx_scheduler_commit() replays its result.
 */
typedef struct hashx_placement {
	uint8_t cycle1, port1; /* the first micro-op */
	uint8_t cycle2, port2; /* the second one; port2 0 if there is none */
} hashx_placement;

/*
 * Earliest cycle, not before `from` (< HASHX_SCHED_CYCLES), at which an
 * instruction made of the micro-ops `uop1` and `uop2` (HASHX_PORT_NONE if
 * it has one) can start, or -1 if it does not fit in the map. `plan`
 * receives the ports it would take.
 */
static HASHX_ALWAYS_INLINE int hashx_scheduler_find(const hashx_scheduler *s,
						    uint8_t uop1, uint8_t uop2,
						    int from,
						    hashx_placement *plan)
{
	int c1 = hashx_find_uop(s, uop1, from, 0, &plan->port1);

	plan->cycle1 = (uint8_t)c1;
	plan->cycle2 = 0;
	plan->port2 = 0;
	if (uop2 == HASHX_PORT_NONE || c1 < 0)
		return c1;

	/*
	 * Two micro-ops are placed conservatively: the instruction starts at
	 * the first cycle where both can start together. When the earliest
	 * cycles of the two differ, no cycle before the later one can work,
	 * so the search resumes there.
	 */
	for (;;) {
		uint8_t port2;
		int c2 = hashx_find_uop(s, uop2, c1, 0, &port2);

		if (c2 < 0)
			return -1;
		if (c1 == c2)
			break;
		c1 = hashx_find_uop(s, uop1, c2, 0, &plan->port1);
		if (c1 < 0)
			return -1;
	}
	/* The second micro-op is placed after the first has taken its port;
	 * when both want the same ports and only one was free, it lands in
	 * a later cycle. The instruction still counts as starting at c1. */
	int c2 = hashx_find_uop(s, uop2, c1, plan->port1, &plan->port2);

	plan->cycle1 = (uint8_t)c1;
	/* (if it finds no port, port2 is 0 and commits nothing) */
	plan->cycle2 = (uint8_t)(c2 < 0 ? c1 : c2);
	return c1;
}

/* Takes the ports of a placement found by hashx_scheduler_find(). */
static inline void hashx_scheduler_commit(hashx_scheduler *s,
					  const hashx_placement *plan)
{
	s->busy[plan->cycle1] |= plan->port1;
	s->busy[plan->cycle2] |= plan->port2;
}

#endif
