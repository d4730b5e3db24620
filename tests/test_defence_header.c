/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_defence_header.c - a client that includes only equix_pow_defence.h,
 * the installed header of the service's defence: it must stand on its own
 * (equix_pow.h's result codes come with it) and declare the queue and the
 * controller. One request queued and served, one tick, each checked.
 */
#include <equix_pow_defence.h>

#include <stdio.h>

static int failed(const char *what, equix_pow_result r)
{
	printf("FAIL: %s: %s\n", what, equix_pow_result_string(r));
	return 1;
}

int main(void)
{
	static int payload;
	equix_pow_queue *q = equix_pow_queue_alloc(0, 0, 0, NULL, NULL);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 0, NULL, NULL);
	equix_pow_popped out;
	equix_pow_tick tick;
	equix_pow_result r;

	if (q == NULL || c == NULL)
		return failed("alloc", EQUIX_POW_FAIL_NO_MEMORY);
	if ((r = equix_pow_queue_add(q, 7, &payload, 0)) != EQUIX_POW_OK)
		return failed("queue_add", r);
	if ((r = equix_pow_queue_pop(q, 0, 0, &out)) != EQUIX_POW_OK)
		return failed("queue_pop", r);
	if (out.status != EQUIX_POW_POP_SERVED || out.payload != &payload ||
	    out.effort != 7)
		return failed("queue_pop: not the request queued",
			      EQUIX_POW_FAIL_INTERNAL);
	if ((r = equix_pow_controller_tick(c, 0, &tick)) != EQUIX_POW_OK)
		return failed("controller_tick", r);
	if (tick.events != 0 || tick.next_tick_ms != EQUIX_POW_UPDATE_PERIOD_MS)
		return failed("controller_tick: not the first period",
			      EQUIX_POW_FAIL_INTERNAL);
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
	puts("ok: equix_pow_defence.h on its own");
	return 0;
}
