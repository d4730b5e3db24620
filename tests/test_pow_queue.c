/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_pow_queue.c - the service's defence through the public API: the
 * suggested-effort rule and the republishing rule against tables worked
 * by hand (every branch, the edges where this library deliberately
 * differs from Tor), the request queue's order, levels, trimming, expiry,
 * token bucket, in-flight rule and period counts, every payload handed
 * back exactly once (they are malloc'ed and freed in the callback, so
 * valgrind and ASan see any loss), every call from the discard callback
 * refused with each payload still back once, a callback that leaves by
 * longjmp() from each place the queue calls it (the queue refuses calls
 * until equix_pow_queue_recover(), then holds every payload not yet
 * handed back), the queue against a naive sorted list over random
 * operations, and the controller's schedule of updates, republications
 * and seed rotations.
 */
#include <config.h>

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>

#include "testutil.h"

/* ---- Helpers ------------------------------------------------------------ */

/* What the discard callback saw: payloads are malloc'ed ints (their id),
 * freed here; the last few are kept in order for the tests to compare. */
#define LOG_MAX 64

typedef struct discard_log {
	long by_reason[4];
	long total;
	int ids[LOG_MAX];
	uint32_t efforts[LOG_MAX];
	equix_pow_discard_reason reasons[LOG_MAX];
	int count; /* entries in ids[], reset by the tests */
} discard_log;

static void *payload_new(int id)
{
	int *p = malloc(sizeof *p);

	ck_assert_ptr_nonnull(p);
	*p = id;
	return p;
}

/* The id of a payload given back, which is then freed. */
static int payload_take(void *payload)
{
	int id;

	ck_assert_ptr_nonnull(payload);
	id = *(int *)payload;
	free(payload);
	return id;
}

static void on_discard(void *user, void *payload, uint32_t effort,
		       equix_pow_discard_reason reason)
{
	discard_log *log = user;
	int id = payload_take(payload);

	ck_assert_int_ge(reason, EQUIX_POW_DISCARD_TRIMMED);
	ck_assert_int_le(reason, EQUIX_POW_DISCARD_FREED);
	log->by_reason[reason]++;
	log->total++;
	if (log->count < LOG_MAX) {
		log->ids[log->count] = id;
		log->efforts[log->count] = effort;
		log->reasons[log->count] = reason;
		log->count++;
	}
}

static equix_pow_queue *queue_new(uint32_t rate, uint32_t burst,
				  uint64_t now, discard_log *log)
{
	equix_pow_queue *q;

	memset(log, 0, sizeof *log);
	q = equix_pow_queue_alloc(rate, burst, now, on_discard, log);
	ck_assert_ptr_nonnull(q);
	return q;
}

static void add(equix_pow_queue *q, uint32_t effort, int id, uint64_t now)
{
	ck_assert_int_eq(equix_pow_queue_add(q, effort, payload_new(id), now),
			 EQUIX_POW_OK);
}

static equix_pow_popped pop(equix_pow_queue *q, uint64_t now,
			    uint32_t in_flight)
{
	equix_pow_popped out;

	ck_assert_int_eq(equix_pow_queue_pop(q, now, in_flight, &out),
			 EQUIX_POW_OK);
	return out;
}

/* Pops and expects a request served: returns its id (payload freed). */
static int pop_served(equix_pow_queue *q, uint64_t now, uint32_t in_flight,
		      uint32_t want_effort)
{
	equix_pow_popped out = pop(q, now, in_flight);

	ck_assert_int_eq(out.status, EQUIX_POW_POP_SERVED);
	ck_assert_uint_eq(out.effort, want_effort);
	return payload_take(out.payload);
}

static equix_pow_queue_stats stats_of(const equix_pow_queue *q)
{
	equix_pow_queue_stats s;

	ck_assert_int_eq(equix_pow_queue_stats_get(q, &s), EQUIX_POW_OK);
	return s;
}

static equix_pow_period period_of(equix_pow_queue *q, int reset)
{
	equix_pow_period p;

	ck_assert_int_eq(equix_pow_queue_period(q, &p, reset), EQUIX_POW_OK);
	return p;
}

/* splitmix64: the randomized tests' fixed-seed source. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint32_t random_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(next_random(state) % n);
}

/* ---- The suggested-effort rule ----------------------------------------- */

#define BIG ((uint32_t)1 << 31)

static const struct effort_case {
	const char *what;
	uint32_t suggested;
	equix_pow_period period;
	uint32_t want;
} effort_cases[] = {
	/* total, handled, max trimmed, had queue, length, top, low */
	{"trimmed above suggested: the mean", 100,
	 {5000, 10, 101, 0, 0, 0, 16}, 500},
	{"trimmed above suggested, mean below: +1", 100,
	 {500, 10, 200, 0, 0, 0, 16}, 101},
	{"trimmed above suggested wins over a queue whose top is low", 100,
	 {3000, 10, 101, 1, 20, 5, 16}, 300},
	{"trimmed equal to suggested is no increase (empty: decrease)", 100,
	 {5000, 10, 100, 0, 0, 0, 16}, 66},
	{"had a queue, top at suggested: the mean", 100,
	 {3000, 10, 0, 1, 20, 100, 16}, 300},
	{"had a queue, top above suggested, mean low: +1", 100,
	 {30, 10, 0, 1, 20, 1000, 16}, 101},
	{"had a queue, top below suggested: no change", 100,
	 {3000, 10, 0, 1, 20, 99, 16}, 100},
	{"had a queue, now empty: no change (no decrease)", 100,
	 {3000, 10, 0, 1, 0, 0, 16}, 100},
	{"no queue, length below low: decrease", 99,
	 {3000, 10, 0, 0, 15, 500, 16}, 66},
	{"no queue, length at low: no change", 99,
	 {3000, 10, 0, 0, 16, 500, 16}, 99},
	{"increase with nothing handled: +1 (Tor divides by zero)", 100,
	 {1000, 0, 500, 0, 0, 0, 16}, 101},
	{"mean above 2^32-1 saturates (Tor truncates)", 5,
	 {(uint64_t)50000000000u, 1, 10, 0, 0, 0, 16}, UINT32_MAX},
	{"mean of exactly 2^32-1", 5,
	 {(uint64_t)UINT32_MAX * 2, 2, 10, 0, 0, 0, 16}, UINT32_MAX},
	{"mean of 2^32 truncates to 0 in Tor, saturates here", 5,
	 {(uint64_t)1 << 32, 1, 10, 0, 0, 0, 16}, UINT32_MAX},
	{"decrease above 2^31 is exact (Tor's 2*s wraps)", BIG + 1,
	 {0, 0, 0, 0, 0, 0, 16}, 1431655766},
	{"decrease of 2^31", BIG, {0, 0, 0, 0, 0, 0, 16}, 1431655765},
	{"decrease of UINT32_MAX", UINT32_MAX, {0, 0, 0, 0, 0, 0, 16},
	 2863311530u},
	{"UINT32_MAX never increases", UINT32_MAX,
	 {UINT64_MAX, 1, 0, 1, 20, UINT32_MAX, 16}, UINT32_MAX},
	{"UINT32_MAX - 1 increases to the top", UINT32_MAX - 1,
	 {0, 0, UINT32_MAX, 0, 0, 0, 16}, UINT32_MAX},
	{"1 decreases to 0", 1, {0, 0, 0, 0, 0, 0, 16}, 0},
	{"0 decreases to 0", 0, {0, 0, 0, 0, 3, 0, 16}, 0},
	{"0 with a queue of effort 0: +1", 0, {0, 5, 0, 1, 20, 0, 16}, 1},
	{"0 with a request trimmed at 1: +1", 0, {0, 0, 1, 0, 0, 0, 16}, 1},
	{"low level 0: nothing is below it, no change", 50,
	 {0, 0, 0, 0, 0, 0, 0}, 50},
};

START_TEST(effort_update_table)
{
	for (size_t i = 0; i < sizeof effort_cases / sizeof effort_cases[0];
	     i++) {
		const struct effort_case *c = &effort_cases[i];
		uint32_t got = equix_pow_effort_update(c->suggested, &c->period);

		ck_assert_msg(got == c->want, "%s: got %u, want %u", c->what,
			      got, c->want);
	}
	ck_assert_uint_eq(equix_pow_effort_update(1234, NULL), 1234);
	ck_assert_uint_eq(equix_pow_effort_update(UINT32_MAX, NULL),
			  UINT32_MAX);
}
END_TEST

/* ---- The republishing rule --------------------------------------------- */

static const struct republish_case {
	uint32_t published, suggested;
	int want;
} republish_cases[] = {
	{0, 0, 0},
	{0, 1, 1},
	{0, UINT32_MAX, 1},
	{1, 0, 1},
	{1, 1, 0},
	{1, 2, 1},
	{100, 85, 0},  /* exactly 15% down: not more than 15% */
	{100, 84, 1},
	{100, 115, 0}, /* exactly 15% up; Tor's doubles say 1 here */
	{100, 116, 1},
	{20, 17, 0},
	{20, 16, 1},
	{20, 23, 0},
	{20, 24, 1},
	{7, 6, 0}, /* 14.3% down */
	{7, 5, 1},
	{7, 8, 0}, /* 14.3% up */
	{7, 9, 1},
	{4000000000u, 3400000000u, 0},
	{4000000000u, 3399999999u, 1},
	{3734000000u, UINT32_MAX, 1}, /* 15.02% up */
	{3734000000u, 3734000000u + 560100000u, 0}, /* exactly 15% */
	{3734000000u, 3734000000u + 560100001u, 1},
	{UINT32_MAX, UINT32_MAX, 0},
	{UINT32_MAX, 0, 1},
};

START_TEST(republish_table)
{
	for (size_t i = 0;
	     i < sizeof republish_cases / sizeof republish_cases[0]; i++) {
		const struct republish_case *c = &republish_cases[i];

		ck_assert_msg(equix_pow_effort_needs_republish(
				      c->published, c->suggested) == c->want,
			      "published %u, suggested %u: want %d",
			      c->published, c->suggested, c->want);
	}
}
END_TEST

/* ---- The queue: levels and order --------------------------------------- */

START_TEST(levels)
{
	static const struct {
		uint32_t rate, burst, low, high;
	} cases[] = {
		{0, 0, 16, 16384},
		{0, 100, 16, 16384},
		{10, 5, 16, 16384}, /* burst below rate: no limit */
		{10, 10, 8, 610},
		{10, 20, 8, 620},
		{100, 100, 25, 6100},
		{250, 2500, 62, 17500}, /* Tor's defaults */
		/* the high level at most 65536, the low one 16384 */
		{1050, 2500, 262, 65500},
		{1051, 2500, 262, 65536},
		{65532, 65532, 16383, 65536},
		{65536, 65536, 16384, 65536},
		{UINT32_MAX, UINT32_MAX, 16384, 65536},
		{1, UINT32_MAX, 8, 65536},
	};
	discard_log log;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		equix_pow_queue *q =
			queue_new(cases[i].rate, cases[i].burst, 0, &log);
		equix_pow_queue_stats s = stats_of(q);

		ck_assert_uint_eq(s.low_level, cases[i].low);
		ck_assert_uint_eq(s.high_level, cases[i].high);
		ck_assert_uint_eq(s.length, 0);
		ck_assert_uint_eq(s.top_effort, 0);
		ck_assert_uint_eq(s.suggested_effort, 0);
		equix_pow_queue_free(q);
	}
}
END_TEST

START_TEST(order_and_tie_break)
{
	static const uint32_t efforts[] = {5, 10, 5, 10, 0, 7, 10, 0};
	static const int want[] = {1, 3, 6, 5, 0, 2, 4, 7};
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);

	/* All at one time: only the insertion order separates the ties. */
	for (int i = 0; i < 8; i++)
		add(q, efforts[i], i, 1000);
	ck_assert_uint_eq(stats_of(q).top_effort, 10);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(pop_served(q, 1000, 0, efforts[want[i]]),
				 want[i]);
	ck_assert_int_eq(pop(q, 1000, 0).status, EQUIX_POW_POP_EMPTY);
	/* A later request of the same effort comes after, whatever the
	 * heap's shape: 40 requests of two efforts, interleaved. */
	for (int i = 0; i < 40; i++)
		add(q, (uint32_t)(i % 2), i, 2000 + (uint64_t)i);
	for (int i = 1; i < 40; i += 2)
		ck_assert_int_eq(pop_served(q, 2100, 0, 1), i);
	for (int i = 0; i < 40; i += 2)
		ck_assert_int_eq(pop_served(q, 2100, 0, 0), i);
	ck_assert_int_eq(log.total, 0);
	equix_pow_queue_free(q);
}
END_TEST

START_TEST(served_fields)
{
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_popped out;

	ck_assert_int_eq(equix_pow_queue_add(q, 42, NULL, 1234), EQUIX_POW_OK);
	out = pop(q, 2000, 0);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_SERVED);
	ck_assert_ptr_null(out.payload);
	ck_assert_uint_eq(out.effort, 42);
	ck_assert_uint_eq(out.enqueued_ms, 1234);
	ck_assert_uint_eq(out.retry_at_ms, 0);
	out = pop(q, 2000, 0);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_EMPTY);
	ck_assert_ptr_null(out.payload);
	ck_assert_uint_eq(out.effort, 0);
	equix_pow_queue_free(q);
}
END_TEST

/* ---- Trimming ----------------------------------------------------------- */

/* rate 1, burst 1: high level 1 + 60 = 61, half of it 30. */
START_TEST(trim_at_high_level)
{
	discard_log log;
	equix_pow_queue *q = queue_new(1, 1, 0, &log);
	equix_pow_queue_stats s;
	equix_pow_period p;
	uint64_t total = 0;

	ck_assert_uint_eq(stats_of(q).high_level, 61);
	for (int i = 0; i < 60; i++) {
		add(q, (uint32_t)i, i, 100);
		total += (uint64_t)i;
	}
	ck_assert_uint_eq(stats_of(q).length, 60);
	ck_assert_int_eq(log.total, 0);
	/* The 61st reaches the high level: the best 30 stay (100, 59..31),
	 * efforts 30..0 go, in serving order. */
	add(q, 100, 100, 100);
	total += 100;
	s = stats_of(q);
	ck_assert_uint_eq(s.length, 30);
	ck_assert_uint_eq(s.top_effort, 100);
	ck_assert_uint_eq(s.added, 61);
	ck_assert_uint_eq(s.trimmed, 31);
	ck_assert_uint_eq(s.expired, 0);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_TRIMMED], 31);
	ck_assert_int_eq(log.total, 31);
	for (int i = 0; i < 31; i++) {
		ck_assert_int_eq(log.ids[i], 30 - i);
		ck_assert_uint_eq(log.efforts[i], (uint32_t)(30 - i));
		ck_assert_int_eq(log.reasons[i], EQUIX_POW_DISCARD_TRIMMED);
	}
	p = period_of(q, 0);
	ck_assert_uint_eq(p.max_trimmed_effort, 30);
	ck_assert_uint_eq(p.total_effort, total);
	ck_assert_uint_eq(p.queue_length, 30);
	ck_assert_uint_eq(p.top_effort, 100);
	ck_assert_uint_eq(p.low_level, 8);
	ck_assert_uint_eq(p.handled, 0);
	/* What stays is still served in order, one a second (no request
	 * grows too old for this check). */
	ck_assert_int_eq(equix_pow_queue_set_limits(q, 0, UINT64_MAX, 0),
			 EQUIX_POW_OK);
	ck_assert_int_eq(pop_served(q, 100, 0, 100), 100);
	for (int i = 59; i >= 31; i--) {
		uint64_t t = 100 + (uint64_t)(60 - i) * 1000;

		ck_assert_int_eq(pop(q, t - 1, 0).status,
				 EQUIX_POW_POP_WAIT_RATE);
		ck_assert_int_eq(pop_served(q, t, 0, (uint32_t)i), i);
	}
	equix_pow_queue_free(q);
}
END_TEST

/* Old requests met while keeping are discarded as expired, and their
 * effort counts as trimmed, as Tor's trim counts them. */
START_TEST(trim_drops_old_requests)
{
	discard_log log;
	equix_pow_queue *q = queue_new(1, 1, 0, &log);
	equix_pow_queue_stats s;

	for (int i = 0; i < 10; i++)
		add(q, 1000 + (uint32_t)i, 1000 + i, 0);
	/* 20 s later they are too old when the trim meets them. */
	for (int i = 0; i < 51; i++)
		add(q, (uint32_t)i, i, 20000);
	s = stats_of(q);
	ck_assert_uint_eq(s.length, 30);
	ck_assert_uint_eq(s.expired, 10);
	ck_assert_uint_eq(s.trimmed, 21);
	ck_assert_uint_eq(s.top_effort, 50);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_EXPIRED], 10);
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(log.ids[i], 1009 - i);
		ck_assert_int_eq(log.reasons[i], EQUIX_POW_DISCARD_EXPIRED);
	}
	for (int i = 10; i < 31; i++) {
		ck_assert_int_eq(log.ids[i], 20 - (i - 10));
		ck_assert_int_eq(log.reasons[i], EQUIX_POW_DISCARD_TRIMMED);
	}
	ck_assert_uint_eq(period_of(q, 1).max_trimmed_effort, 1009);
	ck_assert_uint_eq(period_of(q, 0).max_trimmed_effort, 0);
	equix_pow_queue_free(q);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_FREED], 30);
}
END_TEST

/* Requests exactly at the age limit survive a trim. */
START_TEST(trim_keeps_age_limit)
{
	discard_log log;
	equix_pow_queue *q = queue_new(1, 1, 0, &log);

	for (int i = 0; i < 10; i++)
		add(q, 1000, i, 5000);
	for (int i = 0; i < 51; i++)
		add(q, (uint32_t)i, 100 + i, 20000);
	ck_assert_uint_eq(stats_of(q).expired, 0);
	ck_assert_uint_eq(stats_of(q).trimmed, 31);
	ck_assert_uint_eq(period_of(q, 0).max_trimmed_effort, 30);
	ck_assert_int_eq(pop_served(q, 20000, 0, 1000), 0);
	equix_pow_queue_free(q);
}
END_TEST

/* The queue never holds the high level: after each addition it is below,
 * over many trims. */
START_TEST(length_bounded)
{
	discard_log log;
	equix_pow_queue *q = queue_new(2, 2, 0, &log);
	uint64_t state = 7;
	uint32_t high = stats_of(q).high_level;

	ck_assert_uint_eq(high, 122);
	for (int i = 0; i < 10000; i++) {
		add(q, random_below(&state, 1000), i, (uint64_t)i);
		ck_assert_uint_lt(stats_of(q).length, high);
	}
	ck_assert_int_eq(log.total, 10000 - (long)stats_of(q).length);
	equix_pow_queue_free(q);
	ck_assert_int_eq(log.total, 10000);
}
END_TEST

static void count_discards(void *user, void *payload, uint32_t effort,
			   equix_pow_discard_reason reason)
{
	(void)payload;
	(void)effort;
	(void)reason;
	++*(long *)user;
}

/* At the largest rate and burst (a high level of burst + 60 * rate, 2^32
 * - 1 and more without a cap), the queue is trimmed at 65536 requests,
 * its array of them at most 2 MiB: it never holds that many, and the one
 * addition that trims hands back half of them, no more. */
START_TEST(length_bounded_at_max_rate)
{
	enum { CAP = 65536 };
	long discarded = 0, most = 0;
	equix_pow_queue *q = equix_pow_queue_alloc(UINT32_MAX, UINT32_MAX, 0,
						   count_discards, &discarded);
	uint64_t state = 11;
	uint32_t longest = 0;

	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(EQUIX_POW_QUEUE_MAX_HIGH_LEVEL, CAP);
	ck_assert_uint_eq(stats_of(q).high_level, CAP);
	/* 12 s in all: none too old */
	for (long i = 0; i < CAP + CAP / 2; i++) {
		long before = discarded;
		uint32_t length;

		ck_assert_int_eq(equix_pow_queue_add(q,
						     random_below(&state, 1000),
						     NULL, (uint64_t)i / 8),
				 EQUIX_POW_OK);
		length = stats_of(q).length;
		if (length > longest)
			longest = length;
		if (discarded - before > most)
			most = discarded - before;
	}
	ck_assert_msg(longest < CAP, "the queue held %u requests", longest);
	ck_assert_int_eq(longest, CAP - 1);
	ck_assert_int_eq(most, CAP / 2);
	ck_assert_int_eq(discarded, CAP);
	ck_assert_uint_eq(stats_of(q).trimmed, CAP);
	ck_assert_uint_eq(stats_of(q).length, CAP / 2);
	equix_pow_queue_free(q);
	ck_assert_int_eq(discarded, CAP + CAP / 2);
}
END_TEST

/* ---- Serving: expiry, bucket, in-flight rule, had_queue --------------- */

START_TEST(expiry_on_pop)
{
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);

	add(q, 5, 0, 0);
	add(q, 1, 1, 10000);
	/* 15 s old exactly: served (Tor: too old only past 15 s). */
	ck_assert_int_eq(pop_served(q, 15000, 0, 5), 0);
	add(q, 8, 2, 15000);
	add(q, 1, 3, 29000);
	/* 15.001 s and 20.001 s: both dropped, and the next one served in
	 * the same call. */
	ck_assert_int_eq(pop_served(q, 30001, 0, 1), 3);
	ck_assert_int_eq(log.count, 2);
	ck_assert_int_eq(log.ids[0], 2);
	ck_assert_int_eq(log.ids[1], 1);
	ck_assert_int_eq(log.reasons[1], EQUIX_POW_DISCARD_EXPIRED);
	/* All too old: the call ends empty. */
	add(q, 3, 4, 31000);
	add(q, 4, 5, 31000);
	ck_assert_int_eq(pop(q, 50000, 0).status, EQUIX_POW_POP_EMPTY);
	ck_assert_uint_eq(stats_of(q).expired, 4);
	ck_assert_uint_eq(stats_of(q).served, 2);
	ck_assert_uint_eq(stats_of(q).length, 0);
	ck_assert_uint_eq(period_of(q, 0).handled, 2);
	/* A shorter limit from set_limits; 0 keeps the others. */
	ck_assert_int_eq(equix_pow_queue_set_limits(q, 0, 10, 0),
			 EQUIX_POW_OK);
	add(q, 9, 6, 60000);
	ck_assert_int_eq(pop(q, 60011, 0).status, EQUIX_POW_POP_EMPTY);
	ck_assert_uint_eq(stats_of(q).expired, 5);
	add(q, 9, 7, 60011);
	ck_assert_int_eq(pop_served(q, 60021, 0, 9), 7);
	equix_pow_queue_free(q);
	ck_assert_int_eq(log.total, 5);
}
END_TEST

START_TEST(token_bucket)
{
	const uint64_t t0 = 5000;
	discard_log log;
	equix_pow_queue *q = queue_new(10, 20, t0, &log);
	equix_pow_popped out;
	int id = 0;

	/* The rate alone is under test: no request grows too old. */
	equix_pow_queue_set_limits(q, 0, UINT64_MAX, 0);
	for (int i = 0; i < 200; i++)
		add(q, 1, i, t0);
	/* Full at allocation: the burst at once. */
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(pop_served(q, t0, 0, 1), id++);
	out = pop(q, t0, 0);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_WAIT_RATE);
	ck_assert_uint_eq(out.retry_at_ms, t0 + 100);
	ck_assert_ptr_null(out.payload);
	/* Then exactly one per 100 ms. */
	for (uint64_t k = 1; k <= 50; k++) {
		uint64_t t = t0 + 100 * k;

		ck_assert_int_eq(pop(q, t - 1, 0).status,
				 EQUIX_POW_POP_WAIT_RATE);
		ck_assert_int_eq(pop_served(q, t, 0, 1), id++);
		out = pop(q, t, 0);
		ck_assert_int_eq(out.status, EQUIX_POW_POP_WAIT_RATE);
		ck_assert_uint_eq(out.retry_at_ms, t + 100);
	}
	/* Refilled continuously: 250 ms give two tokens and a half. */
	{
		uint64_t t = t0 + 5000 + 250;

		ck_assert_int_eq(pop_served(q, t, 0, 1), id++);
		ck_assert_int_eq(pop_served(q, t, 0, 1), id++);
		ck_assert_int_eq(pop(q, t, 0).status, EQUIX_POW_POP_WAIT_RATE);
		ck_assert_int_eq(pop_served(q, t + 50, 0, 1), id++);
	}
	/* A long idle time fills it to the burst, no more. */
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(pop_served(q, 1000000, 0, 1), id++);
	ck_assert_int_eq(pop(q, 1000000, 0).status, EQUIX_POW_POP_WAIT_RATE);
	equix_pow_queue_free(q);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_FREED], 200 - id);
}
END_TEST

/* Refilling is exact where a whole token does not divide the time: at 3
 * a second, 333 ms give 999 milli-tokens, not one token. */
START_TEST(token_bucket_exact)
{
	discard_log log;
	equix_pow_queue *q = queue_new(3, 3, 0, &log);

	for (int i = 0; i < 10; i++)
		add(q, 1, i, 0);
	ck_assert_int_eq(pop_served(q, 0, 0, 1), 0); /* 2 tokens left */
	ck_assert_int_eq(pop_served(q, 333, 0, 1), 1);
	ck_assert_int_eq(pop_served(q, 333, 0, 1), 2); /* 0.999 left */
	ck_assert_int_eq(pop(q, 333, 0).status, EQUIX_POW_POP_WAIT_RATE);
	ck_assert_int_eq(pop_served(q, 334, 0, 1), 3);
	ck_assert_int_eq(pop(q, 334, 0).status, EQUIX_POW_POP_WAIT_RATE);
	/* A clock far ahead fills the bucket without overflow. */
	equix_pow_queue_set_limits(q, 0, UINT64_MAX, 0);
	for (int i = 4; i < 7; i++)
		ck_assert_int_eq(pop_served(q, UINT64_MAX, 0, 1), i);
	ck_assert_int_eq(pop(q, UINT64_MAX, 0).status,
			 EQUIX_POW_POP_WAIT_RATE);
	equix_pow_queue_free(q);
}
END_TEST

/* A request dropped as too old still spends its token, as in Tor. */
START_TEST(expired_spends_token)
{
	discard_log log;
	equix_pow_queue *q = queue_new(1, 2, 0, &log);

	add(q, 9, 0, 0);
	add(q, 8, 1, 0);
	add(q, 1, 2, 20000);
	/* 20 s later the bucket is full (2): both old ones take a token. */
	ck_assert_int_eq(pop(q, 20000, 0).status, EQUIX_POW_POP_WAIT_RATE);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_EXPIRED], 2);
	ck_assert_int_eq(pop_served(q, 21000, 0, 1), 2);
	equix_pow_queue_free(q);
}
END_TEST

START_TEST(in_flight_rule)
{
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_popped out;

	ck_assert_int_eq(equix_pow_queue_set_suggested_effort(q, 10),
			 EQUIX_POW_OK);
	ck_assert_uint_eq(stats_of(q).suggested_effort, 10);
	add(q, 9, 0, 0);
	out = pop(q, 700, EQUIX_POW_QUEUE_MAX_IN_FLIGHT);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_WAIT_IN_FLIGHT);
	ck_assert_uint_eq(out.retry_at_ms, 800);
	ck_assert_uint_eq(stats_of(q).length, 1);
	ck_assert_int_eq(pop(q, 700, UINT32_MAX).status,
			 EQUIX_POW_POP_WAIT_IN_FLIGHT);
	/* Below the limit, a cheap one is served. */
	ck_assert_int_eq(pop_served(q, 700, EQUIX_POW_QUEUE_MAX_IN_FLIGHT - 1,
				    9),
			 0);
	/* At or above the suggested effort, the limit does not apply. */
	add(q, 10, 1, 0);
	add(q, 11, 2, 0);
	add(q, 3, 3, 0);
	ck_assert_int_eq(pop_served(q, 700, 100, 11), 2);
	ck_assert_int_eq(pop_served(q, 700, 100, 10), 1);
	ck_assert_int_eq(pop(q, 700, 100).status,
			 EQUIX_POW_POP_WAIT_IN_FLIGHT);
	/* Another limit and wait from set_limits. */
	ck_assert_int_eq(equix_pow_queue_set_limits(q, 200, 0, 7),
			 EQUIX_POW_OK);
	ck_assert_int_eq(pop_served(q, 700, 100, 3), 3);
	add(q, 3, 4, 0);
	out = pop(q, 700, 200);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_WAIT_IN_FLIGHT);
	ck_assert_uint_eq(out.retry_at_ms, 707);
	/* A retry time past the clock's end saturates. */
	out = pop(q, UINT64_MAX - 3, 200);
	ck_assert_uint_eq(out.retry_at_ms, UINT64_MAX);
	equix_pow_queue_free(q);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_FREED], 1);
}
END_TEST

/* The in-flight rule is checked before the bucket, so a held request
 * costs no token. */
START_TEST(in_flight_before_bucket)
{
	discard_log log;
	equix_pow_queue *q = queue_new(1, 1, 0, &log);

	equix_pow_queue_set_suggested_effort(q, 5);
	add(q, 1, 0, 0);
	ck_assert_int_eq(pop(q, 0, 16).status, EQUIX_POW_POP_WAIT_IN_FLIGHT);
	ck_assert_int_eq(pop_served(q, 0, 0, 1), 0);
	add(q, 1, 1, 0);
	ck_assert_int_eq(pop(q, 0, 0).status, EQUIX_POW_POP_WAIT_RATE);
	equix_pow_queue_free(q);
}
END_TEST

START_TEST(had_queue_marking)
{
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_period p;

	for (int i = 0; i < 17; i++)
		add(q, 4, i, 0);
	ck_assert_int_eq(period_of(q, 0).had_queue, 0);
	/* 16 left, the low level: a queue. */
	pop_served(q, 0, 0, 4);
	p = period_of(q, 1);
	ck_assert_int_eq(p.had_queue, 1);
	ck_assert_uint_eq(p.handled, 1);
	ck_assert_uint_eq(p.total_effort, 68);
	ck_assert_uint_eq(p.queue_length, 16);
	p = period_of(q, 0);
	ck_assert_int_eq(p.had_queue, 0);
	ck_assert_uint_eq(p.handled, 0);
	ck_assert_uint_eq(p.total_effort, 0);
	ck_assert_uint_eq(p.queue_length, 16);
	/* 15 left: below it. */
	pop_served(q, 0, 0, 4);
	ck_assert_int_eq(period_of(q, 0).had_queue, 0);
	/* A call that waits does not mark, whatever the length. */
	for (int i = 0; i < 10; i++)
		add(q, 4, 100 + i, 0);
	equix_pow_queue_set_suggested_effort(q, 5);
	ck_assert_int_eq(pop(q, 0, 16).status, EQUIX_POW_POP_WAIT_IN_FLIGHT);
	ck_assert_int_eq(period_of(q, 0).had_queue, 0);
	/* One that drops old requests and ends empty does not either. */
	ck_assert_int_eq(pop(q, 100000, 0).status, EQUIX_POW_POP_EMPTY);
	ck_assert_int_eq(period_of(q, 0).had_queue, 0);
	ck_assert_uint_eq(stats_of(q).expired, 25);
	equix_pow_queue_free(q);
}
END_TEST

START_TEST(had_queue_not_on_rate_wait)
{
	discard_log log;
	equix_pow_queue *q = queue_new(1, 1, 0, &log);

	for (int i = 0; i < 10; i++)
		add(q, 4, i, 0);
	pop_served(q, 0, 0, 4); /* 9 left, low level 8 */
	ck_assert_int_eq(period_of(q, 1).had_queue, 1);
	ck_assert_int_eq(pop(q, 0, 0).status, EQUIX_POW_POP_WAIT_RATE);
	ck_assert_int_eq(period_of(q, 0).had_queue, 0);
	equix_pow_queue_free(q);
}
END_TEST

/* Every payload comes back exactly once: served, trimmed, expired, or at
 * free. The ids seen are counted. */
START_TEST(every_payload_once)
{
	enum { N = 3000 };
	unsigned char seen[N];
	discard_log log;
	equix_pow_queue *q = queue_new(3, 3, 0, &log);
	uint64_t state = 99, now = 0;
	int next = 0;
	long served = 0;

	memset(seen, 0, sizeof seen);
	while (next < N) {
		/* arrivals faster than the rate, and now and then a pause
		 * that leaves every queued request too old */
		now += random_below(&state, 100) == 0 ? 20000
						      : random_below(&state, 50);
		if (random_below(&state, 6) != 0) {
			add(q, random_below(&state, 50), next++, now);
			continue;
		}
		equix_pow_popped out = pop(q, now, 0);

		if (out.status == EQUIX_POW_POP_SERVED) {
			int id = payload_take(out.payload);

			ck_assert_int_eq(seen[id]++, 0);
			served++;
		}
	}
	ck_assert_int_gt(log.by_reason[EQUIX_POW_DISCARD_TRIMMED], 0);
	ck_assert_int_gt(log.by_reason[EQUIX_POW_DISCARD_EXPIRED], 0);
	ck_assert_int_gt(served, 0);
	equix_pow_queue_free(q);
	ck_assert_int_gt(log.by_reason[EQUIX_POW_DISCARD_FREED], 0);
	ck_assert_int_eq(log.total + served, N);
}
END_TEST

/* Without a callback the payloads are simply not handed back. */
START_TEST(no_callback)
{
	equix_pow_queue *q = equix_pow_queue_alloc(1, 1, 0, NULL, NULL);
	int dummy[100];

	ck_assert_ptr_nonnull(q);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(equix_pow_queue_add(q, (uint32_t)i, &dummy[i],
						     0),
				 EQUIX_POW_OK);
	/* trims at the 61st and the 92nd: 30 + 8 left */
	ck_assert_uint_eq(stats_of(q).length, 38);
	ck_assert_uint_eq(stats_of(q).trimmed, 62);
	equix_pow_queue_free(q);
}
END_TEST

/* ---- Calls from the discard callback ----------------------------------- */

/* Each payload is a distinct slot of `slots`, and what comes back is
 * counted per slot. The callback, each time it runs (but not when it runs
 * inside one of its own calls, which only a broken queue allows), makes
 * one call of the queue's API, or of a controller driving the queue,
 * which must be refused: EQUIX_POW_FAIL_REENTERED, nothing changed. */
#define REENTRY_SLOTS 256

typedef enum reentry_call {
	CALL_ADD,
	CALL_POP,
	CALL_FREE,
	CALL_STATS,
	CALL_PERIOD,
	CALL_SET_EFFORT,
	CALL_SET_LIMITS,
	CALL_TICK,
	CALL_COUNT
} reentry_call;

static const char *const call_names[CALL_COUNT] = {
	"add",    "pop",		  "free",	"stats_get",
	"period", "set_suggested_effort", "set_limits", "controller_tick",
};

/* Where the callback runs: a trim, a trim that meets old requests, a pop
 * that meets old requests, the queue's free. */
typedef enum reentry_context {
	IN_TRIM,
	IN_TRIM_EXPIRY,
	IN_POP,
	IN_FREE,
	CONTEXT_COUNT
} reentry_context;

static const char *const context_names[CONTEXT_COUNT] = {
	"a trim", "a trim that expires", "a pop that expires", "free",
};

typedef struct reentry {
	equix_pow_queue *q;
	equix_pow_controller *ctl;
	reentry_call call;
	int slots[REENTRY_SLOTS];
	int next;                            /* the next unused slot */
	unsigned char queued[REENTRY_SLOTS]; /* taken by the queue */
	unsigned char back[REENTRY_SLOTS];   /* handed back, any way */
	int strays;                          /* not one of the slots */
	int depth;                           /* in a call from the callback */
	long calls;                          /* of the callback */
	long leave_at;                       /* leave()'s run that longjmps */
	long made, refused;                  /* calls it made, refused */
	equix_pow_result other;              /* the first result not refused */
} reentry;

static void note_back(reentry *r, void *payload)
{
	int *p = payload;

	if (p < r->slots || p >= r->slots + REENTRY_SLOTS) {
		r->strays++;
		return;
	}
	r->back[p - r->slots]++;
}

/* Offers the next slot to the queue; the result of the addition. */
static equix_pow_result offer(reentry *r, uint32_t effort, uint64_t now)
{
	int slot = r->next;
	equix_pow_result res;

	/* (only a queue that lets the callback add runs out: then each
	 * addition it makes brings another callback) */
	if (slot == REENTRY_SLOTS)
		return EQUIX_POW_FAIL_NO_MEMORY;
	r->next++;
	res = equix_pow_queue_add(r->q, effort, &r->slots[slot], now);
	if (res == EQUIX_POW_OK)
		r->queued[slot] = 1;
	return res;
}

/* The call the callback makes; free has no result, and is judged by what
 * comes back afterwards. */
static equix_pow_result reentry_make(reentry *r)
{
	equix_pow_popped out;
	equix_pow_queue_stats st;
	equix_pow_period p;
	equix_pow_tick t;
	equix_pow_result res = EQUIX_POW_FAIL_REENTERED;

	switch (r->call) {
	case CALL_ADD:
		return offer(r, 1000, 0);
	case CALL_POP:
		res = equix_pow_queue_pop(r->q, 0, 0, &out);
		if (res == EQUIX_POW_OK && out.status == EQUIX_POW_POP_SERVED)
			note_back(r, out.payload);
		return res;
	case CALL_FREE:
		equix_pow_queue_free(r->q);
		return res;
	case CALL_STATS:
		return equix_pow_queue_stats_get(r->q, &st);
	case CALL_PERIOD:
		return equix_pow_queue_period(r->q, &p, 1);
	case CALL_SET_EFFORT:
		return equix_pow_queue_set_suggested_effort(r->q, 5);
	case CALL_SET_LIMITS:
		return equix_pow_queue_set_limits(r->q, 1, 1, 1);
	case CALL_TICK:
		/* an update is due: the tick would read and reset the
		 * queue's period */
		return equix_pow_controller_tick(r->ctl, 50000, &t);
	case CALL_COUNT:
		break;
	}
	return EQUIX_POW_FAIL_INTERNAL;
}

static void reenter(void *user, void *payload, uint32_t effort,
		    equix_pow_discard_reason reason)
{
	reentry *r = user;
	equix_pow_result res;

	(void)effort;
	(void)reason;
	note_back(r, payload);
	r->calls++;
	if (r->depth > 0)
		return;
	r->depth++;
	res = reentry_make(r);
	r->depth--;
	r->made++;
	if (res == EQUIX_POW_FAIL_REENTERED)
		r->refused++;
	else if (r->made - r->refused == 1)
		r->other = res;
}

/* Brings the queue to the context's callbacks. */
static void reentry_drive(reentry *r, reentry_context context)
{
	equix_pow_popped out;

	switch (context) {
	case IN_TRIM: /* high level 61: the 61st addition trims 31 */
		for (uint32_t i = 0; i < 61; i++)
			ck_assert_int_eq(offer(r, i, 100), EQUIX_POW_OK);
		break;
	case IN_TRIM_EXPIRY: /* 10 too old when the trim meets them */
		for (uint32_t i = 0; i < 10; i++)
			ck_assert_int_eq(offer(r, 1000 + i, 0), EQUIX_POW_OK);
		for (uint32_t i = 0; i < 51; i++)
			ck_assert_int_eq(offer(r, i, 20000), EQUIX_POW_OK);
		break;
	case IN_POP: /* every request too old: the pop ends empty */
		for (uint32_t i = 0; i < 5; i++)
			ck_assert_int_eq(offer(r, i, 0), EQUIX_POW_OK);
		ck_assert_int_eq(equix_pow_queue_pop(r->q, 20000, 0, &out),
				 EQUIX_POW_OK);
		ck_assert_int_eq(out.status, EQUIX_POW_POP_EMPTY);
		break;
	case IN_FREE: /* the test's free is the context */
		for (uint32_t i = 0; i < 5; i++)
			ck_assert_int_eq(offer(r, i, 0), EQUIX_POW_OK);
		break;
	case CONTEXT_COUNT:
		break;
	}
}

/* The payloads the queue took and has not handed back. */
static uint32_t still_queued(const reentry *r)
{
	uint32_t n = 0;

	for (int i = 0; i < r->next; i++)
		n += r->queued[i] > r->back[i] ? 1u : 0u;
	return n;
}

/* Every call, from every context: refused, and every payload the queue
 * took comes back exactly once (none that it refused), whatever the
 * callback tried. */
START_TEST(reentry_refused)
{
	reentry_context context = (reentry_context)(_i / CALL_COUNT);
	static reentry r;
	const char *what = context_names[context];

	memset(&r, 0, sizeof r);
	r.call = (reentry_call)(_i % CALL_COUNT);
	/* trims at 61 with a rate limit; pops without one */
	r.q = context == IN_TRIM || context == IN_TRIM_EXPIRY
		      ? equix_pow_queue_alloc(1, 1, 0, reenter, &r)
		      : equix_pow_queue_alloc(0, 0, 0, reenter, &r);
	ck_assert_ptr_nonnull(r.q);
	r.ctl = equix_pow_controller_alloc(r.q, 0, 1, NULL, NULL);
	ck_assert_ptr_nonnull(r.ctl);
	reentry_drive(&r, context);
	if (context != IN_FREE) {
		ck_assert_msg(r.calls > 0, "%s: no callback", what);
		/* the queue is whole: its figures, then its free, hand
		 * back the rest */
		ck_assert_uint_eq(stats_of(r.q).length, still_queued(&r));
	}
	equix_pow_queue_free(r.q);
	equix_pow_controller_free(r.ctl);
	ck_assert_msg(r.calls > 0, "%s: no callback", what);
	ck_assert_int_eq(r.strays, 0);
	for (int i = 0; i < r.next; i++)
		ck_assert_msg(r.back[i] == r.queued[i],
			      "%s from the callback in %s: payload %d handed "
			      "back %d times, queued %d",
			      call_names[r.call], what, i, r.back[i],
			      r.queued[i]);
	ck_assert_msg(r.refused == r.made,
		      "%s from the callback in %s: %ld of %ld calls not "
		      "refused, the first gave %s",
		      call_names[r.call], what, r.made - r.refused, r.made,
		      equix_pow_result_string(r.other));
}
END_TEST

/* ---- A callback that does not return ----------------------------------- */

/* The callback of the tests below: counts what comes back, as reenter()
 * does, and leaves by longjmp() at its leave_at-th run (from 1; 0:
 * never). */
static jmp_buf left;

static void leave(void *user, void *payload, uint32_t effort,
		  equix_pow_discard_reason reason)
{
	reentry *r = user;

	(void)effort;
	(void)reason;
	note_back(r, payload);
	if (++r->calls == r->leave_at)
		longjmp(left, 1);
}

/* After the callback was left, every call is refused and changes nothing:
 * the queue cannot tell it from a callback still running. */
static void assert_refusing(reentry *r, const char *what)
{
	equix_pow_queue_stats st;
	equix_pow_popped out;
	equix_pow_tick t;
	long calls = r->calls;

	ck_assert_int_eq(equix_pow_queue_stats_get(r->q, &st),
			 EQUIX_POW_FAIL_REENTERED);
	ck_assert_int_eq(offer(r, 2000, 0), EQUIX_POW_FAIL_REENTERED);
	ck_assert_int_eq(equix_pow_queue_pop(r->q, 0, 0, &out),
			 EQUIX_POW_FAIL_REENTERED);
	ck_assert_int_eq(equix_pow_controller_tick(r->ctl, 50000, &t),
			 EQUIX_POW_FAIL_REENTERED);
	equix_pow_queue_free(r->q); /* does nothing */
	ck_assert_msg(r->calls == calls, "%s: a refused call called back",
		      what);
}

/* The callback leaves by longjmp() at its first or third run, in each
 * context: then every call is refused; after equix_pow_queue_recover()
 * the queue holds exactly the payloads it took and did not hand back,
 * below its high level, serves again, and its free hands each of them
 * back once. The payloads are slots of a static array and the queue is
 * freed at the end: nothing leaks by the test's own design. */
START_TEST(callback_left)
{
	reentry_context context = (reentry_context)(_i % CONTEXT_COUNT);
	const char *what = context_names[context];
	static reentry r;
	equix_pow_queue_stats st;
	equix_pow_popped out;

	memset(&r, 0, sizeof r);
	r.leave_at = _i < CONTEXT_COUNT ? 1 : 3;
	r.q = context == IN_TRIM || context == IN_TRIM_EXPIRY
		      ? equix_pow_queue_alloc(1, 1, 0, leave, &r)
		      : equix_pow_queue_alloc(0, 0, 0, leave, &r);
	ck_assert_ptr_nonnull(r.q);
	r.ctl = equix_pow_controller_alloc(r.q, 0, 1, NULL, NULL);
	ck_assert_ptr_nonnull(r.ctl);
	if (setjmp(left) == 0) {
		reentry_drive(&r, context);
		if (context == IN_FREE)
			equix_pow_queue_free(r.q);
		ck_abort_msg("%s: the callback was not left", what);
	}
	ck_assert_int_eq(r.calls, r.leave_at);
	/* the addition that trimmed had queued its payload, but did not
	 * return to offer() to note it */
	if (context == IN_TRIM || context == IN_TRIM_EXPIRY)
		r.queued[r.next - 1] = 1;
	assert_refusing(&r, what);
	ck_assert_int_eq(equix_pow_queue_recover(r.q), EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_stats_get(r.q, &st), EQUIX_POW_OK);
	ck_assert_msg(st.length == still_queued(&r),
		      "%s, left at callback %ld: %u queued, %u not handed back",
		      what, r.leave_at, st.length, still_queued(&r));
	ck_assert_uint_lt(st.length, st.high_level);
	/* it serves again: the newest request has the highest effort */
	r.leave_at = 0;
	ck_assert_int_eq(offer(&r, 5000, 30000), EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_pop(r.q, 30000, 0, &out),
			 EQUIX_POW_OK);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_SERVED);
	ck_assert_ptr_eq(out.payload, &r.slots[r.next - 1]);
	note_back(&r, out.payload);
	equix_pow_queue_free(r.q);
	equix_pow_controller_free(r.ctl);
	ck_assert_int_eq(r.strays, 0);
	for (int i = 0; i < r.next; i++)
		ck_assert_msg(r.back[i] == r.queued[i],
			      "%s, left at callback %ld: payload %d handed "
			      "back %d times, queued %d",
			      what, (long)(_i < CONTEXT_COUNT ? 1 : 3), i,
			      r.back[i], r.queued[i]);
}
END_TEST

/* ---- The queue against a naive model ------------------------------------ */

/* The same rules over a plain array kept sorted by insertion, with a
 * bucket counted the simple way; the two must agree on every outcome and
 * every discard. */
#define MODEL_CAP 256

typedef struct model_req {
	uint32_t effort;
	uint64_t enqueued;
	int id;
} model_req;

typedef struct model {
	model_req reqs[MODEL_CAP]; /* best first */
	int length;
	uint32_t low, high, suggested;
	uint64_t bucket, bucket_max, rate, refilled; /* milli-tokens */
	uint64_t total;
	uint32_t handled, max_trimmed;
	int had_queue;
	long pops[5];    /* by equix_pow_pop_status: every one is met */
	discard_log log; /* what the model discarded */
} model;

static void model_discard(model *m, const model_req *r,
			  equix_pow_discard_reason reason)
{
	if (m->log.count < LOG_MAX) {
		m->log.ids[m->log.count] = r->id;
		m->log.efforts[m->log.count] = r->effort;
		m->log.reasons[m->log.count] = reason;
		m->log.count++;
	}
	m->log.by_reason[reason]++;
	m->log.total++;
}

static int model_old(const model_req *r, uint64_t now)
{
	return now > r->enqueued + EQUIX_POW_QUEUE_MAX_AGE_MS;
}

static void model_trim(model *m, uint64_t now)
{
	model_req kept[MODEL_CAP];
	int k = 0;

	for (int i = 0; i < m->length; i++) {
		const model_req *r = &m->reqs[i];

		if (k < (int)m->high / 2 && !model_old(r, now)) {
			kept[k++] = *r;
			continue;
		}
		if (r->effort > m->max_trimmed)
			m->max_trimmed = r->effort;
		model_discard(m, r,
			      k < (int)m->high / 2 ? EQUIX_POW_DISCARD_EXPIRED
						   : EQUIX_POW_DISCARD_TRIMMED);
	}
	memcpy(m->reqs, kept, sizeof(model_req) * (size_t)k);
	m->length = k;
}

static void model_add(model *m, uint32_t effort, int id, uint64_t now)
{
	int at = 0;

	/* after every request of the same or higher effort */
	while (at < m->length && m->reqs[at].effort >= effort)
		at++;
	memmove(&m->reqs[at + 1], &m->reqs[at],
		sizeof(model_req) * (size_t)(m->length - at));
	m->reqs[at] = (model_req){effort, now, id};
	m->length++;
	m->total += effort;
	if (m->length >= (int)m->high)
		model_trim(m, now);
}

static model_req model_take(model *m)
{
	model_req r = m->reqs[0];

	m->length--;
	memmove(&m->reqs[0], &m->reqs[1],
		sizeof(model_req) * (size_t)m->length);
	return r;
}

/* Returns the status; *served gets the request served. */
static equix_pow_pop_status model_pop(model *m, uint64_t now,
				      uint32_t in_flight, model_req *served)
{
	uint64_t accrued = (now - m->refilled) * m->rate;

	m->bucket = m->bucket + accrued > m->bucket_max ? m->bucket_max
							 : m->bucket + accrued;
	m->refilled = now;
	for (;;) {
		model_req r;

		if (m->length == 0)
			break;
		if (in_flight >= EQUIX_POW_QUEUE_MAX_IN_FLIGHT &&
		    m->reqs[0].effort < m->suggested)
			return EQUIX_POW_POP_WAIT_IN_FLIGHT;
		if (m->bucket < 1000)
			return EQUIX_POW_POP_WAIT_RATE;
		m->bucket -= 1000;
		r = model_take(m);
		if (model_old(&r, now)) {
			model_discard(m, &r, EQUIX_POW_DISCARD_EXPIRED);
			continue;
		}
		*served = r;
		m->handled++;
		if (m->length >= (int)m->low)
			m->had_queue = 1;
		return EQUIX_POW_POP_SERVED;
	}
	return EQUIX_POW_POP_EMPTY;
}

static void assert_same_discards(discard_log *got, discard_log *want)
{
	ck_assert_int_eq(got->count, want->count);
	for (int i = 0; i < got->count; i++) {
		ck_assert_int_eq(got->ids[i], want->ids[i]);
		ck_assert_uint_eq(got->efforts[i], want->efforts[i]);
		ck_assert_int_eq(got->reasons[i], want->reasons[i]);
	}
	for (int r = 0; r < 4; r++)
		ck_assert_int_eq(got->by_reason[r], want->by_reason[r]);
	got->count = want->count = 0;
}

static void assert_same_state(equix_pow_queue *q, const model *m)
{
	equix_pow_period p = period_of(q, 0);

	ck_assert_uint_eq(p.queue_length, (uint32_t)m->length);
	ck_assert_uint_eq(p.top_effort, m->length ? m->reqs[0].effort : 0);
	ck_assert_uint_eq(p.total_effort, m->total);
	ck_assert_uint_eq(p.handled, m->handled);
	ck_assert_uint_eq(p.max_trimmed_effort, m->max_trimmed);
	ck_assert_int_eq(p.had_queue, m->had_queue);
}

static void model_step(equix_pow_queue *q, discard_log *log, model *m,
		       uint64_t *state, uint64_t now, int *next_id)
{
	uint32_t op = random_below(state, 10);

	if (op < 5) {
		/* few efforts, many ties */
		uint32_t effort = random_below(state, 12) * 3;

		add(q, effort, *next_id, now);
		model_add(m, effort, *next_id, now);
		++*next_id;
	} else if (op < 9) {
		uint32_t in_flight = random_below(state, 24);
		model_req want;
		equix_pow_pop_status s = model_pop(m, now, in_flight, &want);
		equix_pow_popped out = pop(q, now, in_flight);

		ck_assert_int_eq(out.status, s);
		m->pops[s]++;
		if (s == EQUIX_POW_POP_SERVED) {
			ck_assert_uint_eq(out.effort, want.effort);
			ck_assert_uint_eq(out.enqueued_ms, want.enqueued);
			ck_assert_int_eq(payload_take(out.payload), want.id);
		} else if (s != EQUIX_POW_POP_EMPTY) {
			ck_assert_uint_eq(out.retry_at_ms, now + 100);
		}
	} else {
		uint32_t suggested = random_below(state, 40);

		equix_pow_queue_set_suggested_effort(q, suggested);
		m->suggested = suggested;
	}
	if (random_below(state, 200) == 0) {
		/* a period ends */
		period_of(q, 1);
		m->total = m->handled = m->max_trimmed = 0;
		m->had_queue = 0;
	}
	assert_same_discards(log, &m->log);
	assert_same_state(q, m);
}

START_TEST(against_model)
{
	/* rate 2, burst 4: low level 8, high level 124 (trim to 62) */
	model m;
	discard_log log;
	equix_pow_queue *q = queue_new(2, 4, 0, &log);
	uint64_t state = 20260101, now = 0;
	int next_id = 0, steps = tu_count(20000);

	memset(&m, 0, sizeof m);
	m.low = 8;
	m.high = 124;
	m.rate = 2;
	m.bucket = m.bucket_max = 4000;
	ck_assert_uint_eq(stats_of(q).high_level, m.high);
	for (int i = 0; i < steps; i++) {
		/* bursts of arrivals, then quiet spells */
		now += random_below(&state, 500) == 0
			       ? random_below(&state, 20000)
			       : random_below(&state, 40);
		model_step(q, &log, &m, &state, now, &next_id);
	}
	ck_assert_int_gt(log.by_reason[EQUIX_POW_DISCARD_TRIMMED], 0);
	ck_assert_int_gt(log.by_reason[EQUIX_POW_DISCARD_EXPIRED], 0);
	for (int st = EQUIX_POW_POP_SERVED; st <= EQUIX_POW_POP_WAIT_RATE; st++)
		ck_assert_int_gt(m.pops[st], 0);
	equix_pow_queue_free(q);
	ck_assert_int_eq(log.by_reason[EQUIX_POW_DISCARD_FREED], m.length);
}
END_TEST

/* ---- Bad arguments ------------------------------------------------------ */

START_TEST(null_arguments)
{
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_popped out;
	equix_pow_queue_stats s;
	equix_pow_period p;
	equix_pow_tick t;

	ck_assert_int_eq(equix_pow_queue_add(NULL, 1, NULL, 0),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_pop(NULL, 0, 0, &out),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_pop(q, 0, 0, NULL),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_set_suggested_effort(NULL, 1),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_set_limits(NULL, 1, 1, 1),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_stats_get(NULL, &s),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_stats_get(q, NULL),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_period(NULL, &p, 1),
			 EQUIX_POW_FAIL_ARGUMENT);
	ck_assert_int_eq(equix_pow_queue_period(q, NULL, 1),
			 EQUIX_POW_FAIL_ARGUMENT);
	equix_pow_queue_free(NULL);
	ck_assert_ptr_null(equix_pow_controller_alloc(NULL, 0, 0, NULL, NULL));
	equix_pow_controller_free(NULL);
	ck_assert_int_eq(equix_pow_controller_tick(NULL, 0, &t),
			 EQUIX_POW_FAIL_ARGUMENT);
	{
		equix_pow_controller *c =
			equix_pow_controller_alloc(q, 0, 0, NULL, NULL);

		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(equix_pow_controller_tick(c, 0, NULL),
				 EQUIX_POW_FAIL_ARGUMENT);
		equix_pow_controller_free(c);
	}
	ck_assert_uint_eq(equix_pow_effort_update(77, NULL), 77);
	ck_assert_int_eq(log.total, 0);
	equix_pow_queue_free(q);
}
END_TEST

/* ---- The controller ----------------------------------------------------- */

/* A fake random source: returns `value` (or upper - 1 when value is
 * UINT32_MAX) and records the bound it was asked for. */
typedef struct fake_rng {
	uint32_t value;
	uint32_t last_upper;
	int calls;
} fake_rng;

static uint32_t fake_uniform(void *user, uint32_t upper)
{
	fake_rng *r = user;

	r->last_upper = upper;
	r->calls++;
	return r->value == UINT32_MAX ? upper - 1 : r->value;
}

static equix_pow_tick tick_at(equix_pow_controller *c, uint64_t now)
{
	equix_pow_tick t;

	ck_assert_int_eq(equix_pow_controller_tick(c, now, &t), EQUIX_POW_OK);
	return t;
}

START_TEST(rotation_bounds)
{
	static const struct {
		uint32_t value;
		uint64_t want;
	} cases[] = {
		{0, EQUIX_POW_ROTATE_MIN_MS},
		{UINT32_MAX, EQUIX_POW_ROTATE_MAX_MS - 1},
		{900000, EQUIX_POW_ROTATE_MIN_MS}, /* out of range: modulo */
		{12345, EQUIX_POW_ROTATE_MIN_MS + 12345},
	};
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fake_rng rng = {cases[i].value, 0, 0};
		equix_pow_controller *c =
			equix_pow_controller_alloc(q, 1000, 0, fake_uniform,
						   &rng);
		equix_pow_tick t;

		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(rng.calls, 1);
		ck_assert_uint_eq(rng.last_upper, 900000);
		t = tick_at(c, 1000);
		ck_assert_uint_eq(t.events, 0);
		ck_assert_uint_eq(t.expiration_ms, 1000 + cases[i].want);
		ck_assert_uint_eq(t.next_tick_ms,
				  1000 + EQUIX_POW_UPDATE_PERIOD_MS);
		ck_assert_uint_eq(t.suggested_effort, 0);
		ck_assert_uint_eq(t.published_effort, 0);
		/* the rotation, late: the new lifetime counts from then */
		t = tick_at(c, 1000 + cases[i].want + 7);
		ck_assert(t.events & EQUIX_POW_TICK_ROTATE);
		ck_assert(t.events & EQUIX_POW_TICK_REPUBLISH);
		ck_assert_uint_eq(t.expiration_ms,
				  1000 + cases[i].want + 7 + cases[i].want);
		ck_assert_int_eq(rng.calls, 2);
		equix_pow_controller_free(c);
	}
	/* libsodium's source: somewhere in [min, max). */
	for (int i = 0; i < 20; i++) {
		equix_pow_controller *c =
			equix_pow_controller_alloc(q, 0, 0, NULL, NULL);
		equix_pow_tick t = tick_at(c, 0);

		ck_assert_uint_ge(t.expiration_ms, EQUIX_POW_ROTATE_MIN_MS);
		ck_assert_uint_lt(t.expiration_ms, EQUIX_POW_ROTATE_MAX_MS);
		equix_pow_controller_free(c);
	}
	equix_pow_queue_free(q);
}
END_TEST

START_TEST(updates_each_period)
{
	fake_rng rng = {0, 0, 0};
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 500, 1000, fake_uniform, &rng);
	equix_pow_tick t;

	t = tick_at(c, 1499);
	ck_assert_uint_eq(t.events, 0);
	ck_assert_uint_eq(t.next_tick_ms, 1500);
	t = tick_at(c, 1500);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
	ck_assert_uint_eq(t.next_tick_ms, 2500);
	ck_assert_uint_eq(tick_at(c, 2000).events, 0);
	/* late: the next period counts from the tick */
	t = tick_at(c, 2600);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
	ck_assert_uint_eq(t.next_tick_ms, 3600);
	/* time going backwards does nothing */
	ck_assert_uint_eq(tick_at(c, 100).events, 0);
	/* the update reads the queue's period and starts a new one */
	add(q, 30, 0, 3000);
	ck_assert_uint_eq(period_of(q, 0).total_effort, 30);
	t = tick_at(c, 3600);
	ck_assert_uint_eq(period_of(q, 0).total_effort, 0);
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
}
END_TEST

/* An increase from a queue that keeps its top, then, with no traffic and
 * an empty queue, a decay of 2/3 a period, republished each time (a third
 * is more than 15%) until 0 stays 0. */
START_TEST(increase_then_decay)
{
	static const uint32_t decay[] = {
		3400, 2266, 1510, 1006, 670, 446, 297, 198, 132, 88, 58,
		38,   25,   16,   10,   6,   4,   2,   1,   0,   0,  0,
	};
	fake_rng rng = {0, 0, 0};
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 1000, fake_uniform, &rng);
	equix_pow_tick t;
	uint64_t now = 1000;

	for (int i = 0; i < 17; i++)
		add(q, 300, i, 10);
	pop_served(q, 10, 0, 300); /* 16 left: a queue, its top 300 >= 0 */
	t = tick_at(c, now);
	ck_assert_uint_eq(t.events,
			  EQUIX_POW_TICK_UPDATED | EQUIX_POW_TICK_REPUBLISH);
	ck_assert_uint_eq(t.suggested_effort, 5100); /* 17 * 300 / 1 */
	ck_assert_uint_eq(t.published_effort, 5100);
	ck_assert_uint_eq(stats_of(q).suggested_effort, 5100);
	/* 16 still queued, no queue seen: at the low level, no change */
	now += 1000;
	t = tick_at(c, now);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
	ck_assert_uint_eq(t.suggested_effort, 5100);
	/* served out (nothing in flight, so 300 < 5100 is no obstacle) */
	for (int i = 0; i < 16; i++)
		pop_served(q, now, 0, 300);
	for (size_t i = 0; i < sizeof decay / sizeof decay[0]; i++) {
		uint32_t before = t.published_effort;

		now += 1000;
		t = tick_at(c, now);
		ck_assert_uint_eq(t.suggested_effort, decay[i]);
		ck_assert_uint_eq(stats_of(q).suggested_effort, decay[i]);
		if (before != decay[i]) {
			ck_assert_uint_eq(t.events,
					  EQUIX_POW_TICK_UPDATED |
						  EQUIX_POW_TICK_REPUBLISH);
			ck_assert_uint_eq(t.published_effort, decay[i]);
		} else {
			ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
		}
	}
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
}
END_TEST

/* Each period trims a request above the suggested effort with none
 * served: +1 a period. The descriptor follows only past 15%, and the
 * rotation, which falls on the 63rd update (period 100 s, lifetime 6300
 * s), republishes with the effort that update gives, as Tor's descriptor
 * carries it. */
START_TEST(republish_and_rotation)
{
	static const uint32_t published[] = {1,  2,  3,  4,  5,  6,  7,
					     9,  11, 13, 15, 18, 21, 25,
					     29, 34, 40, 47, 55};
	fake_rng rng = {0, 0, 0};
	discard_log log;
	equix_pow_queue *q = queue_new(1, 1, 0, &log); /* high level 61 */
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 100000, fake_uniform, &rng);
	equix_pow_tick t;
	size_t next = 0;
	int id = 0;

	for (uint32_t n = 1; n <= 63; n++) {
		uint64_t now = (uint64_t)n * 100000;

		while (log.by_reason[EQUIX_POW_DISCARD_TRIMMED] +
			       log.by_reason[EQUIX_POW_DISCARD_EXPIRED] <
		       (long)n * 31)
			add(q, UINT32_MAX, id++, now - 1);
		ck_assert_uint_eq(tick_at(c, now - 1).events, 0);
		t = tick_at(c, now);
		ck_assert_uint_eq(t.suggested_effort, n);
		if (n == 63)
			break;
		ck_assert_uint_eq(t.next_tick_ms, now + 100000);
		if (next < sizeof published / sizeof published[0] &&
		    published[next] == n) {
			ck_assert_uint_eq(t.events,
					  EQUIX_POW_TICK_UPDATED |
						  EQUIX_POW_TICK_REPUBLISH);
			next++;
		} else {
			ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
		}
		ck_assert_uint_eq(t.published_effort, published[next - 1]);
	}
	ck_assert_uint_eq(next, sizeof published / sizeof published[0]);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED |
					    EQUIX_POW_TICK_REPUBLISH |
					    EQUIX_POW_TICK_ROTATE);
	ck_assert_uint_eq(t.published_effort, 63);
	ck_assert_uint_eq(t.expiration_ms, 2 * EQUIX_POW_ROTATE_MIN_MS);
	ck_assert_uint_eq(t.next_tick_ms, 6400000);
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
}
END_TEST

/* A clock at its end. Deadlines are saturated sums, so past the end they
 * are UINT64_MAX, which is never due: a caller that ticks at each
 * next_tick_ms it is given cannot spin there, retiring a seed a tick. */
START_TEST(end_of_time)
{
	fake_rng rng = {0, 0, 0};
	discard_log log;
	equix_pow_queue *q = queue_new(0, 0, 0, &log);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 1000, fake_uniform, &rng);
	equix_pow_tick t;
	unsigned events = 0;
	int rotations = 0;

	/* Both deadlines passed: one rotation, one update, and the new
	 * deadlines fall past the end. */
	t = tick_at(c, UINT64_MAX);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_ROTATE |
					    EQUIX_POW_TICK_REPUBLISH |
					    EQUIX_POW_TICK_UPDATED);
	ck_assert_uint_eq(t.expiration_ms, UINT64_MAX);
	ck_assert_uint_eq(t.next_tick_ms, UINT64_MAX);
	for (int i = 0; i < 10; i++) {
		t = tick_at(c, t.next_tick_ms);
		events |= t.events;
		rotations += (t.events & EQUIX_POW_TICK_ROTATE) != 0;
	}
	ck_assert_msg(events == 0,
		      "10 ticks at next_tick_ms = UINT64_MAX: events %#x, "
		      "%d seeds retired",
		      events, rotations);
	ck_assert_uint_eq(t.next_tick_ms, UINT64_MAX);
	ck_assert_int_eq(rng.calls, 2);
	equix_pow_controller_free(c);

	/* Made at the end: nothing is ever due. */
	c = equix_pow_controller_alloc(q, UINT64_MAX, 0, fake_uniform, &rng);
	for (int i = 0; i < 3; i++) {
		t = tick_at(c, UINT64_MAX);
		ck_assert_uint_eq(t.events, 0);
		ck_assert_uint_eq(t.next_tick_ms, UINT64_MAX);
	}
	equix_pow_controller_free(c);

	/* Just before the end, a deadline is due once; the next one,
	 * saturated, never. */
	c = equix_pow_controller_alloc(q, UINT64_MAX - 1001, 1000, fake_uniform,
				       &rng);
	t = tick_at(c, UINT64_MAX - 2);
	ck_assert_uint_eq(t.events, 0);
	ck_assert_uint_eq(t.next_tick_ms, UINT64_MAX - 1);
	t = tick_at(c, t.next_tick_ms);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
	ck_assert_uint_eq(t.next_tick_ms, UINT64_MAX);
	ck_assert_uint_eq(tick_at(c, UINT64_MAX).events, 0);
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pow_queue");
	TCase *rules = tcase_create("rules");
	TCase *queue = tcase_create("queue");
	TCase *controller = tcase_create("controller");

	tcase_set_timeout(queue, 120);
	tcase_add_test(rules, effort_update_table);
	tcase_add_test(rules, republish_table);
	tcase_add_test(queue, levels);
	tcase_add_test(queue, order_and_tie_break);
	tcase_add_test(queue, served_fields);
	tcase_add_test(queue, trim_at_high_level);
	tcase_add_test(queue, trim_drops_old_requests);
	tcase_add_test(queue, trim_keeps_age_limit);
	tcase_add_test(queue, length_bounded);
	tcase_add_test(queue, length_bounded_at_max_rate);
	tcase_add_test(queue, expiry_on_pop);
	tcase_add_test(queue, token_bucket);
	tcase_add_test(queue, token_bucket_exact);
	tcase_add_test(queue, expired_spends_token);
	tcase_add_test(queue, in_flight_rule);
	tcase_add_test(queue, in_flight_before_bucket);
	tcase_add_test(queue, had_queue_marking);
	tcase_add_test(queue, had_queue_not_on_rate_wait);
	tcase_add_test(queue, every_payload_once);
	tcase_add_test(queue, no_callback);
	tcase_add_loop_test(queue, reentry_refused, 0,
			    CONTEXT_COUNT * CALL_COUNT);
	tcase_add_loop_test(queue, callback_left, 0, 2 * CONTEXT_COUNT);
	tcase_add_test(queue, against_model);
	tcase_add_test(queue, null_arguments);
	tcase_add_test(controller, rotation_bounds);
	tcase_add_test(controller, updates_each_period);
	tcase_add_test(controller, increase_then_decay);
	tcase_add_test(controller, republish_and_rotation);
	tcase_add_test(controller, end_of_time);
	suite_add_tcase(s, rules);
	suite_add_tcase(s, queue);
	suite_add_tcase(s, controller);
	return tu_run_suite(s);
}
