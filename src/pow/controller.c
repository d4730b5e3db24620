/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * controller.c - the suggested-effort rule, the republishing rule, and the
 * controller that applies them once per period and schedules the seed's
 * rotation (equix_pow.h, "The service's defence"; doc/defence.md section 2
 * gives each rule and where Tor has it).
 *
 * The two rules are pure functions, so that a simulation and a test can
 * ask them directly; the controller only keeps the times and the two
 * efforts, and reads and sets the queue through its public functions.
 */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "equix_pow.h"
#include "saturate.h"

struct equix_pow_controller {
	equix_pow_queue *queue;
	uint64_t period_ms;
	equix_pow_uniform_fn *uniform;
	void *user;
	uint32_t suggested_effort;
	uint32_t published_effort;
	uint64_t expiration_ms;
	uint64_t next_update_ms;
};

/* ---- The rules --------------------------------------------------------- */

typedef enum aimd_event { AIMD_NONE, AIMD_INCREASE, AIMD_DECREASE } aimd_event;

/* Tor's choice (update_suggested_effort): trimmed requests that paid more
 * than suggested say the effort is too low; a queue whose top still pays
 * enough says the same; a period without a queue that ends below the low
 * level says it is too high. A queue whose top pays less changes
 * nothing. */
static aimd_event aimd_choose(uint32_t suggested, const equix_pow_period *p)
{
	if (p->max_trimmed_effort > suggested)
		return AIMD_INCREASE;
	if (p->had_queue)
		return p->queue_length > 0 && p->top_effort >= suggested
			       ? AIMD_INCREASE
			       : AIMD_NONE;
	return p->queue_length < p->low_level ? AIMD_DECREASE : AIMD_NONE;
}

/* The mean effort of the requests served, at least one more than now.
 * Unlike Tor: nothing served gives suggested + 1 (Tor divides by zero),
 * and a mean above UINT32_MAX saturates (Tor truncates it to 32 bits). */
static uint32_t aimd_increase(uint32_t suggested, const equix_pow_period *p)
{
	uint64_t mean;

	if (suggested == UINT32_MAX)
		return suggested;
	mean = p->handled > 0 ? p->total_effort / p->handled : 0;
	if (mean > UINT32_MAX)
		mean = UINT32_MAX;
	return mean > (uint64_t)suggested + 1 ? (uint32_t)mean : suggested + 1;
}

uint32_t equix_pow_effort_update(uint32_t suggested,
				 const equix_pow_period *period)
{
	if (period == NULL)
		return suggested;
	switch (aimd_choose(suggested, period)) {
	case AIMD_INCREASE:
		return aimd_increase(suggested, period);
	case AIMD_DECREASE:
		/* In 64 bits: Tor's 32-bit 2 * suggested wraps above 2^31. */
		return (uint32_t)((uint64_t)suggested * 2 / 3);
	case AIMD_NONE:
		break;
	}
	return suggested;
}

/* Tor's "s < p * 0.85 || p * 1.15 < s" (update_all_descriptors_pow_params)
 * multiplied through by 100, in 64 bits where no product can wrap. The
 * two agree except where Tor's doubles round an exact boundary (see
 * doc/defence.md, 2.3). */
int equix_pow_effort_needs_republish(uint32_t published, uint32_t suggested)
{
	uint64_t p = published, s = suggested;

	return 100 * s < 85 * p || 115 * p < 100 * s;
}

/* ---- The controller ---------------------------------------------------- */

/* The seed's lifetime, uniform in [MIN, MAX) as Tor's
 * crypto_rand_int_range(MIN, MAX). A source that answers out of range is
 * taken modulo the range, so the lifetime stays in it. */
static uint64_t seed_lifetime(const equix_pow_controller *c)
{
	const uint32_t range =
		(uint32_t)(EQUIX_POW_ROTATE_MAX_MS - EQUIX_POW_ROTATE_MIN_MS);
	uint32_t r = c->uniform != NULL ? c->uniform(c->user, range)
					: randombytes_uniform(range);

	return EQUIX_POW_ROTATE_MIN_MS + r % range;
}

equix_pow_controller *equix_pow_controller_alloc(equix_pow_queue *queue,
						 uint64_t now_ms,
						 uint64_t period_ms,
						 equix_pow_uniform_fn *uniform,
						 void *user)
{
	equix_pow_controller *c;

	if (queue == NULL || (uniform == NULL && sodium_init() < 0))
		return NULL;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	c->queue = queue;
	c->period_ms = period_ms != 0 ? period_ms : EQUIX_POW_UPDATE_PERIOD_MS;
	c->uniform = uniform;
	c->user = user;
	c->next_update_ms = pow_add_saturated(now_ms, c->period_ms);
	c->expiration_ms = pow_add_saturated(now_ms, seed_lifetime(c));
	return c;
}

void equix_pow_controller_free(equix_pow_controller *controller)
{
	free(controller);
}

static uint64_t next_tick(const equix_pow_controller *c)
{
	return c->expiration_ms < c->next_update_ms ? c->expiration_ms
						    : c->next_update_ms;
}

/* Whether a deadline has come. Deadlines are saturated sums, so
 * UINT64_MAX stands for a time past the clock's end: never. Otherwise a
 * tick at UINT64_MAX would find it due at every call, and a caller that
 * ticks at next_tick_ms would spin there, rotating each time. */
static bool due(uint64_t deadline_ms, uint64_t now_ms)
{
	return deadline_ms != UINT64_MAX && now_ms >= deadline_ms;
}

/* The period ends: the rule on the queue's counts, which start again. */
static void update_effort(equix_pow_controller *c, uint64_t now_ms)
{
	equix_pow_period period;

	equix_pow_queue_period(c->queue, &period, 1);
	c->suggested_effort =
		equix_pow_effort_update(c->suggested_effort, &period);
	equix_pow_queue_set_suggested_effort(c->queue, c->suggested_effort);
	c->next_update_ms = pow_add_saturated(now_ms, c->period_ms);
}

/* Tor's order (pow_housekeeping, then update_all_descriptors_pow_params):
 * rotation, then the update, then the descriptor. A rotation always
 * republishes, and like Tor's descriptor it carries the effort as it is
 * after this tick's update; otherwise only a change of more than 15%
 * does. */
static unsigned run_due(equix_pow_controller *c, uint64_t now_ms)
{
	unsigned events = 0;

	if (due(c->expiration_ms, now_ms)) {
		c->expiration_ms = pow_add_saturated(now_ms, seed_lifetime(c));
		events |= EQUIX_POW_TICK_ROTATE | EQUIX_POW_TICK_REPUBLISH;
	}
	if (due(c->next_update_ms, now_ms)) {
		update_effort(c, now_ms);
		events |= EQUIX_POW_TICK_UPDATED;
	}
	if ((events & EQUIX_POW_TICK_ROTATE) ||
	    equix_pow_effort_needs_republish(c->published_effort,
					     c->suggested_effort)) {
		c->published_effort = c->suggested_effort;
		events |= EQUIX_POW_TICK_REPUBLISH;
	}
	return events;
}

/* Whether the queue refuses calls: the tick comes from its discard
 * callback. The tick then does nothing either, rather than rotate the
 * seed and find the queue's period unreadable; asking for the queue's
 * figures is the cheapest way to know. */
static bool queue_refuses(const equix_pow_controller *c)
{
	equix_pow_queue_stats stats;

	return equix_pow_queue_stats_get(c->queue, &stats) ==
	       EQUIX_POW_FAIL_REENTERED;
}

equix_pow_result equix_pow_controller_tick(equix_pow_controller *controller,
					   uint64_t now_ms,
					   equix_pow_tick *tick)
{
	if (controller == NULL || tick == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (queue_refuses(controller))
		return EQUIX_POW_FAIL_REENTERED;
	memset(tick, 0, sizeof *tick);
	if (due(next_tick(controller), now_ms))
		tick->events = run_due(controller, now_ms);
	tick->suggested_effort = controller->suggested_effort;
	tick->published_effort = controller->published_effort;
	tick->expiration_ms = controller->expiration_ms;
	tick->next_tick_ms = next_tick(controller);
	return EQUIX_POW_OK;
}
