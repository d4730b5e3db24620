/*
 * scheduler.c - placing micro-ops on the port map (see scheduler.h).
 */
#include <string.h>

#include "scheduler.h"

void hashx_scheduler_init(hashx_scheduler *s)
{
	memset(s->busy, 0, sizeof s->busy);
}

/*
 * Within a cycle, a micro-op takes P5 first, then P0, then P1: the
 * instructions that can go anywhere are kept off P1, the only port that
 * multiplies, so the one multiplication planned per cycle finds it free.
 */
static uint8_t pick_port(uint8_t free_ports)
{
	if (free_ports & HASHX_PORT_P5)
		return HASHX_PORT_P5;
	if (free_ports & HASHX_PORT_P0)
		return HASHX_PORT_P0;
	return free_ports & HASHX_PORT_P1;
}

/* First cycle from `from` with a port free for `uop`, or -1. */
static int place_uop(hashx_scheduler *s, uint8_t uop, int from, int commit)
{
	for (int cycle = from; cycle < HASHX_SCHED_CYCLES; cycle++) {
		uint8_t port = pick_port(uop & (uint8_t)~s->busy[cycle]);

		if (port != 0) {
			if (commit)
				s->busy[cycle] |= port;
			return cycle;
		}
	}
	return -1;
}

int hashx_scheduler_place(hashx_scheduler *s, uint8_t uop1, uint8_t uop2,
			  int from, int commit)
{
	if (uop2 == HASHX_PORT_NONE)
		return place_uop(s, uop1, from, commit);

	/*
	 * Two micro-ops are placed conservatively: the instruction starts at
	 * the first cycle where both can start together. When the earliest
	 * cycles of the two differ, no cycle before the later one can work,
	 * so the search resumes there.
	 */
	for (int cycle = from;;) {
		int c1 = place_uop(s, uop1, cycle, 0);
		int c2 = place_uop(s, uop2, cycle, 0);

		if (c1 < 0 || c2 < 0)
			return -1;
		if (c1 == c2) {
			/* The second micro-op is placed after the first has
			 * taken its port; when both want the same ports and
			 * only one was free, it lands in a later cycle. The
			 * instruction still counts as starting at c1. */
			if (commit) {
				place_uop(s, uop1, cycle, 1);
				place_uop(s, uop2, cycle, 1);
			}
			return c1;
		}
		cycle = c1 > c2 ? c1 : c2;
	}
}
